/**
 * Pixels of a CDN variant (issue 20 item 3): a stored original resized with sharp, an SVG rasterized at the
 * target size (never scaled up from a small raster of it), or a fallback drawn as SVG and rasterized the same way.
 */
import sharp, { type Sharp } from 'sharp';
import { svgFittedTo } from '../media/svg.js';
import type { CdnFormat } from './logo-cdn-request.js';
import type { VariantGeometry } from './variant-geometry.js';

const SHARP_TIMEOUT_SECONDS = 10;
/** As the logo renditions (media/logo-renditions.ts): logos are small flat graphics. */
const WEBP_OPTIONS = { quality: 90, alphaQuality: 100, effort: 2 };
const TRANSPARENT = { r: 0, g: 0, b: 0, alpha: 0 };
/** JPEG has no alpha: transparent areas are flattened onto white. */
const JPEG_BACKDROP = { r: 255, g: 255, b: 255 };

export const CONTENT_TYPES: Readonly<Record<CdnFormat, string>> = { webp: 'image/webp', png: 'image/png', jpeg: 'image/jpeg', svg: 'image/svg+xml' };

export type RasterFormat = Exclude<CdnFormat, 'svg'>;

/** A raster original (PNG, JPEG, WebP) resized to the geometry. */
export function resizeRaster(bytes: Buffer, geometry: VariantGeometry, format: RasterFormat): Promise<Buffer> {
  const pipeline = sharp(bytes, { limitInputPixels: 40_000_000 })
    .autoOrient()
    .resize(geometry.contentWidth, geometry.contentHeight, { fit: 'fill' });
  return encode(padded(pipeline, geometry), format);
}

/** A (sanitized) SVG original or fallback drawn at the geometry's size: vector all the way to the target pixels. */
export async function rasterizeSvgTo(svg: string, geometry: VariantGeometry, format: RasterFormat): Promise<Buffer> {
  const fitted = svgFittedTo(svg, Math.max(geometry.contentWidth, geometry.contentHeight));
  if (!fitted) throw new Error('SVG could not be sized');
  // Sized by its root, then fitted exactly: rounding may leave the drawing a pixel off the content box.
  const pipeline = sharp(Buffer.from(fitted)).resize(geometry.contentWidth, geometry.contentHeight, { fit: 'contain', background: TRANSPARENT });
  return encode(padded(sharp(await pipeline.png().toBuffer()), geometry), format);
}

/** An SVG document as it is served for `.svg`: its root sized to the geometry when one was asked for. */
export function sizedSvg(svg: string, geometry: VariantGeometry | null): Buffer {
  if (!geometry) return Buffer.from(svg);
  return Buffer.from(svgFittedTo(svg, Math.max(geometry.contentWidth, geometry.contentHeight)) ?? svg);
}

/** A fully transparent image of the size (white for JPEG, which has no alpha). */
export function transparentImage(width: number, height: number, format: RasterFormat): Promise<Buffer> {
  return encode(sharp({ create: { width, height, channels: 4, background: TRANSPARENT } }), format);
}

/** Centres the content on a transparent canvas when the image is larger than it (both `w` and `h` asked for). */
function padded(pipeline: Sharp, geometry: VariantGeometry): Sharp {
  const dx = geometry.width - geometry.contentWidth;
  const dy = geometry.height - geometry.contentHeight;
  if (dx === 0 && dy === 0) return pipeline;
  const left = Math.floor(dx / 2);
  const top = Math.floor(dy / 2);
  return pipeline.extend({ left, right: dx - left, top, bottom: dy - top, background: TRANSPARENT });
}

async function encode(pipeline: Sharp, format: RasterFormat): Promise<Buffer> {
  const encoded =
    format === 'webp' ? pipeline.webp(WEBP_OPTIONS) : format === 'png' ? pipeline.png() : pipeline.flatten({ background: JPEG_BACKDROP }).jpeg({ quality: 90 });
  return encoded.timeout({ seconds: SHARP_TIMEOUT_SECONDS }).toBuffer();
}
