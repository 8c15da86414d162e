import type { CachedBrand } from '../brands/brand-cache.js';
import type { PaletteSource } from '../palette/palette-service.js';

/**
 * The palette as spliced into an answer: its JSON text, `null` (spec 2.8: no crawl to build from, NSFW, or not
 * built in time), or undefined when the request did not ask for one (the answer then has no `palette` key).
 */
export type PaletteText = string | null | undefined;

/** The brand's palette text for a request that set `palette` (palette-service.ts applies the lazy rule). */
export async function paletteText(palettes: PaletteSource | undefined, brand: CachedBrand): Promise<string | null> {
  const palette = palettes ? await palettes.paletteOf(brand.stored) : null;
  return palette ? JSON.stringify(palette) : null;
}

/**
 * The record as answered, with `palette` when it was requested. Records are cached serialized, so the palette is
 * spliced into the JSON text instead of re-serializing the record. The record's own `colors` never change.
 */
export function recordJson(brand: CachedBrand, palette: PaletteText): string {
  return palette === undefined ? brand.json : `${brand.json.slice(0, -1)},"palette":${palette ?? 'null'}}`;
}

/** recordJson for a single answer: without a palette, the cached UTF-8 bytes as they are (no re-encoding). */
export function answeredRecord(brand: CachedBrand, palette: PaletteText): Buffer | string {
  return palette === undefined ? brand.bytes : recordJson(brand, palette);
}
