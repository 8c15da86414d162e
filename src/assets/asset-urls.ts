/**
 * Turns the asset keys records hold into the URLs users see (ADR 0011). Records in the store hold only keys
 * (`<sha256>.<ext>`); every `src` of an answer is rendered from one base URL when the record is serialized:
 * `${BRANDBASE_PUBLIC_URL}/assets/` by default, or BRANDBASE_ASSET_BASE_URL (a CDN, a bucket's public URL).
 * The base is fixed when the service is built, so rendering is one string concatenation per format, paid once
 * per record put in the brand cache (brand-cache.ts), never per request.
 */
import type { Brand, Format } from '../domain/brand.js';
import { ASSET_KEY_PATTERN } from './asset-store.js';

type WithAssets = Pick<Brand, 'logos' | 'images'>;

export class AssetUrls {
  /** Ends with `/`; a key is appended to it as is. */
  readonly base: string;

  constructor(base: string) {
    this.base = base.endsWith('/') ? base : `${base}/`;
  }

  /** The URL of a key-shaped `src`; anything else (already a URL) is returned unchanged. */
  src(src: string): string {
    return ASSET_KEY_PATTERN.test(src) ? this.base + src : src;
  }

  /** `brand` with every key-shaped `src` of its logos and images rendered as a URL; the input is not changed. */
  renderBrand<T extends WithAssets>(brand: T): T {
    return {
      ...brand,
      logos: brand.logos.map((logo) => ({ ...logo, formats: logo.formats.map((f) => this.format(f)) })),
      images: brand.images.map((image) => ({ ...image, formats: image.formats.map((f) => this.format(f)) })),
    };
  }

  private format(format: Format): Format {
    const src = this.src(format.src);
    return src === format.src ? format : { ...format, src };
  }
}
