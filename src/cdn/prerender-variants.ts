/**
 * The logo CDN's most requested variants of a freshly crawled SVG logo, drawn at crawl time (issue 33), so most
 * CDN requests are answered from the variant area without drawing an SVG on demand: the URL without a size
 * (256 px on the longest side, WebP or PNG by `Accept`), `w` 64 and 128 (the sizes of the docs' examples) and the
 * record's own CDN forms of the logo's raster renditions (`/w/{w}/h/{h}.png|.webp`, logo-cdn-urls.ts). Called
 * where crawls run (a crawl worker, ADR 0014), after the renditions, under the crawl's own limits.
 */
import type { AssetStore, VariantStore } from '../assets/asset-store.js';
import type { Format, Logo } from '../domain/brand.js';
import { CDN_MAX_SIDE } from './logo-cdn-request.js';
import { assetKeyOf, originalFor } from './logo-choice.js';
import type { RasterFormat } from './render-variant.js';
import { inProcessSvgRenderer, type SvgRenderer } from './svg-renderer.js';
import { logoVariantKey } from './variant-cache.js';
import { variantGeometry, type Requested } from './variant-geometry.js';

/** Sizes pre-rendered for every SVG logo, each as WebP and PNG. */
export const PRERENDERED_SIZES: readonly Requested[] = [
  { width: null, height: null },
  { width: 64, height: null },
  { width: 128, height: null },
];
const PRERENDERED_FORMATS: readonly RasterFormat[] = ['webp', 'png'];
const FORMAT_OF: Readonly<Record<Format['format'], RasterFormat | null>> = { svg: null, png: 'png', webp: 'webp', jpeg: 'jpeg' };

/** The variants pre-rendered for one logo (none unless the CDN draws its rasters from an SVG with a declared size). */
export function prerenderedRequests(logo: Logo): { size: Requested; format: RasterFormat }[] {
  const original = originalFor(logo, 'png');
  if (logo.type === 'other' || original?.format !== 'svg') return [];
  const requests = PRERENDERED_SIZES.flatMap((size) => PRERENDERED_FORMATS.map((format) => ({ size, format })));
  for (const file of logo.formats) {
    const format = FORMAT_OF[file.format];
    if (!format || file.width === null || file.height === null) continue;
    const scale = Math.min(1, CDN_MAX_SIDE / Math.max(file.width, file.height));
    requests.push({ size: { width: Math.max(1, Math.round(file.width * scale)), height: Math.max(1, Math.round(file.height * scale)) }, format });
  }
  return requests;
}

/**
 * Draws and stores the pre-rendered variants of `logos` that are not stored yet; returns how many it stored. A logo
 * whose SVG cannot be read or drawn is skipped (the CDN draws on demand, through its pool, or answers the fallback).
 */
export async function prerenderLogoVariants(logos: readonly Logo[], assets: AssetStore & VariantStore, renderer: SvgRenderer = inProcessSvgRenderer): Promise<number> {
  let stored = 0;
  for (const logo of logos) {
    const requests = prerenderedRequests(logo);
    const original = originalFor(logo, 'png');
    if (requests.length === 0 || !original) continue;
    const key = assetKeyOf(original.src);
    try {
      const file = await assets.get(key);
      if (!file) continue;
      const svg = file.bytes.toString('utf8');
      for (const { size, format } of requests) {
        const geometry = variantGeometry(size, original, true);
        const variantKey = logoVariantKey(key, geometry, format);
        if (await assets.getVariant(variantKey)) continue;
        await assets.putVariant(variantKey, await renderer.variant(svg, geometry, format));
        stored += 1;
      }
    } catch {
      // The CDN draws it on demand instead.
    }
  }
  return stored;
}
