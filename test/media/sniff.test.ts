import sharp from 'sharp';
import { siStripe } from 'simple-icons';
import { describe, expect, it } from 'vitest';
import { sniff } from '../../src/media/sniff.js';
import { BLACK, WHITE, bmpFileOf, icoOf, pngOf, rawRgba, markImage } from './image-fixtures.js';

const text = (s: string) => Buffer.from(s, 'utf8');

describe('sniff', () => {
  it('detects SVG behind a BOM, XML declaration, comments and a DOCTYPE', async () => {
    expect(await sniff(text(siStripe.svg))).toBe('svg');
    const prolog = `\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n<!-- Generator: x -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n  <svg xmlns="http://www.w3.org/2000/svg"/>`;
    expect(await sniff(text(prolog))).toBe('svg');
  });

  it('does not take HTML error pages or other XML for images', async () => {
    expect(await sniff(text('<!DOCTYPE html><html><body><svg></svg></body></html>'))).toBeNull();
    expect(await sniff(text('<html><head><title>404</title></head></html>'))).toBeNull();
    expect(await sniff(text('<?xml version="1.0"?><rss version="2.0"></rss>'))).toBeNull();
    expect(await sniff(text('{"error":"not found"}'))).toBeNull();
    expect(await sniff(Buffer.alloc(0))).toBeNull();
  });

  it('ignores <svg> that appears only after the sniffing window', async () => {
    expect(await sniff(text(`<!--${'x'.repeat(5000)}--><svg/>`))).toBeNull();
  });

  it('detects rasters from their magic bytes', async () => {
    const png = await pngOf(20, WHITE, BLACK);
    expect(await sniff(png)).toBe('png');
    expect(await sniff(await sharp(png).jpeg().toBuffer())).toBe('jpeg');
    expect(await sniff(await sharp(png).webp().toBuffer())).toBe('webp');
    expect(await sniff(await sharp(png).gif().toBuffer())).toBe('gif');
    expect(await sniff(icoOf([{ png, size: 20 }]))).toBe('ico');
    expect(await sniff(bmpFileOf(await rawRgba(await markImage(4, WHITE, BLACK)), 4, 4))).toBe('bmp');
  });
});
