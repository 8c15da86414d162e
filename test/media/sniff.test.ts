import sharp from 'sharp';
import { siStripe } from 'simple-icons';
import { describe, expect, it } from 'vitest';
import { sniff } from '../../src/media/sniff.js';
import { BLACK, WHITE, bmpFileOf, icoOf, pngOf, rawRgba, markImage } from './image-fixtures.js';

const text = (s: string) => Buffer.from(s, 'utf8');

describe('sniff', () => {
  it('detects SVG behind a BOM, XML declaration, comments and a DOCTYPE', () => {
    expect(sniff(text(siStripe.svg))).toBe('svg');
    const prolog = `\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n<!-- Generator: x -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n  <svg xmlns="http://www.w3.org/2000/svg"/>`;
    expect(sniff(text(prolog))).toBe('svg');
  });

  it('does not take HTML error pages or other XML for images', () => {
    expect(sniff(text('<!DOCTYPE html><html><body><svg></svg></body></html>'))).toBeNull();
    expect(sniff(text('<html><head><title>404</title></head></html>'))).toBeNull();
    expect(sniff(text('<?xml version="1.0"?><rss version="2.0"></rss>'))).toBeNull();
    expect(sniff(text('{"error":"not found"}'))).toBeNull();
    expect(sniff(Buffer.alloc(0))).toBeNull();
  });

  it('ignores <svg> that appears only after the sniffing window', () => {
    expect(sniff(text(`<!--${'x'.repeat(5000)}--><svg/>`))).toBeNull();
  });

  it('detects rasters from their magic bytes', async () => {
    const png = await pngOf(20, WHITE, BLACK);
    expect(sniff(png)).toBe('png');
    expect(sniff(await sharp(png).jpeg().toBuffer())).toBe('jpeg');
    expect(sniff(await sharp(png).webp().toBuffer())).toBe('webp');
    expect(sniff(await sharp(png).gif().toBuffer())).toBe('gif');
    expect(sniff(icoOf([{ png, size: 20 }]))).toBe('ico');
    expect(sniff(bmpFileOf(await rawRgba(await markImage(4, WHITE, BLACK)), 4, 4))).toBe('bmp');
    expect(sniff(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), png]))).toBe('png');
  });

  it('answers as file-type did for look-alikes and broken headers', async () => {
    const png = await pngOf(20, WHITE, BLACK);
    const ftyp = (brand: string) => Buffer.concat([Buffer.from([0, 0, 0, 0x1c]), Buffer.from(`ftyp${brand}`, 'latin1'), Buffer.alloc(16)]);
    expect(sniff(ftyp('avif'))).toBe('avif');
    expect(sniff(ftyp('avis'))).toBe('avif');
    expect(sniff(ftyp('heic'))).toBeNull();
    expect(sniff(Buffer.from([0xff, 0xd8, 0xff, 0xf7, 0, 0]))).toBeNull(); // JPEG-LS
    expect(sniff(Buffer.from([0, 0, 2, 0, 1, 0]))).toBeNull(); // CUR
    expect(sniff(Buffer.from('RIFF\0\0\0\0WAVEfmt ', 'latin1'))).toBeNull();
    // A PNG signature whose first chunk is not a 13-byte IHDR is no PNG; a cut-off one still is.
    const badFirstChunk = Buffer.from(png);
    badFirstChunk.write('XXXX', 12, 'latin1');
    expect(sniff(badFirstChunk)).toBeNull();
    expect(sniff(png.subarray(0, 12))).toBeNull();
    expect(sniff(png.subarray(0, 40))).toBe('png');
  });
});
