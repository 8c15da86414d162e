import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlBrand, type BrandDraft } from '../../src/crawl/crawl-brand.js';
import { BrowserRenderer } from '../../src/crawl/fetch/render/browser-renderer.js';
import { LocalAssetStore } from '../../src/assets/local/local-asset-store.js';
import { withLogoRenditions } from '../../src/media/logo-renditions.js';
import { SafeFetcher, USER_AGENT } from '../../src/platform/safe-fetcher.js';
import { FIXTURE_HOSTS, FIXTURE_ICONS, startFixtureSites, type FixtureSites } from '../helpers/fixture-sites.js';
import { CHROMIUM_PATH, needsChromium } from '../helpers/optional.js';

const chromiumPath = CHROMIUM_PATH;

let sites: FixtureSites;
let dir: string;
let assets: LocalAssetStore;
let fetcher: SafeFetcher;

beforeAll(async () => {
  sites = await startFixtureSites();
  dir = await mkdtemp(path.join(tmpdir(), 'brandbase-visuals-'));
  assets = new LocalAssetStore({ dir });
  fetcher = new SafeFetcher({ hostMap: sites.hostMap });
});

afterAll(async () => {
  await sites?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function draftOf(host: string, renderer?: BrowserRenderer): Promise<BrandDraft> {
  const outcome = await crawlBrand(host, { fetcher, assets, renderer }, { timeoutMs: 20_000 });
  if (!outcome.ok) throw new Error(`crawl of ${host} failed: ${outcome.reason}`);
  return outcome.draft;
}

async function stored(src: string): Promise<Buffer> {
  const file = await assets.get(src);
  if (!file) throw new Error(`not stored: ${src}`);
  return file.bytes;
}

describe('logos, formats and images on lumen.test (through the real SafeFetcher)', () => {
  let draft: BrandDraft;
  beforeAll(async () => {
    draft = await draftOf(FIXTURE_HOSTS.lumen);
  });

  it('keeps both colour-scheme variants of the <picture> logo with their themes', async () => {
    const logos = draft.logos.filter((l) => l.type === 'logo');
    expect(logos.map((l) => l.theme)).toEqual(['dark', 'light']);
    const svgs = await Promise.all(logos.map(async (l) => (await stored(l.formats[0]?.src ?? '')).toString('utf8')));
    expect(svgs[0]).toContain(FIXTURE_ICONS.lumen.path);
    expect(svgs[1]).toContain('#ffffff');
  });

  it('lists originals only; the rendition stage adds PNG and WebP to the SVG logo with real sizes and transparency', async () => {
    expect(draft.logos.every((l) => l.formats.length === 1)).toBe(true);
    const logo = (await withLogoRenditions(draft.logos, assets))?.find((l) => l.type === 'logo');
    expect(logo?.formats.map((f) => f.format)).toEqual(['svg', 'png', 'webp']);
    for (const format of logo?.formats.slice(1) ?? []) {
      const bytes = await stored(format.src);
      const meta = await sharp(bytes).metadata();
      expect(format).toMatchObject({ width: meta.width, height: meta.height, size: bytes.length, background: 'transparent' });
      expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(512);
    }
  });

  it('gives the raster icon a WebP rendition and tags the text+mark SVG as a combination mark', async () => {
    const icon = (await withLogoRenditions(draft.logos, assets))?.find((l) => l.type === 'icon');
    expect(icon?.formats.map((f) => f.format)).toEqual(['png', 'webp']);
    expect(icon?.formats[1]).toMatchObject({ width: 180, height: 180, background: null });
    expect(draft.logos.find((l) => l.type === 'logo')?.tags).toEqual(['combination']);
  });

  it('takes the CSS hero background as a banner', async () => {
    const banners = draft.images.filter((i) => i.type === 'banner');
    expect(banners).toHaveLength(1);
    expect(banners[0]?.formats[0]).toMatchObject({ format: 'jpeg', width: 1600, height: 600 });
  });

  it('lists pictures from the homepage and /products, deduplicated, ranked, with metadata', () => {
    const pictures = draft.images.filter((i) => i.type === 'picture');
    const sources = pictures.map((p) => new URL(p.pictureMetadata?.sourceUrl ?? '').pathname);
    expect(sources).toEqual(expect.arrayContaining(['/img/gallery-hall.jpg', '/img/reading-room.jpg', '/img/pendant.jpg']));
    // The small copy of the gallery photo is a perceptual duplicate; blank, tracking and partner images are out.
    expect(sources).not.toContain('/img/gallery-hall-small.jpg');
    expect(sources.some((s) => /blank|tracking|partners/.test(s))).toBe(false);
    expect(pictures.map((p) => p.pictureMetadata?.rank)).toEqual(pictures.map((_, i) => i + 1));
    const scores = pictures.map((p) => p.pictureMetadata?.score ?? 0);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    const hall = pictures.find((p) => p.pictureMetadata?.sourceUrl.endsWith('/img/gallery-hall.jpg'));
    expect(hall?.pictureMetadata).toMatchObject({ naturalWidth: 1200, naturalHeight: 800, alt: 'The main hall of the Lisbon gallery lit at dusk' });
    // The fixture's files are generated, so which kind they are is not asserted here (test/media/image-kind.test.ts
    // and the eval are); the fields must be consistent: a category from the picture vocabulary with its confidence.
    for (const p of pictures) {
      const { imageCategory, categoryConfidence } = p.pictureMetadata ?? {};
      if (imageCategory === null) expect(categoryConfidence).toBeNull();
      else {
        expect(['photographic', 'illustration', 'screenshot']).toContain(imageCategory);
        expect(categoryConfidence).toBeGreaterThanOrEqual(0.5);
      }
      for (const tag of p.tags) expect(['photographic', 'illustration', 'screenshot']).toContain(tag);
    }
  });

  it('stores only what the record lists: rejected candidates (favicon sizes, duplicates, blanks) never reach the store', async () => {
    const own = await mkdtemp(path.join(tmpdir(), 'brandbase-visuals-own-'));
    try {
      const store = new LocalAssetStore({ dir: own });
      const outcome = await crawlBrand(FIXTURE_HOSTS.lumen, { fetcher, assets: store }, { timeoutMs: 20_000 });
      if (!outcome.ok) throw new Error('crawl failed');
      const listed = new Set([...outcome.draft.logos, ...outcome.draft.images].flatMap((x) => x.formats.map((f) => f.src)));
      expect(new Set((await readdir(own)).filter((f) => !f.startsWith('.')))).toEqual(listed);
    } finally {
      await rm(own, { recursive: true, force: true });
    }
  });

  it('never stores an image under 16 px', () => {
    for (const format of [...draft.logos, ...draft.images].flatMap((x) => x.formats)) {
      expect(Math.min(format.width ?? 16, format.height ?? 16)).toBeGreaterThanOrEqual(16);
    }
  });
});

describe('a JavaScript-built site (spashell.test)', () => {
  it('without a renderer still answers, with the icon but no logo', async () => {
    const draft = await draftOf(FIXTURE_HOSTS.spashell);
    expect(draft.logos.map((l) => l.type)).toEqual(['icon']);
  });

  needsChromium('render').describe('with headless Chromium', () => {
    let renderer: BrowserRenderer;
    beforeAll(async () => {
      renderer = new BrowserRenderer({ executablePath: chromiumPath ?? '', fetcher, userAgent: USER_AGENT });
      // Chromium is started here, so the crawl's render budget (12 s) goes to the page, not to starting a browser
      // on a busy machine.
      await renderer.render(`http://${FIXTURE_HOSTS.plainfield}/`, { timeoutMs: 120_000 });
    }, 180_000);
    afterAll(async () => {
      await renderer?.close();
    });

    it('renders the shell and finds the logo the script inserts', async () => {
      const draft = await draftOf(FIXTURE_HOSTS.spashell, renderer);
      const logo = draft.logos.find((l) => l.type === 'logo');
      expect(logo?.formats[0]).toMatchObject({ format: 'svg', width: 132, height: 24 });
      expect((await stored(logo?.formats[0]?.src ?? '')).toString('utf8')).toContain(FIXTURE_ICONS.spashell.path);
      expect(draft.name).toBe('Spashell');
    }, 120_000);
  });
});
