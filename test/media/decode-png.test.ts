import { constants as zlibConstants, deflateSync, inflateSync } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodePng, readPngHeader } from '../../src/media/decode-png.js';
import { PixelLimitError } from '../../src/media/pixel-limit-error.js';
import { BLACK, CLEAR, WHITE, markImage, pngOf } from './image-fixtures.js';
import { encodePng, pngChunk } from './png-encoder.js';
import type { PngSpec } from './png-encoder.js';

const MAX_PIXELS = 40_000_000;
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** What sharp (libvips + libpng) decodes, as the straight RGBA our rasters carry. */
async function sharpRgba(png: Buffer): Promise<Buffer> {
  return sharp(png).toColourspace('srgb').ensureAlpha().raw().toBuffer();
}

function decoded(png: Uint8Array): Buffer {
  const raster = decodePng(png, MAX_PIXELS);
  if (!raster) throw new Error('left to sharp');
  return Buffer.from(raster.data);
}

/** Deterministic pseudo-random bytes, so failures reproduce. */
function noise(length: number, seed: number, below = 256): Uint8Array {
  const out = new Uint8Array(length);
  let state = seed;
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    out[i] = state % below;
  }
  return out;
}

/** Random scanlines; palette images index into `entries`, low-depth rows keep their padding bits zero. */
function randomRows(width: number, height: number, bitDepth: number, colourType: number, seed: number, entries = 256): Uint8Array[] {
  const samples = width * (CHANNELS[colourType] ?? 1);
  const perByte = bitDepth < 8 ? 8 / bitDepth : 1;
  const stride = Math.ceil((samples * bitDepth) / 8);
  return Array.from({ length: height }, (_, y) => {
    if (bitDepth >= 8) return noise(stride, seed + y, colourType === 3 ? entries : 256);
    const values = noise(samples, seed + y, Math.min(entries, 1 << bitDepth));
    const row = new Uint8Array(stride);
    values.forEach((v, i) => {
      const at = Math.floor(i / perByte);
      row[at] = (row[at] ?? 0) | (v << (8 - bitDepth * ((i % perByte) + 1)));
    });
    return row;
  });
}

const COMBINATIONS: [colourType: number, bitDepths: number[]][] = [
  [0, [1, 2, 4, 8, 16]],
  [2, [8, 16]],
  [3, [1, 2, 4, 8]],
  [4, [8, 16]],
  [6, [8, 16]],
];

describe('decodePng', () => {
  for (const [colourType, depths] of COMBINATIONS) {
    for (const bitDepth of depths) {
      it(`matches sharp pixel for pixel: colour type ${colourType}, ${bitDepth}-bit, every filter`, async () => {
        const width = 61;
        const height = 25;
        const spec: PngSpec = { width, height, bitDepth, colourType, rows: randomRows(width, height, bitDepth, colourType, bitDepth * 7 + colourType) };
        if (colourType === 3) spec.palette = noise(3 * (1 << bitDepth), 99);
        const png = encodePng(spec);
        expect(decoded(png)).toEqual(await sharpRgba(png));
      });
    }
  }

  it('applies PLTE and a short tRNS; out-of-range indexes come out opaque black as in libpng', async () => {
    const rows = randomRows(20, 6, 8, 3, 5, 12);
    const png = encodePng({ width: 20, height: 6, bitDepth: 8, colourType: 3, rows, palette: noise(30, 3), transparency: Uint8Array.from([0, 64, 128, 200]) });
    expect(decoded(png)).toEqual(await sharpRgba(png));
    expect(decoded(png).subarray(0, 4 * 20 * 6).some((v, i) => i % 4 === 3 && v === 0)).toBe(true);
  });

  it('applies tRNS colour keys to grey and RGB at 8 and 16 bits and to low-depth grey', async () => {
    const cases: { colourType: number; bitDepth: number }[] = [
      { colourType: 0, bitDepth: 2 },
      { colourType: 0, bitDepth: 8 },
      { colourType: 0, bitDepth: 16 },
      { colourType: 2, bitDepth: 8 },
      { colourType: 2, bitDepth: 16 },
    ];
    for (const { colourType, bitDepth } of cases) {
      const rows = randomRows(16, 4, bitDepth, colourType, 11, bitDepth < 8 ? 4 : 3);
      // The key is the first pixel's samples, so at least one pixel turns transparent.
      const sampleBytes = bitDepth === 16 ? 2 : 1;
      const key = new Uint8Array(2 * (CHANNELS[colourType] ?? 1));
      for (let c = 0; c < key.length / 2; c++) {
        if (bitDepth < 8) key[1] = (rows[0]?.[0] ?? 0) >> (8 - bitDepth);
        else if (sampleBytes === 2) key.set(rows[0]?.subarray(c * 2, c * 2 + 2) ?? [], c * 2);
        else key[c * 2 + 1] = rows[0]?.[c] ?? 0;
      }
      const png = encodePng({ width: 16, height: 4, bitDepth, colourType, rows, transparency: key });
      const mine = decoded(png);
      expect(mine, `colour type ${colourType}, ${bitDepth}-bit`).toEqual(await sharpRgba(png));
      expect(mine[3]).toBe(0);
    }
  });

  it('matches sharp on the palette, greyscale and 16-bit files sharp itself writes', async () => {
    const base = await (await markImage(40, { r: 30, g: 60, b: 200, alpha: 0.5 }, { r: 220, g: 20, b: 60, alpha: 1 })).png().toBuffer();
    const variants = [
      await sharp(base).png({ palette: true }).toBuffer(),
      await sharp(base).png({ palette: true, colours: 4 }).toBuffer(),
      await sharp(base).png({ palette: true, colours: 2 }).toBuffer(),
      await sharp(base).toColourspace('b-w').png().toBuffer(),
      await sharp(base).flatten({ background: '#fff' }).toColourspace('b-w').png().toBuffer(),
      await sharp(base).toColourspace('rgb16').png().toBuffer(),
      await sharp(base).toColourspace('grey16').png().toBuffer(),
      await sharp(base).png({ adaptiveFiltering: true, compressionLevel: 9 }).toBuffer(),
    ];
    for (const png of variants) expect(decoded(png)).toEqual(await sharpRgba(png));
  });

  it('reads size and pixel limit from IHDR and refuses a huge declared size before inflating anything', () => {
    const header = readPngHeader(encodePng({ width: 300, height: 20, bitDepth: 8, colourType: 6, rows: randomRows(300, 20, 8, 6, 1) }));
    expect(header).toMatchObject({ width: 300, height: 20, bitDepth: 8, colourType: 6, interlaced: false });
    // The image data is garbage: only a check made before inflating can answer with the pixel limit.
    const bomb = encodePng({ width: 10_000, height: 10_000, bitDepth: 8, colourType: 6, rows: [], idat: noise(100, 1) });
    expect(bomb.length).toBeLessThan(200);
    expect(() => decodePng(bomb, MAX_PIXELS)).toThrow(PixelLimitError);
  });

  it('stops inflating at the declared size and leaves such files to sharp', () => {
    // 16×16 RGBA needs 16 × 65 bytes; this stream holds 16 MB of zeros and then bytes no inflater can read. Only
    // an inflater that stops at the declared size never reaches them (one that read on would throw on them), so
    // where it stopped is read from the outcome, not from a clock.
    const zeros = deflateSync(Buffer.alloc(16 * 1024 * 1024), { finishFlush: zlibConstants.Z_SYNC_FLUSH });
    const idat = Buffer.concat([zeros, Buffer.alloc(64, 0xff)]);
    expect(() => inflateSync(idat)).toThrow(); // control: read to the end, the stream is broken
    const png = encodePng({ width: 16, height: 16, bitDepth: 8, colourType: 6, rows: [], idat });
    expect(decodePng(png, MAX_PIXELS)).toBeNull();
  });

  it('leaves interlaced files and files with a colour profile or EXIF to sharp', () => {
    const rows = randomRows(8, 8, 8, 6, 2);
    expect(decodePng(encodePng({ width: 8, height: 8, bitDepth: 8, colourType: 6, rows, interlaced: true }), MAX_PIXELS)).toBeNull();
    for (const type of ['iCCP', 'eXIf']) {
      const png = encodePng({ width: 8, height: 8, bitDepth: 8, colourType: 6, rows, extraChunks: [{ type, data: noise(20, 4) }] });
      expect(decodePng(png, MAX_PIXELS), type).toBeNull();
    }
  });

  it('throws a plain Error for every truncation and for damaged data, as sharp refuses them', async () => {
    const png = await pngOf(24, CLEAR, BLACK);
    const imageEnd = png.length - 12; // IEND: libpng never reads it, so cutting it off is harmless
    for (let length = 0; length < imageEnd; length++) {
      expect(() => decodePng(png.subarray(0, length), MAX_PIXELS), `cut at ${length}`).toThrow(Error);
    }
    expect(decoded(png.subarray(0, imageEnd))).toEqual(await sharpRgba(png));
    const badCrc = Buffer.from(png);
    badCrc[imageEnd - 1] = (badCrc[imageEnd - 1] ?? 0) ^ 0xff;
    expect(() => decodePng(badCrc, MAX_PIXELS)).toThrow(/CRC/);
    const rows = randomRows(8, 8, 8, 6, 3);
    const badFilter = encodePng({ width: 8, height: 8, bitDepth: 8, colourType: 6, rows, filters: [0, 7] });
    expect(() => decodePng(badFilter, MAX_PIXELS)).toThrow(/filter/);
    const shortData = encodePng({ width: 8, height: 8, bitDepth: 8, colourType: 6, rows: rows.slice(0, 5) });
    expect(() => decodePng(shortData, MAX_PIXELS)).toThrow(/too short/);
    const noPalette = encodePng({ width: 8, height: 8, bitDepth: 8, colourType: 3, rows: randomRows(8, 8, 8, 3, 1, 4) });
    expect(() => decodePng(noPalette, MAX_PIXELS)).toThrow(/PLTE/);
  });

  it('never throws anything but an Error on random damage', async () => {
    const png = await (await markImage(30, WHITE, { r: 0, g: 128, b: 255, alpha: 0.7 })).png({ adaptiveFiltering: true }).toBuffer();
    const positions = noise(400, 17, png.length);
    const values = noise(400, 23);
    positions.forEach((_, i) => {
      const damaged = Buffer.from(png);
      const at = ((positions[i] ?? 0) * 7919 + i) % png.length;
      damaged[at] = values[i] ?? 0;
      // The outcome is taken apart from the assertions: an assertion failing inside the `try` would be an Error too.
      let outcome: { raster: ReturnType<typeof decodePng> } | { thrown: unknown };
      try {
        outcome = { raster: decodePng(damaged, MAX_PIXELS) };
      } catch (thrown) {
        outcome = { thrown };
      }
      if ('thrown' in outcome) expect(outcome.thrown, `damage at ${at}`).toBeInstanceOf(Error);
      else if (outcome.raster) expect(outcome.raster.data.length, `damage at ${at}`).toBe(outcome.raster.width * outcome.raster.height * 4);
    });
  });

  it('ignores chunks after the image data, even broken ones, like libpng', async () => {
    const png = await pngOf(20, WHITE, BLACK);
    const withTrailer = Buffer.concat([png.subarray(0, png.length - 12), pngChunk('tEXt', Buffer.from('a\0b')), Buffer.from([0, 0, 0xff])]);
    expect(decoded(withTrailer)).toEqual(await sharpRgba(png));
  });
});
