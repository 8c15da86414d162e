import type { RgbaRaster } from './rgba-raster.js';

/**
 * The raster scaled down to fit a `maxSide` square (sized as sharp's `fit: 'inside'` does: longest side exactly
 * `maxSide`, the other rounded), or the raster itself when it already fits. Area averaging: every output pixel
 * is the mean of the source area it covers, so flat logo colours stay exact. Colours are weighted by alpha, so
 * the invisible colour of see-through pixels never tints the edges of a mark.
 */
export function shrinkRaster(raster: RgbaRaster, maxSide: number): RgbaRaster {
  const { width, height } = raster;
  if (width <= maxSide && height <= maxSide) return raster;
  const factor = Math.max(width, height) / maxSide;
  const outWidth = Math.max(1, Math.round(width / factor));
  const outHeight = Math.max(1, Math.round(height / factor));
  const columns = splits(width, outWidth);
  const rows = splits(height, outHeight);
  // Alpha-weighted colour sums and alpha sums per output pixel; one spare row and column for the last splits.
  const sums = new Float64Array((outWidth + 1) * (outHeight + 1) * 4);
  for (let y = 0; y < height; y++) sumRow(raster, y, columns, rows, sums, (outWidth + 1) * 4);
  return { data: straightRgba(sums, outWidth, outHeight, (width / outWidth) * (height / outHeight)), width: outWidth, height: outHeight };
}

/**
 * Where each source column (or row) goes: the output index it starts in and the part of it inside that output
 * pixel (the scale is at least 1, so the rest, if any, belongs to the next one), and whether it is the last
 * source pixel of that output pixel.
 */
interface Splits {
  index: Int32Array;
  share: Float64Array;
  closes: Uint8Array;
}

function splits(source: number, target: number): Splits {
  const scale = source / target;
  const index = new Int32Array(source);
  const share = new Float64Array(source);
  const closes = new Uint8Array(source);
  // Walking both together (rather than dividing per pixel) keeps index and end consistent under rounding.
  const endOf = (to: number) => (to === target - 1 ? source : (to + 1) * scale);
  for (let i = 0, to = 0; i < source; i++) {
    while (to < target - 1 && endOf(to) <= i) to++;
    const end = endOf(to);
    index[i] = to;
    share[i] = Math.min(1, end - i);
    closes[i] = end <= i + 1 ? 1 : 0;
  }
  return { index, share, closes };
}

/**
 * Adds source row `y` into `sums`: one pass along the row accumulating the current output column, which is
 * flushed (split between the output rows the source row covers) whenever a source pixel closes it.
 */
function sumRow(raster: RgbaRaster, y: number, columns: Splits, rows: Splits, sums: Float64Array, rowStride: number): void {
  const { data, width } = raster;
  const { closes, share: columnShare, index: columnIndex } = columns;
  const top = (rows.index[y] ?? 0) * rowStride;
  const topShare = rows.share[y] ?? 1;
  const rest = 1 - topShare;
  let r = 0;
  let g = 0;
  let b = 0;
  let a = 0;
  for (let x = 0, o = y * width * 4; x < width; x++, o += 4) {
    const alpha = data[o + 3] ?? 0;
    const closing = closes[x] === 1;
    // Logos sit on large see-through areas, which add nothing.
    if (alpha === 0 && !closing) continue;
    const pr = alpha * (data[o] ?? 0);
    const pg = alpha * (data[o + 1] ?? 0);
    const pb = alpha * (data[o + 2] ?? 0);
    if (!closing) {
      r += pr;
      g += pg;
      b += pb;
      a += alpha;
      continue;
    }
    const share = columnShare[x] ?? 1;
    r += share * pr;
    g += share * pg;
    b += share * pb;
    a += share * alpha;
    const at = top + (columnIndex[x] ?? 0) * 4;
    sums[at] = (sums[at] ?? 0) + topShare * r;
    sums[at + 1] = (sums[at + 1] ?? 0) + topShare * g;
    sums[at + 2] = (sums[at + 2] ?? 0) + topShare * b;
    sums[at + 3] = (sums[at + 3] ?? 0) + topShare * a;
    if (rest > 0) {
      sums[at + rowStride] = (sums[at + rowStride] ?? 0) + rest * r;
      sums[at + rowStride + 1] = (sums[at + rowStride + 1] ?? 0) + rest * g;
      sums[at + rowStride + 2] = (sums[at + rowStride + 2] ?? 0) + rest * b;
      sums[at + rowStride + 3] = (sums[at + rowStride + 3] ?? 0) + rest * a;
    }
    const carry = 1 - share;
    r = carry * pr;
    g = carry * pg;
    b = carry * pb;
    a = carry * alpha;
  }
}

/** Colour = weighted colour sum / alpha sum, alpha = alpha sum / covered area; fully clear pixels stay 0. */
function straightRgba(sums: Float64Array, width: number, height: number, area: number): Uint8Array {
  const out = new Uint8ClampedArray(width * height * 4);
  for (let y = 0, o = 0; y < height; y++) {
    for (let x = 0, at = y * (width + 1) * 4; x < width; x++, o += 4, at += 4) {
      const alpha = sums[at + 3] ?? 0;
      if (alpha === 0) continue;
      out[o] = Math.round((sums[at] ?? 0) / alpha);
      out[o + 1] = Math.round((sums[at + 1] ?? 0) / alpha);
      out[o + 2] = Math.round((sums[at + 2] ?? 0) / alpha);
      out[o + 3] = Math.round(alpha / area);
    }
  }
  return new Uint8Array(out.buffer);
}
