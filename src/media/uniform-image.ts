/**
 * "Blank or single-colour image" (spec 2.3 `placeholder`): every pixel, composited on mid-grey, within a small
 * distance of the mean colour. A one-colour mark on transparency is NOT uniform (its shape differs from the
 * see-through background), which is why alpha is composited rather than ignored.
 */
import type { RgbaRaster } from './rgba-raster.js';

/** Max per-channel deviation (0–255) a pixel may have from the mean; JPEG noise on a flat fill is ~4. */
const MAX_DEVIATION = 12;
/** Share of pixels allowed to deviate (a tiny watermark or a 1 px border does not make an image meaningful). */
const MAX_DEVIANT_SHARE = 0.01;

export function isUniformImage(raster: RgbaRaster): boolean {
  const count = raster.width * raster.height;
  if (count === 0) return true;
  // Two passes over typed data, no per-pixel allocation: this runs on every ingested image.
  const composited = new Float32Array(count * 3);
  const mean = [0, 0, 0];
  for (let i = 0; i < count; i++) {
    const alpha = (raster.data[i * 4 + 3] ?? 255) / 255;
    for (let c = 0; c < 3; c++) {
      const v = (raster.data[i * 4 + c] ?? 0) * alpha + 128 * (1 - alpha);
      composited[i * 3 + c] = v;
      mean[c] = (mean[c] ?? 0) + v / count;
    }
  }
  let deviant = 0;
  for (let i = 0; i < count; i++) {
    for (let c = 0; c < 3; c++) {
      if (Math.abs((composited[i * 3 + c] ?? 0) - (mean[c] ?? 0)) > MAX_DEVIATION) {
        deviant++;
        break;
      }
    }
  }
  return deviant <= count * MAX_DEVIANT_SHARE;
}
