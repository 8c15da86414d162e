/**
 * The raster image-features.ts reads: the file as displayed (EXIF orientation applied), fitted inside 160 px with
 * the nearest-neighbour kernel (see image-features.ts for why). JPEG and WebP decode at a reduced scale in
 * libvips (shrink-on-load), so a 4000 px photograph costs a few milliseconds, on sharp's threads.
 */
import sharp from 'sharp';
import { DEFAULT_IMAGE_LIMITS } from './image-limits.js';
import type { RgbaRaster } from './rgba-raster.js';

export const CLASSIFICATION_SIDE = 160;
const SHARP_TIMEOUT_SECONDS = 10;

export async function classificationRaster(bytes: Buffer, maxPixels: number = DEFAULT_IMAGE_LIMITS.maxPixels): Promise<RgbaRaster> {
  const { data, info } = await sharp(bytes, { limitInputPixels: maxPixels, failOn: 'error' })
    .autoOrient()
    .resize({ width: CLASSIFICATION_SIDE, height: CLASSIFICATION_SIDE, fit: 'inside', kernel: 'nearest', withoutEnlargement: true })
    .ensureAlpha()
    .raw()
    .timeout({ seconds: SHARP_TIMEOUT_SECONDS })
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}
