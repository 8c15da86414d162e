import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Format, Logo } from '../../src/domain/brand.js';
import { ingestImage } from '../../src/media/ingest-image.js';
import { ASSET_KEY_PATTERN } from '../../src/assets/asset-store.js';
import { LocalAssetStore } from '../../src/assets/local/local-asset-store.js';
import { logoRenditions, SVG_RENDITION_SIDE, withLogoRenditions } from '../../src/media/logo-renditions.js';
import { BLACK, CLEAR, WHITE, markImage } from './image-fixtures.js';

let dir: string;
let assets: LocalAssetStore;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'brandbase-renditions-'));
  assets = new LocalAssetStore({ dir });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The stored original's Format, as a crawled record lists it. */
async function ingested(bytes: Buffer): Promise<Format> {
  const result = await ingestImage(bytes, assets);
  if (!result.ok) throw new Error(result.reason);
  return result.image.original;
}

async function storedMeta(src: string) {
  const file = await assets.get(src);
  if (!file) throw new Error('missing');
  return { meta: await sharp(file.bytes).metadata(), size: file.bytes.length };
}

describe('logoRenditions', () => {
  it('an SVG gets PNG and WebP renditions, longest side 512, transparent like the original', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="30" viewBox="0 0 120 30"><rect x="10" y="5" width="100" height="20" fill="#123456"/></svg>';
    const image = await ingested(Buffer.from(svg));
    const formats = await logoRenditions(image, assets);
    expect(formats.map((f) => f.format)).toEqual(['png', 'webp']);
    for (const f of formats) {
      expect(f.src).toMatch(ASSET_KEY_PATTERN);
      const { meta, size } = await storedMeta(f.src);
      expect(f).toMatchObject({ width: SVG_RENDITION_SIDE, height: 128, size, background: 'transparent' });
      expect(meta.width).toBe(SVG_RENDITION_SIDE);
      expect(meta.hasAlpha).toBe(true);
    }
  });

  it('a PNG gets a WebP with the same size; an opaque one is not transparent', async () => {
    const opaque = await ingested(await (await markImage(64, WHITE, BLACK)).png().toBuffer());
    const [webp] = await logoRenditions(opaque, assets);
    expect(webp).toMatchObject({ format: 'webp', width: 64, height: 64, background: null });
    const clear = await ingested(await (await markImage(64, CLEAR, BLACK)).png().toBuffer());
    expect((await logoRenditions(clear, assets))[0]?.background).toBe('transparent');
  });

  it('a JPEG gets a WebP; a WebP original needs nothing more', async () => {
    const jpeg = await ingested(await (await markImage(64, WHITE, BLACK)).jpeg().toBuffer());
    expect((await logoRenditions(jpeg, assets)).map((f) => f.format)).toEqual(['webp']);
    const webp = await ingested(await (await markImage(64, WHITE, BLACK)).webp().toBuffer());
    expect(await logoRenditions(webp, assets)).toEqual([]);
  });

  it('an SVG without any usable size gets no rasters (its size would be invented)', async () => {
    const image = await ingested(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><rect width="10" height="10"/></svg>'));
    expect(await logoRenditions(image, assets)).toEqual([]);
  });

  it('a missing original gives no renditions rather than an error', async () => {
    const original: Format = { src: `${'0'.repeat(64)}.png`, format: 'png', width: 64, height: 64, size: 10, background: null };
    expect(await logoRenditions(original, assets)).toEqual([]);
  });
});

describe('withLogoRenditions', () => {
  const logo = (formats: Format[]): Logo => ({ theme: 'dark', formats, tags: [], type: 'logo' });

  it('completes only the entries that list their original alone; null when none needs anything', async () => {
    const svg = await ingested(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><circle cx="20" cy="20" r="18" fill="#0a7"/></svg>'));
    const webp = await ingested(await (await markImage(64, WHITE, BLACK)).webp().toBuffer());
    const done = logo([svg, { ...svg, format: 'png', src: `${'1'.repeat(64)}.png` }]);
    const completed = await withLogoRenditions([logo([svg]), logo([webp]), done], assets);
    expect(completed?.map((l) => l.formats.map((f) => f.format))).toEqual([['svg', 'png', 'webp'], ['webp'], ['svg', 'png']]);
    expect(completed?.[0]?.formats[1]).toMatchObject({ width: SVG_RENDITION_SIDE, height: SVG_RENDITION_SIDE, background: 'transparent' });
    expect(await withLogoRenditions([logo([webp]), done], assets)).toBeNull();
  });
});
