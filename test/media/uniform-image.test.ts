import { describe, expect, it } from 'vitest';
import { isUniformImage } from '../../src/media/uniform-image.js';
import type { RgbaRaster } from '../../src/media/rgba-raster.js';

function raster(width: number, height: number, pixel: (x: number, y: number) => [number, number, number, number]): RgbaRaster {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set(pixel(x, y), (y * width + x) * 4);
  return { data, width, height };
}

describe('isUniformImage (spec placeholder: blank or single-colour)', () => {
  it('a flat fill, slightly noisy, is uniform', () => {
    expect(isUniformImage(raster(20, 20, (x) => [200 + (x % 3), 200, 200, 255]))).toBe(true);
  });

  it('a fully transparent image is uniform (blank)', () => {
    expect(isUniformImage(raster(20, 20, () => [0, 0, 0, 0]))).toBe(true);
  });

  it('a one-colour mark on transparency is NOT uniform: its shape is the logo', () => {
    expect(isUniformImage(raster(20, 20, (x) => (x < 10 ? [255, 0, 0, 255] : [0, 0, 0, 0])))).toBe(false);
  });

  it('a grey silhouette avatar on grey is not uniform by pixels (caught by its file name instead)', () => {
    expect(isUniformImage(raster(20, 20, (x, y) => ((x - 10) ** 2 + (y - 8) ** 2 < 16 ? [156, 163, 175, 255] : [229, 231, 235, 255])))).toBe(false);
  });
});
