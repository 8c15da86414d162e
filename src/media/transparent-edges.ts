import { borderOffsets } from './rgba-raster.js';
import type { RgbaRaster } from './rgba-raster.js';

const CLEAR_ALPHA = 10;
/** A band at least half see-through: a padded logo, or a round mark touching the edges (~75 % clear). */
const CLEAR_BAND = 0.5;
/**
 * A tight-cropped wordmark covers much of the band (letters touch every edge) but is see-through between its
 * letters; a painted plate, even a rounded app icon (≈ 25 % of the band clear at its corners), is not.
 */
const PARTLY_CLEAR_BAND = 0.3;
const CLEAR_OVERALL = 0.2;

/**
 * Spec `background: "transparent"`: the image sits on transparency rather than on a painted background.
 * Having an alpha channel is not enough (many PNGs carry a fully opaque one), so the border band
 * (extraction notes 1.4) must be largely see-through.
 */
export function hasTransparentEdges(raster: RgbaRaster): boolean {
  const band = clearShare(raster, borderOffsets(raster));
  if (band >= CLEAR_BAND) return true;
  if (band < PARTLY_CLEAR_BAND) return false;
  const { data } = raster;
  const count = raster.width * raster.height;
  let clear = 0;
  for (let o = 3; o < count * 4; o += 4) if ((data[o] ?? 255) < CLEAR_ALPHA) clear++;
  return count > 0 && clear / count >= CLEAR_OVERALL;
}

function clearShare(raster: RgbaRaster, offsets: number[]): number {
  if (offsets.length === 0) return 0;
  let clear = 0;
  for (const offset of offsets) {
    if ((raster.data[offset + 3] ?? 255) < CLEAR_ALPHA) clear++;
  }
  return clear / offsets.length;
}
