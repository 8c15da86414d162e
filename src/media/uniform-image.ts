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
  const { data } = raster;
  const composited = new Float32Array(count * 3);
  let meanR = 0;
  let meanG = 0;
  let meanB = 0;
  for (let i = 0, o = 0, c = 0; i < count; i++, o += 4, c += 3) {
    const alpha = (data[o + 3] ?? 255) / 255;
    const r = (data[o] ?? 0) * alpha + 128 * (1 - alpha);
    const g = (data[o + 1] ?? 0) * alpha + 128 * (1 - alpha);
    const b = (data[o + 2] ?? 0) * alpha + 128 * (1 - alpha);
    composited[c] = r;
    composited[c + 1] = g;
    composited[c + 2] = b;
    meanR += r / count;
    meanG += g / count;
    meanB += b / count;
  }
  const allowed = count * MAX_DEVIANT_SHARE;
  let deviant = 0;
  for (let c = 0; c < count * 3; c += 3) {
    if (
      Math.abs((composited[c] ?? 0) - meanR) > MAX_DEVIATION ||
      Math.abs((composited[c + 1] ?? 0) - meanG) > MAX_DEVIATION ||
      Math.abs((composited[c + 2] ?? 0) - meanB) > MAX_DEVIATION
    ) {
      // Most images are anything but uniform: stop as soon as the answer is known.
      if (++deviant > allowed) return false;
    }
  }
  return true;
}
