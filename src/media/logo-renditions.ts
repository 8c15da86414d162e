/**
 * The extra formats users need next to a logo's original (spec 2.4, issue 4 item 4): an SVG gets a PNG and a
 * WebP rendition (most design tools and e-mail clients cannot take SVG); PNG and JPEG originals get a WebP
 * (smaller, keeps alpha). A WebP original needs nothing more. Every rendition is decoded back to report its
 * real width, height and byte size, and is `transparent` only when its own edges are see-through.
 */
import sharp, { type Sharp } from 'sharp';
import type { Format } from '../domain/brand.js';
import type { AssetStore } from './asset-store.js';
import type { IngestedImage } from './ingest-image.js';
import { svgFittedTo } from './svg.js';

/** Longest side of an SVG's raster renditions: sharp enough for retina headers and app tiles. */
export const SVG_RENDITION_SIDE = 512;
const SHARP_TIMEOUT_SECONDS = 10;
/** Effort 2 of 6: logos are small flat graphics, higher effort buys a few bytes for several times the CPU. */
const WEBP_OPTIONS = { quality: 90, alphaQuality: 100, effort: 2 };

export async function logoRenditions(image: IngestedImage, assets: AssetStore): Promise<Format[]> {
  const stored = await assets.get(image.assetKey);
  if (!stored) return [];
  try {
    if (image.original.format === 'svg') return await svgRenditions(stored.bytes, image, assets);
    if (image.original.format === 'png' || image.original.format === 'jpeg') {
      return [await encode(sharp(stored.bytes).autoOrient().webp(WEBP_OPTIONS), 'webp', image.transparentEdges, assets)];
    }
    return [];
  } catch {
    // A rendition is a convenience; the original is already stored and listed.
    return [];
  }
}

async function svgRenditions(bytes: Buffer, image: IngestedImage, assets: AssetStore): Promise<Format[]> {
  const fitted = svgFittedTo(bytes.toString('utf8'), SVG_RENDITION_SIDE);
  if (!fitted || image.width === null || image.height === null) return [];
  // Rasterized once; both encodings start from the same pixels.
  const { data, info } = await sharp(Buffer.from(fitted)).ensureAlpha().raw().timeout({ seconds: SHARP_TIMEOUT_SECONDS }).toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: 4 as const } };
  return Promise.all([
    encode(sharp(data, raw).png(), 'png', image.transparentEdges, assets),
    encode(sharp(data, raw).webp(WEBP_OPTIONS), 'webp', image.transparentEdges, assets),
  ]);
}

async function encode(pipeline: Sharp, ext: 'png' | 'webp', transparent: boolean, assets: AssetStore): Promise<Format> {
  const { data, info } = await pipeline.timeout({ seconds: SHARP_TIMEOUT_SECONDS }).toBuffer({ resolveWithObject: true });
  const asset = await assets.put(data, ext);
  return {
    src: asset.url,
    format: ext,
    width: info.width,
    height: info.height,
    size: asset.size,
    // Renditions keep the original's alpha, so the original's edge test holds for them.
    background: transparent ? 'transparent' : null,
  };
}
