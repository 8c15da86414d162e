/**
 * Issue 13: decoders never allocate past the pixel budget, for all entries of a file together. Every file is
 * generated here: pixel bombs (headers declaring huge images) in each format, and ICO files whose directory
 * lists one bitmap many times. Assertions are on what was decoded, never on time.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ingestImage } from '../../src/media/ingest-image.js';
import { icoImages, largestIcoEntry } from '../../src/media/largest-ico-entry.js';
import { DEFAULT_IMAGE_LIMITS } from '../../src/media/image-limits.js';
import { PixelLimitError } from '../../src/media/pixel-limit-error.js';
import { tempAssets } from '../helpers/temp-assets.js';
import { BLACK, CLEAR, iconInfoHeader, icoOf, pngOf } from './image-fixtures.js';
import { encodePng } from './png-encoder.js';

const IMAGE_BYTES = DEFAULT_IMAGE_LIMITS.maxBytes;

/** A 1-bit icon bitmap: info header (height doubled), two-colour palette, XOR mask, AND mask. Small bytes, many pixels. */
function bitmapEntry(size: number): Buffer {
  const info = iconInfoHeader(size, 1);
  const stride = Math.ceil(size / 32) * 4;
  return Buffer.concat([info, Buffer.from([0, 0, 0, 0, 255, 255, 255, 0]), Buffer.alloc(stride * size, 0x55), Buffer.alloc(stride * size)]);
}

/** An ICO whose `count` directory entries all name the same bytes. */
function icoRepeating(entry: Buffer, count: number): Buffer {
  const header = Buffer.alloc(6 + 16 * count);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(count, 4);
  for (let i = 0; i < count; i++) {
    header.writeUInt16LE(1, 6 + 16 * i + 4);
    header.writeUInt16LE(1, 6 + 16 * i + 6);
    header.writeUInt32LE(entry.length, 6 + 16 * i + 8);
    header.writeUInt32LE(header.length, 6 + 16 * i + 12);
  }
  return Buffer.concat([header, entry]);
}

const base = () => sharp({ create: { width: 64, height: 64, channels: 4, background: { r: 200, g: 30, b: 30, alpha: 1 } } });

/** Real files of each format whose headers are rewritten to declare `side`×`side` pixels. */
async function pixelBombs(side: number): Promise<Record<string, Buffer>> {
  const jpeg = await base().jpeg().toBuffer();
  const sof = jpeg.findIndex((b, i) => b === 0xff && (jpeg[i + 1] === 0xc0 || jpeg[i + 1] === 0xc2));
  jpeg.writeUInt16BE(side, sof + 5);
  jpeg.writeUInt16BE(side, sof + 7);
  const gif = await base().gif().toBuffer();
  const descriptor = gif.indexOf(0x2c, 13);
  for (const at of [6, descriptor + 5]) {
    gif.writeUInt16LE(side, at);
    gif.writeUInt16LE(side, at + 2);
  }
  // Lossless WebP: 14-bit (width - 1) and (height - 1) right after the VP8L signature byte.
  const webp = await base().webp({ lossless: true }).toBuffer();
  const sizes = Math.min(side, 16_384) - 1;
  webp.writeUInt32LE((webp.readUInt32LE(21) & ~0x0fffffff) | sizes | (sizes << 14), 21);
  const bmp = Buffer.alloc(54);
  bmp.write('BM', 0, 'latin1');
  bmp.writeUInt32LE(54, 10);
  bmp.writeUInt32LE(40, 14);
  bmp.writeInt32LE(side, 18);
  bmp.writeInt32LE(side, 22);
  bmp.writeUInt16LE(1, 26);
  bmp.writeUInt16LE(24, 28);
  const png = encodePng({ width: side, height: side, bitDepth: 8, colourType: 6, rows: [], idat: Buffer.alloc(64) });
  return {
    png,
    jpeg,
    gif,
    webp,
    bmp,
    'ico (PNG entry)': icoOf([{ size: 256, png }]),
    'ico (bitmap entry)': icoRepeating(bitmapEntry(4400), 1),
  };
}

describe('pixel bombs: every decoder checks the declared size before allocating', () => {
  it.each(['png', 'jpeg', 'gif', 'webp', 'bmp', 'ico (PNG entry)', 'ico (bitmap entry)'])('%s declaring 10,000 × 10,000 is too large', async (format) => {
    const bomb = (await pixelBombs(10_000))[format] ?? Buffer.alloc(0);
    const assets = tempAssets();
    expect(await ingestImage(bomb, assets, { maxBytes: IMAGE_BYTES })).toEqual({ ok: false, reason: 'too_large' });
    expect(await assets.files()).toEqual([]);
  });

  it('an SVG declaring 100,000 × 100,000 is rendered for analysis at the preview size only', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000" viewBox="0 0 10 10"><rect width="10" height="5"/><text y="9">Acme</text></svg>';
    const result = await ingestImage(Buffer.from(svg), tempAssets());
    expect(result.ok && result.image.original).toMatchObject({ format: 'svg', width: 100_000, height: 100_000 });
  });

  it('the bitmap budget is a setting', async () => {
    const bmp = (await pixelBombs(2000)).bmp ?? Buffer.alloc(0);
    expect(await ingestImage(bmp, tempAssets(), { maxBitmapPixels: 1000 * 1000 })).toEqual({ ok: false, reason: 'too_large' });
    expect(() => largestIcoEntry(icoRepeating(bitmapEntry(64), 1), 63 * 63)).toThrow(PixelLimitError);
  });
});

describe('ICO: one pixel budget for the whole file, only the chosen entry decoded', () => {
  it('counts directory entries naming the same bytes once and decodes that bitmap once', () => {
    const ico = icoRepeating(bitmapEntry(512), 64);
    expect(icoImages(ico)).toHaveLength(1);
    const entry = largestIcoEntry(ico, DEFAULT_IMAGE_LIMITS.maxBitmapPixels);
    expect(entry).toMatchObject({ kind: 'raster', raster: { width: 512, height: 512 }, decodedPixels: 512 * 512 });
  });

  it('refuses eight entries naming one 4,400 × 4,400 bitmap without decoding any (was 26 s and +544 MB)', async () => {
    const ico = icoRepeating(bitmapEntry(4400), 8);
    expect(ico.length).toBeLessThan(IMAGE_BYTES);
    expect(() => largestIcoEntry(ico, DEFAULT_IMAGE_LIMITS.maxBitmapPixels)).toThrow(PixelLimitError);
    expect(await ingestImage(ico, tempAssets(), { maxBytes: IMAGE_BYTES })).toEqual({ ok: false, reason: 'too_large' });
  });

  it('skips entries over the budget, broken or out of the file, and takes the largest that fits', async () => {
    const small = await pngOf(16, CLEAR, BLACK);
    const ico = icoOf([
      { size: 0, png: bitmapEntry(4400) },
      { size: 32, png: bitmapEntry(32) },
      { size: 16, png: small },
      { size: 48, png: Buffer.from('not an image, not long enough either, but over forty bytes of it') },
    ]);
    const directoryEnd = 6 + 16 * 4;
    ico.writeUInt32LE(ico.length, directoryEnd - 4); // the last entry now starts past the end of the file
    const entry = largestIcoEntry(ico, DEFAULT_IMAGE_LIMITS.maxBitmapPixels);
    expect(entry).toMatchObject({ kind: 'raster', raster: { width: 32, height: 32 }, decodedPixels: 32 * 32 });
    const image = await ingestImage(ico, tempAssets());
    expect(image.ok && image.image).toMatchObject({ sourceFormat: 'ico', width: 32, height: 32 });
  });

  it('hands a PNG entry over undecoded', () => {
    const png = encodePng({ width: 300, height: 200, bitDepth: 8, colourType: 6, rows: [], idat: Buffer.alloc(8) });
    expect(largestIcoEntry(icoOf([{ size: 0, png }]), DEFAULT_IMAGE_LIMITS.maxBitmapPixels)).toMatchObject({ kind: 'png', decodedPixels: 0 });
  });

  it('reads a bitmap header as decode-bmp does: a negative height is the huge size it would allocate for, a zero width no image', () => {
    const negative = bitmapEntry(16);
    negative.writeInt32LE(-2, 8);
    expect(icoImages(icoRepeating(negative, 1))).toMatchObject([{ width: 16, height: 2 ** 31 - 1 }]);
    expect(() => largestIcoEntry(icoRepeating(negative, 1), DEFAULT_IMAGE_LIMITS.maxBitmapPixels)).toThrow(PixelLimitError);
    const zero = bitmapEntry(16);
    zero.writeInt32LE(0, 4);
    expect(icoImages(icoRepeating(zero, 1))).toEqual([]);
    expect(() => largestIcoEntry(icoRepeating(zero, 1), DEFAULT_IMAGE_LIMITS.maxBitmapPixels)).toThrow('ICO without images');
  });
});
