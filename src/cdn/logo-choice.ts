/**
 * Which logo of a record, and which of its files, a CDN URL draws from. The CDN and the record-to-URL helper
 * (logo-cdn-urls.ts) both use these, so a URL rendered from a record always serves that record's logo.
 */
import type { Format, Logo } from '../domain/brand.js';
import type { CdnFormat, CdnLogoType, CdnTheme } from './logo-cdn-request.js';

/**
 * The record's logo of `type`: with a theme, the one of that theme, else one with no theme, else the first of the
 * type (a logo on the wrong backdrop beats a placeholder); without, the first of the type (records list the main
 * one first). Type `other` is never served.
 */
export function pickLogo(logos: readonly Logo[], type: CdnLogoType, theme: CdnTheme | null): Logo | null {
  const ofType = logos.filter((logo) => logo.type === type && logo.formats.length > 0);
  if (theme === null) return ofType[0] ?? null;
  return ofType.find((l) => l.theme === theme) ?? ofType.find((l) => l.theme === null) ?? ofType[0] ?? null;
}

/**
 * The file a variant is made from: for `.svg`, the SVG original (null when the logo has none); for a raster, the
 * SVG when it declares a size (drawn at the target size, never enlarged from a small raster), else the largest
 * raster file.
 */
export function originalFor(logo: Logo, format: CdnFormat): Format | null {
  const svg = logo.formats.find((f) => f.format === 'svg');
  if (format === 'svg') return svg ?? null;
  if (svg && svg.width !== null && svg.height !== null) return svg;
  const rasters = logo.formats.filter((f) => f.format !== 'svg');
  return rasters.reduce<Format | null>((best, f) => (best === null || area(f) > area(best) ? f : best), null);
}

function area(format: Format): number {
  return (format.width ?? 0) * (format.height ?? 0);
}

/** Records hold asset keys (ADR 0011); a URL ending with one (a record written before 0004_asset_keys) reads too. */
export function assetKeyOf(src: string): string {
  return src.slice(src.lastIndexOf('/') + 1);
}
