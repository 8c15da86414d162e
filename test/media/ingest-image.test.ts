import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { tempAssets } from '../helpers/temp-assets.js';
import { siGithub, siStripe } from 'simple-icons';
import { describe, expect, it } from 'vitest';
import { ingestImage } from '../../src/media/ingest-image.js';
import type { IngestedImage, IngestResult } from '../../src/media/ingest-image.js';
import { BLACK, CLEAR, WHITE, bmpFileOf, bmpIconEntry, icoOf, markImage, pngOf, rawRgba } from './image-fixtures.js';
import { encodePng } from './png-encoder.js';

function ingested(result: IngestResult): IngestedImage {
  if (!result.ok) throw new Error(`expected an image, got ${result.reason}`);
  return result.image;
}

function recolour(svg: string, hex: string): string {
  return svg.replace('<svg ', `<svg fill="${hex}" `);
}

describe('ingestImage: SVG', () => {
  it('stores a black simple-icons logo as a transparent dark svg', async () => {
    const assets = tempAssets();
    const image = ingested(await ingestImage(Buffer.from(siGithub.svg), assets));
    expect(image.original).toMatchObject({ format: 'svg', width: 24, height: 24, background: 'transparent' });
    expect(image.original.size).toBe((await assets.only()).length);
    expect(image.original.src).toBe(image.assetKey);
    expect(image.original.src).toMatch(/^[0-9a-f]{64}\.svg$/);
    expect(image).toMatchObject({ sourceFormat: 'svg', width: 24, height: 24, transparentEdges: true, theme: 'dark' });
    expect(image.dominantColors[0]?.hex).toBe('#000000');
    expect(image.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('calls a white logo light', async () => {
    const image = ingested(await ingestImage(Buffer.from(recolour(siGithub.svg, '#ffffff')), tempAssets()));
    expect(image.theme).toBe('light');
    expect(image.dominantColors[0]?.hex).toBe('#ffffff');
  });

  it('reports the brand hex of a coloured logo and no theme for a mid-tone', async () => {
    const svg = recolour(siStripe.svg, `#${siStripe.hex}`);
    const image = ingested(await ingestImage(Buffer.from(svg), tempAssets()));
    expect(image.dominantColors[0]).toMatchObject({ hex: `#${siStripe.hex.toLowerCase()}` });
    expect(image.dominantColors[0]?.share).toBeGreaterThan(0.9);
    expect(image.theme).toBeNull();
  });

  it('treats a full-bleed background rect as opaque', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#000"/><circle cx="32" cy="32" r="16" fill="#fff"/></svg>`;
    const image = ingested(await ingestImage(Buffer.from(svg), tempAssets()));
    expect(image.original.background).toBeNull();
    expect(image.theme).toBe('light');
    expect(image.dominantColors.map((c) => c.hex)).toEqual(['#000000', '#ffffff']);
  });

  it('stores a sanitized copy of a hostile SVG without entity expansion', async () => {
    const hostile = `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"><!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;"><!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;"><!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;">]>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="32" height="32" onload="alert(1)"><script>alert(2)</script><image xlink:href="https://evil.test/p.png" width="32" height="32"/><text>&h;&h;&h;</text><rect width="16" height="16"/></svg>`;
    const assets = tempAssets();
    // &h; is 10^8 characters: expanded, the stored copy would hold 300 MB of them (checked below), not a clock.
    const image = ingested(await ingestImage(Buffer.from(hostile), assets));
    const stored = (await assets.only()).toString('utf8');
    expect(stored.toLowerCase()).not.toContain('script');
    expect(stored).not.toContain('onload');
    expect(stored).not.toContain('evil.test');
    expect(stored).not.toContain('aaaa');
    expect(image.original.size).toBe(Buffer.byteLength(stored));
  });

  it('rejects small declared sizes but keeps SVGs that declare none', async () => {
    const ns = 'xmlns="http://www.w3.org/2000/svg"';
    const tiny = `<svg ${ns} width="12" height="12"><rect width="12" height="12"/></svg>`;
    expect(await ingestImage(Buffer.from(tiny), tempAssets())).toEqual({ ok: false, reason: 'too_small' });
    const undeclared = `<svg ${ns}><rect x="2" y="2" width="40" height="40"/></svg>`;
    const image = ingested(await ingestImage(Buffer.from(undeclared), tempAssets()));
    expect([image.width, image.height]).toEqual([null, null]);
  });

  it('accepts a prefixed svg root and rejects an SVG it cannot render', async () => {
    const ns = 'xmlns:svg="http://www.w3.org/2000/svg"';
    const prefixed = `<?xml version="1.0"?><svg:svg ${ns} width="32" height="32"><svg:rect width="32" height="32"/></svg:svg>`;
    expect(ingested(await ingestImage(Buffer.from(prefixed), tempAssets())).width).toBe(32);
    expect(await ingestImage(Buffer.from('<svg><<<<'), tempAssets())).toEqual({ ok: false, reason: 'undecodable' });
  });

  it('draws text, so a text-only wordmark is not blank', async () => {
    const ns = 'xmlns="http://www.w3.org/2000/svg"';
    const wordmark = `<svg ${ns} width="240" height="60"><text x="4" y="48" font-family="sans-serif" font-size="48" font-weight="700" fill="#e5484d">Brand</text></svg>`;
    const image = ingested(await ingestImage(Buffer.from(wordmark), tempAssets()));
    expect(image.uniform).toBe(false);
    expect(image.transparentEdges).toBe(true);
    expect(image.dominantColors[0]?.hex).toBe('#e5484d');
  });

  it('never fetches or reads a file an SVG refers to', async () => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const remote = `http://127.0.0.1:${(server.address() as AddressInfo).port}/p.png`;
    const file = path.join(tmpdir(), `brandbase-ingest-red-${process.pid}.png`);
    writeFileSync(file, await sharp({ create: { width: 64, height: 64, channels: 4, background: '#ff0000' } }).png().toBuffer());
    try {
      const ns = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"';
      const svg = `<svg ${ns} width="64" height="64"><style>@import url(${remote}); circle { fill: url(${remote}) }</style>
<image href="${remote}" width="64" height="64"/><image xlink:href="${file}" width="64" height="64"/><image href="file://${file}" width="64" height="64"/>
<rect x="16" y="16" width="32" height="32" fill="#123456" style="stroke: url('${remote}')"/></svg>`;
      const assets = tempAssets();
      const image = ingested(await ingestImage(Buffer.from(svg), assets));
      const stored = (await assets.only()).toString('utf8');
      expect(stored).not.toContain('127.0.0.1');
      expect(stored).not.toContain(file);
      expect(image.dominantColors.map((c) => c.hex)).toEqual(['#123456']);
      expect(requests).toBe(0);
    } finally {
      server.close();
    }
  });

  it('sees transparency around a tight-cropped wordmark but not around a rounded app-icon plate', async () => {
    const ns = 'xmlns="http://www.w3.org/2000/svg"';
    const bars = [0, 30, 60, 90, 120, 150, 180].map((x) => `<rect x="${x}" y="${x % 60 === 0 ? 0 : 8}" width="18" height="${x % 60 === 0 ? 50 : 34}"/>`);
    const wordmark = `<svg ${ns} viewBox="0 0 198 50">${bars.join('')}</svg>`;
    expect(ingested(await ingestImage(Buffer.from(wordmark), tempAssets())).transparentEdges).toBe(true);
    const appIcon = `<svg ${ns} viewBox="0 0 100 100"><rect width="100" height="100" rx="22" fill="#635bff"/><circle cx="50" cy="50" r="20" fill="#fff"/></svg>`;
    const icon = ingested(await ingestImage(Buffer.from(appIcon), tempAssets()));
    expect(icon.transparentEdges).toBe(false);
    expect(icon.dominantColors[0]?.hex).toBe('#635bff');
  });
});

describe('ingestImage: rasters', () => {
  it('keeps a PNG byte for byte and finds a white logo on transparency light', async () => {
    const png = await pngOf(64, CLEAR, WHITE);
    const assets = tempAssets();
    const image = ingested(await ingestImage(png, assets));
    expect((await assets.only()).equals(png)).toBe(true);
    expect(image.original).toMatchObject({ format: 'png', width: 64, height: 64, size: png.length, background: 'transparent' });
    expect(image.theme).toBe('light');
    expect(image.dominantColors).toEqual([{ hex: '#ffffff', share: 1 }]);
  });

  it('does not call an opaque alpha channel transparent', async () => {
    const png = await (await markImage(64, WHITE, BLACK)).png({ palette: false }).toBuffer();
    const image = ingested(await ingestImage(png, tempAssets()));
    expect(image.original.background).toBeNull();
    expect(image.theme).toBe('dark');
  });

  it('never calls a JPEG transparent and separates its foreground from the background', async () => {
    const jpeg = await (await markImage(80, BLACK, WHITE)).flatten().jpeg({ quality: 90 }).toBuffer();
    const image = ingested(await ingestImage(jpeg, tempAssets()));
    expect(image.original).toMatchObject({ format: 'jpeg', width: 80, height: 80, background: null });
    expect(image.transparentEdges).toBe(false);
    expect(image.theme).toBe('light');
  });

  it('gives no theme to a photo-like opaque image', async () => {
    const noise = Buffer.alloc(64 * 64 * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919) % 251;
    const jpeg = await sharp(noise, { raw: { width: 64, height: 64, channels: 3 } }).jpeg().toBuffer();
    expect(ingested(await ingestImage(jpeg, tempAssets())).theme).toBeNull();
  });

  it('reports colour shares largest first', async () => {
    const red = { r: 220, g: 20, b: 60, alpha: 1 };
    const png = await (await markImage(100, { r: 30, g: 60, b: 200, alpha: 1 }, red)).png().toBuffer();
    const colors = ingested(await ingestImage(png, tempAssets())).dominantColors;
    expect(colors.map((c) => c.hex)).toEqual(['#1e3cc8', '#dc143c']);
    expect(colors[0]?.share).toBeCloseTo(0.75, 1);
    expect(colors[1]?.share).toBeCloseTo(0.25, 1);
  });

  it('drops images under 16 px on a side and keeps 16 px ones', async () => {
    expect(await ingestImage(await pngOf(10, WHITE, BLACK), tempAssets())).toEqual({ ok: false, reason: 'too_small' });
    const wide = await sharp({ create: { width: 200, height: 15, channels: 3, background: WHITE } }).png().toBuffer();
    expect(await ingestImage(wide, tempAssets())).toEqual({ ok: false, reason: 'too_small' });
    const image = ingested(await ingestImage(await pngOf(16, WHITE, BLACK), tempAssets()));
    expect([image.width, image.height]).toEqual([16, 16]);
  });

  it('converts GIF to PNG', async () => {
    const gif = await (await markImage(32, WHITE, BLACK)).gif().toBuffer();
    const assets = tempAssets();
    const image = ingested(await ingestImage(gif, assets));
    expect(image).toMatchObject({ sourceFormat: 'gif', width: 32, height: 32, theme: 'dark' });
    expect(image.original.format).toBe('png');
    expect((await sharp((await assets.only())).metadata()).format).toBe('png');
  });

  it('converts a standalone BMP to PNG', async () => {
    const rgba = await rawRgba(await markImage(20, WHITE, BLACK));
    const image = ingested(await ingestImage(bmpFileOf(rgba, 20, 20), tempAssets()));
    expect(image).toMatchObject({ sourceFormat: 'bmp', width: 20, height: 20, theme: 'dark' });
    expect(image.original).toMatchObject({ format: 'png', background: null });
  });

  it('honours EXIF orientation for the reported size', async () => {
    const jpeg = await sharp({ create: { width: 60, height: 30, channels: 3, background: WHITE } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const image = ingested(await ingestImage(jpeg, tempAssets()));
    expect([image.width, image.height]).toEqual([30, 60]);
  });
});

describe('ingestImage: PNG without sharp', () => {
  it('analyses every colour type and layout alike, interlaced and 16-bit ones included', async () => {
    const base = await markImage(96, CLEAR, { r: 229, g: 72, b: 77, alpha: 1 });
    const variants = await Promise.all([
      base.clone().png().toBuffer(),
      base.clone().png({ palette: true }).toBuffer(),
      base.clone().png({ progressive: true }).toBuffer(),
      base.clone().png({ adaptiveFiltering: true }).toBuffer(),
      base.clone().toColourspace('rgb16').png().toBuffer(),
    ]);
    const images = await Promise.all(variants.map(async (png) => ingested(await ingestImage(png, tempAssets()))));
    for (const image of images) {
      expect(image).toMatchObject({ width: 96, height: 96, transparentEdges: true, uniform: false });
      expect(image.dominantColors).toEqual([{ hex: '#e5484d', share: 1 }]);
    }
  });

  it('refuses a tiny file declaring a huge image before inflating it, and survives one inflating past its size', async () => {
    const bomb = encodePng({ width: 10_000, height: 10_000, bitDepth: 8, colourType: 6, rows: [], idat: Buffer.alloc(64) });
    expect(await ingestImage(bomb, tempAssets())).toEqual({ ok: false, reason: 'too_large' });
    const overlong = encodePng({ width: 32, height: 32, bitDepth: 8, colourType: 6, rows: [], idat: deflateSync(Buffer.alloc(8 * 1024 * 1024)) });
    const result = await ingestImage(overlong, tempAssets());
    expect(result.ok ? result.image.width : result.reason).toBe(32);
  });

  it('calls damaged image data undecodable and stores nothing', async () => {
    const png = await pngOf(64, WHITE, BLACK);
    const damaged = Buffer.from(png);
    damaged[png.length - 20] = (damaged[png.length - 20] ?? 0) ^ 0xff;
    const assets = tempAssets();
    expect(await ingestImage(damaged, assets)).toEqual({ ok: false, reason: 'undecodable' });
    expect((await assets.files()).length).toBe(0);
  });
});

describe('ingestImage: ICO', () => {
  it('stores the largest PNG entry of a multi-size icon', async () => {
    const entries = await Promise.all([16, 32, 48].map(async (size) => ({ size, png: await pngOf(size, CLEAR, BLACK) })));
    const assets = tempAssets();
    const image = ingested(await ingestImage(icoOf(entries), assets));
    expect(image).toMatchObject({ sourceFormat: 'ico', width: 48, height: 48, theme: 'dark', transparentEdges: true });
    expect(image.original).toMatchObject({ format: 'png', width: 48, height: 48, background: 'transparent' });
    expect((await assets.only()).equals(entries[2]?.png ?? Buffer.alloc(0))).toBe(true);
  });

  it('decodes classic BMP entries', async () => {
    const rgba = await rawRgba(await markImage(32, CLEAR, WHITE));
    const small = await pngOf(16, CLEAR, BLACK);
    const ico = icoOf([
      { size: 16, png: small },
      { size: 32, png: bmpIconEntry(rgba, 32) },
    ]);
    const assets = tempAssets();
    const image = ingested(await ingestImage(ico, assets));
    expect(image).toMatchObject({ width: 32, height: 32, theme: 'light', transparentEdges: true });
    expect((await sharp((await assets.only())).metadata()).format).toBe('png');
  });
});

describe('ingestImage: bad input never throws', () => {
  it('rejects an HTML page served as an image', async () => {
    const html = Buffer.from('<!DOCTYPE html><html><head><title>Not Found</title></head><body><svg></svg></body></html>');
    expect(await ingestImage(html, tempAssets())).toEqual({ ok: false, reason: 'not_an_image' });
  });

  it('rejects random bytes and empty input', async () => {
    expect(await ingestImage(Buffer.from([1, 2, 3, 4, 5, 6, 7, 8, 9]), tempAssets())).toEqual({ ok: false, reason: 'not_an_image' });
    expect(await ingestImage(Buffer.alloc(0), tempAssets())).toEqual({ ok: false, reason: 'not_an_image' });
  });

  it('calls a truncated PNG undecodable and stores nothing', async () => {
    const png = await pngOf(64, WHITE, BLACK);
    const assets = tempAssets();
    expect(await ingestImage(png.subarray(0, 60), assets)).toEqual({ ok: false, reason: 'undecodable' });
    expect((await assets.files()).length).toBe(0);
  });

  it('calls a broken ICO undecodable', async () => {
    const ico = icoOf([{ size: 32, png: Buffer.from('not really a bitmap at all') }]);
    expect(await ingestImage(ico, tempAssets())).toEqual({ ok: false, reason: 'undecodable' });
  });

  it('enforces the byte and pixel caps', async () => {
    expect(await ingestImage(Buffer.alloc(10 * 1024 * 1024 + 1), tempAssets())).toEqual({ ok: false, reason: 'too_large' });
    const png = await pngOf(100, WHITE, BLACK);
    expect(await ingestImage(png, tempAssets(), { maxPixels: 5000 })).toEqual({ ok: false, reason: 'too_large' });
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><rect width="100000" height="100000"/></svg>';
    expect(await ingestImage(Buffer.from(svg), tempAssets())).toEqual({ ok: false, reason: 'too_large' });
  });
});
