import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { differenceHash, hammingDistance } from '../../src/media/perceptual-hash.js';
import type { RgbaRaster } from '../../src/media/rgba-raster.js';

async function raster(svg: string, width: number): Promise<RgbaRaster> {
  const { data, info } = await sharp(Buffer.from(svg)).resize({ width }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

const scene = (sun: number) => `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300" fill="#1e3a8a"/><circle cx="${sun}" cy="100" r="60" fill="#fde047"/><rect y="200" width="400" height="100" fill="#166534"/></svg>`;

describe('differenceHash', () => {
  it('is stable across resizing and re-encoding, and differs for a different picture', async () => {
    const big = differenceHash(await raster(scene(100), 400));
    const small = differenceHash(await raster(scene(100), 120));
    const other = differenceHash(await raster(scene(320), 400));
    expect(big).toMatch(/^[0-9a-f]{16}$/);
    expect(hammingDistance(big, small)).toBeLessThanOrEqual(4);
    expect(hammingDistance(big, other)).toBeGreaterThan(8);
  });

  it('hamming distance counts differing bits', () => {
    expect(hammingDistance('0000000000000000', '000000000000000f')).toBe(4);
    expect(hammingDistance('ffffffffffffffff', 'ffffffffffffffff')).toBe(0);
  });
});
