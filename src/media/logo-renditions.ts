/**
 * The extra formats users need next to a logo's original (spec 2.4, issue 4 item 4): an SVG gets a PNG and a
 * WebP rendition (most design tools and e-mail clients cannot take SVG); PNG and JPEG originals get a WebP
 * (smaller, keeps alpha). A WebP original needs nothing more. Every rendition reports the real width, height
 * and byte size of the file it stored, and is `transparent` exactly when the original is (same alpha).
 *
 * Renditions are made from the stored original by the brand indexer after extraction and before its one save,
 * never during the crawl (ADR 0008): encoding them costs about twice the whole extraction, nothing else in the
 * record depends on them, and a re-crawl reuses the ones it already has.
 */
import sharp, { type Sharp } from 'sharp';
import type { Format, Logo } from '../domain/brand.js';
import type { AssetStore } from '../assets/asset-store.js';
import { svgFittedTo } from './svg.js';

/** Longest side of an SVG's raster renditions: sharp enough for retina headers and app tiles. */
export const SVG_RENDITION_SIDE = 512;
const SHARP_TIMEOUT_SECONDS = 10;
/** Effort 2 of 6: logos are small flat graphics, higher effort buys a few bytes for several times the CPU. */
const WEBP_OPTIONS = { quality: 90, alphaQuality: 100, effort: 2 };
/** Originals that get renditions; a WebP original is already the compact raster. */
const NEEDS_RENDITIONS = new Set<Format['format']>(['svg', 'png', 'jpeg']);

/**
 * `logos` with renditions appended to every entry that has only its original and needs some; null when no
 * entry needed any (so callers can skip a write). Entries whose renditions fail keep their original alone.
 */
export async function withLogoRenditions(logos: readonly Logo[], assets: AssetStore): Promise<Logo[] | null> {
  if (!logos.some(lacksRenditions)) return null;
  return Promise.all(
    logos.map(async (logo) => {
      const original = logo.formats[0];
      if (!original || !lacksRenditions(logo)) return logo;
      return { ...logo, formats: [original, ...(await logoRenditions(original, assets))] };
    }),
  );
}

export function lacksRenditions(logo: Logo): boolean {
  const original = logo.formats[0];
  return logo.formats.length === 1 && original !== undefined && NEEDS_RENDITIONS.has(original.format);
}

/** The renditions of one stored original (its `src` is the asset key); [] when none can be made. */
export async function logoRenditions(original: Format, assets: AssetStore): Promise<Format[]> {
  const stored = await assets.get(assetKeyOf(original.src));
  if (!stored) return [];
  const transparent = original.background === 'transparent';
  try {
    if (original.format === 'svg') return await svgRenditions(stored.bytes, original, transparent, assets);
    if (original.format === 'png' || original.format === 'jpeg') {
      return [await encode(sharp(stored.bytes).autoOrient().webp(WEBP_OPTIONS), 'webp', transparent, assets)];
    }
    return [];
  } catch {
    // A rendition is a convenience; the original is already stored and listed.
    return [];
  }
}

/** Records hold asset keys (ADR 0011); a URL ending with one (a record written before 0004_asset_keys) reads too. */
function assetKeyOf(src: string): string {
  return src.slice(src.lastIndexOf('/') + 1);
}

async function svgRenditions(bytes: Buffer, original: Format, transparent: boolean, assets: AssetStore): Promise<Format[]> {
  // An SVG that declares no size would get an invented one.
  if (original.width === null || original.height === null) return [];
  const fitted = svgFittedTo(bytes.toString('utf8'), SVG_RENDITION_SIDE);
  if (!fitted) return [];
  // Rasterized once; both encodings start from the same pixels.
  const { data, info } = await sharp(Buffer.from(fitted)).ensureAlpha().raw().timeout({ seconds: SHARP_TIMEOUT_SECONDS }).toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: 4 as const } };
  return Promise.all([
    encode(sharp(data, raw).png(), 'png', transparent, assets),
    encode(sharp(data, raw).webp(WEBP_OPTIONS), 'webp', transparent, assets),
  ]);
}

async function encode(pipeline: Sharp, ext: 'png' | 'webp', transparent: boolean, assets: AssetStore): Promise<Format> {
  const { data, info } = await pipeline.timeout({ seconds: SHARP_TIMEOUT_SECONDS }).toBuffer({ resolveWithObject: true });
  const asset = await assets.put(data, ext);
  return { src: asset.key, format: ext, width: info.width, height: info.height, size: asset.size, background: transparent ? 'transparent' : null };
}
