/**
 * A record's logos in their logo-CDN form (issue 20 item 3: "records and CDN agree"). Records hold asset keys
 * (ADR 0011); this renders, for each logo file, the CDN URL that serves that logo in that format at that size:
 * `{base}/{domain}/type/{type}[/theme/{theme}][/w/{w}/h/{h}].{ext}`. A logo the CDN would not pick for its URL (a
 * second logo of the same type and theme, type `other`) has no CDN form and gets null, so every URL rendered here
 * serves the record's own logo (test/cdn checks it through the CDN).
 */
import type { Brand, Format, Logo } from '../domain/brand.js';
import { pickLogo } from './logo-choice.js';
import { CDN_MAX_SIDE, type CdnLogoType } from './logo-cdn-request.js';

const EXTENSIONS: Readonly<Record<Format['format'], string>> = { svg: 'svg', png: 'png', webp: 'webp', jpeg: 'jpg' };

export class LogoCdnUrls {
  /** No trailing slash. */
  readonly base: string;

  constructor(base: string) {
    this.base = base.replace(/\/+$/, '');
  }

  /** The CDN URL of one file of one of the brand's logos, or null when the CDN would serve another logo for it. */
  formatUrl(brand: Pick<Brand, 'domain' | 'logos'>, logo: Logo, format: Format): string | null {
    if (logo.type === 'other' || !logo.formats.includes(format)) return null;
    const type = logo.type as CdnLogoType;
    // The shortest URL that picks this logo: without a theme when the logo is the first of its type.
    const theme = pickLogo(brand.logos, type, null) === logo ? null : logo.theme;
    if (pickLogo(brand.logos, type, theme) !== logo) return null;
    if (format.format === 'svg' && type === 'icon') return null;
    return `${this.base}/${encodeURIComponent(brand.domain)}/type/${type}${theme ? `/theme/${theme}` : ''}${sizeOf(format)}.${EXTENSIONS[format.format]}`;
  }

  /** Every logo file's CDN URL, in the record's order (null where it has none). */
  brandUrls(brand: Pick<Brand, 'domain' | 'logos'>): (string | null)[][] {
    return brand.logos.map((logo) => logo.formats.map((format) => this.formatUrl(brand, logo, format)));
  }
}

/** A raster's own size (within the CDN's bound); an SVG is served as it is. */
function sizeOf(format: Format): string {
  if (format.format === 'svg' || format.width === null || format.height === null) return '';
  const scale = Math.min(1, CDN_MAX_SIDE / Math.max(format.width, format.height));
  return `/w/${Math.max(1, Math.round(format.width * scale))}/h/${Math.max(1, Math.round(format.height * scale))}`;
}
