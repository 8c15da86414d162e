import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { rasterizeSvg } from '../../src/media/rasterize-svg.js';

const NS = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"';

describe('rasterizeSvg', () => {
  it('renders at the declared size with straight alpha', () => {
    const raster = rasterizeSvg(`<svg ${NS} width="40" height="20"><rect width="20" height="20" fill="rgb(200,100,50)" fill-opacity="0.5"/></svg>`);
    expect([raster.width, raster.height]).toEqual([40, 20]);
    // Premultiplied by resvg, so a half-transparent colour comes back within a unit of what was drawn.
    const [r = 0, g = 0, b = 0, a = 0] = raster.data.subarray(0, 4);
    expect(a).toBe(128);
    [r - 200, g - 100, b - 50].forEach((error) => expect(Math.abs(error)).toBeLessThanOrEqual(1));
    expect(raster.data[(20 * 40 - 1) * 4 + 3]).toBe(0);
  });

  it('follows local references', () => {
    const raster = rasterizeSvg(`<svg ${NS} width="10" height="10"><defs><rect id="a" width="10" height="10" fill="#00f"/></defs><use href="#a"/></svg>`);
    expect([...raster.data.subarray(0, 4)]).toEqual([0, 0, 255, 255]);
  });

  it('refuses any image reference, since resvg would read files from disk', async () => {
    const file = path.join(tmpdir(), `brandbase-red-${process.pid}.png`);
    writeFileSync(file, await sharp({ create: { width: 8, height: 8, channels: 4, background: '#f00' } }).png().toBuffer());
    for (const href of [file, `file://${file}`, 'red.png', 'http://127.0.0.1:9/x.png', 'data:image/png;base64,AAAA']) {
      for (const attribute of ['href', 'xlink:href']) {
        const svg = `<svg ${NS} width="8" height="8"><image ${attribute}=" ${href}" width="8" height="8"/></svg>`;
        expect(() => rasterizeSvg(svg), `${attribute}=${href}`).toThrow(/images/);
      }
    }
  });

  it('throws for documents resvg cannot parse', () => {
    expect(() => rasterizeSvg('<svg><<<<')).toThrow();
  });
});
