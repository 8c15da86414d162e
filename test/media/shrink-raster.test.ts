import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { RgbaRaster } from '../../src/media/rgba-raster.js';
import { shrinkRaster } from '../../src/media/shrink-raster.js';

function raster(width: number, height: number, pixel: (x: number, y: number) => number[]): RgbaRaster {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set(pixel(x, y), (y * width + x) * 4);
  return { data, width, height };
}

/** Straightforward area average: each output pixel integrates its exact source rectangle, weighted by alpha. */
function referenceShrink(source: RgbaRaster, width: number, height: number): Uint8Array {
  const sx = source.width / width;
  const sy = source.height / height;
  const out = new Uint8Array(width * height * 4);
  for (let j = 0; j < height; j++) {
    for (let i = 0; i < width; i++) {
      const sums = [0, 0, 0, 0];
      for (let y = Math.floor(j * sy); y < Math.min(source.height, Math.ceil((j + 1) * sy)); y++) {
        for (let x = Math.floor(i * sx); x < Math.min(source.width, Math.ceil((i + 1) * sx)); x++) {
          const area = (Math.min(x + 1, (i + 1) * sx) - Math.max(x, i * sx)) * (Math.min(y + 1, (j + 1) * sy) - Math.max(y, j * sy));
          const o = (y * source.width + x) * 4;
          const weight = area * (source.data[o + 3] ?? 0);
          for (let c = 0; c < 3; c++) sums[c] = (sums[c] ?? 0) + weight * (source.data[o + c] ?? 0);
          sums[3] = (sums[3] ?? 0) + weight;
        }
      }
      const alpha = sums[3] ?? 0;
      if (alpha > 0) out.set([...sums.slice(0, 3).map((s) => Math.round(s / alpha)), Math.round(alpha / (sx * sy))], (j * width + i) * 4);
    }
  }
  return out;
}

describe('shrinkRaster', () => {
  it('returns rasters that already fit unchanged', () => {
    const small = raster(64, 40, () => [1, 2, 3, 4]);
    expect(shrinkRaster(small, 64)).toBe(small);
  });

  it('sizes the result as sharp fit-inside does', async () => {
    for (const [width, height, box] of [[640, 128, 64], [180, 180, 64], [400, 69, 128], [65, 200, 64], [1000, 3, 64], [130, 129, 128], [193, 65, 64]] as const) {
      const { info } = await sharp({ create: { width, height, channels: 4, background: '#000' } })
        .resize({ width: box, height: box, fit: 'inside' })
        .raw()
        .toBuffer({ resolveWithObject: true });
      const shrunk = shrinkRaster(raster(width, height, () => [0, 0, 0, 255]), box);
      expect([shrunk.width, shrunk.height], `${width}x${height} in ${box}`).toEqual([info.width, info.height]);
    }
  });

  it('is an exact area average (to rounding) at odd scales', () => {
    let seed = 5;
    const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 256;
    for (const [width, height, box] of [[140, 175, 37], [180, 180, 64], [97, 33, 64], [300, 7, 16]] as const) {
      const source = raster(width, height, () => [next(), next(), next(), next() < 80 ? 0 : next()]);
      const shrunk = shrinkRaster(source, box);
      const reference = referenceShrink(source, shrunk.width, shrunk.height);
      const worst = shrunk.data.reduce((max, v, i) => Math.max(max, Math.abs(v - (reference[i] ?? 0))), 0);
      expect(worst, `${width}x${height} in ${box}`).toBeLessThanOrEqual(1);
    }
  });

  it('keeps flat colours exact and never lets see-through pixels tint an edge', () => {
    // Left half solid brand red, right half fully transparent but carrying green.
    const source = raster(180, 90, (x) => (x < 91 ? [229, 72, 77, 255] : [0, 255, 0, 0]));
    const shrunk = shrinkRaster(source, 64);
    const colours = new Set<string>();
    for (let o = 0; o < shrunk.data.length; o += 4) {
      if ((shrunk.data[o + 3] ?? 0) > 0) colours.add([...shrunk.data.subarray(o, o + 3)].join(','));
    }
    expect([...colours]).toEqual(['229,72,77']);
    expect(shrunk.data[(64 * 0 + 32) * 4 + 3]).toBeGreaterThan(0); // the edge column is partly covered
    expect(shrunk.data[(64 * 0 + 32) * 4 + 3]).toBeLessThan(255);
  });
});
