/**
 * dHash (difference hash) of an analysis raster: 9×8 greyscale (alpha composited on mid-grey, so a white mark
 * on transparency and a black one differ), one bit per horizontal neighbour comparison, as 16 hex digits.
 * Two images whose hashes differ in few bits look alike: the same photo resized or re-encoded, the same logo
 * as PNG and WebP. Used to collapse duplicate pictures and banners (extraction notes 1.8).
 */
import type { RgbaRaster } from './rgba-raster.js';

const COLS = 9;
const ROWS = 8;
/** Flat areas compare equal give or take resampling noise; a margin keeps their bits stable at 0. */
const TIE_MARGIN = 2;

export function differenceHash(raster: RgbaRaster): string {
  const grey = sampleGrey(raster);
  let bits = 0n;
  for (let y = 0; y < ROWS; y++) {
    for (let x = 0; x < COLS - 1; x++) {
      bits = (bits << 1n) | ((grey[y * COLS + x] ?? 0) > (grey[y * COLS + x + 1] ?? 0) + TIE_MARGIN ? 1n : 0n);
    }
  }
  return bits.toString(16).padStart(16, '0');
}

/** Number of differing bits between two hashes from `differenceHash` (0–64); one implementation, in domain/. */
export { hammingDistance } from '../domain/brand-announcement.js';

/** Box-averaged greyscale grid; each cell averages every source pixel that falls in it. */
function sampleGrey(raster: RgbaRaster): Float64Array {
  const sums = new Float64Array(COLS * ROWS);
  const counts = new Float64Array(COLS * ROWS);
  const { data, width, height } = raster;
  const columnOf = new Int32Array(width);
  for (let x = 0; x < width; x++) columnOf[x] = Math.min(COLS - 1, Math.floor((x * COLS) / width));
  for (let y = 0, o = 0; y < height; y++) {
    const cells = Math.min(ROWS - 1, Math.floor((y * ROWS) / height)) * COLS;
    for (let x = 0; x < width; x++, o += 4) {
      const cell = cells + (columnOf[x] ?? 0);
      const alpha = (data[o + 3] ?? 255) / 255;
      const luma = 0.299 * (data[o] ?? 0) + 0.587 * (data[o + 1] ?? 0) + 0.114 * (data[o + 2] ?? 0);
      sums[cell] = (sums[cell] ?? 0) + luma * alpha + 128 * (1 - alpha);
      counts[cell] = (counts[cell] ?? 0) + 1;
    }
  }
  return sums.map((sum, i) => sum / Math.max(1, counts[i] ?? 1));
}
