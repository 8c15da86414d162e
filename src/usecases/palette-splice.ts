import type { CachedBrand } from '../brands/brand-cache.js';

/**
 * The record as answered, with `palette` when it was requested. Records are cached serialized, so the palette is
 * spliced into the JSON text instead of re-serializing the record. It is null until the palette builder exists,
 * which spec 2.8 allows ("palette is null when ... none can be built"). The record's own `colors` never change.
 */
export function recordJson(brand: CachedBrand, palette: boolean): string {
  return palette ? `${brand.json.slice(0, -1)},"palette":null}` : brand.json;
}

/** recordJson for a single answer: without a palette, the cached UTF-8 bytes as they are (no re-encoding). */
export function answeredRecord(brand: CachedBrand, palette: boolean): Buffer | string {
  return palette ? recordJson(brand, true) : brand.bytes;
}
