import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { tempAssets } from '../helpers/temp-assets.js';
import { crawlBrand } from '../../src/crawl/crawl-brand.js';
import type { Fetcher } from '../../src/platform/fetcher.js';

/** The crawl's time budget, an hour away: these tests expect a crawl that succeeds, on however loaded a machine. */
const NO_CRAWL_DEADLINE_MS = 3_600_000;

const HOME = `<!doctype html><html lang="en"><head><title>Acme | Rockets</title></head><body>
  <header><a href="/"><span>Acme</span></a></header>
  <main><section class="hero"><h1>Rockets for everyone</h1><img src="/hero.jpg" alt="Our launch team at work" width="1600" height="600"></section>
  <p>Acme builds rockets for teams of every size, from the first prototype to the hundredth launch.</p></main></body></html>`;

/** A wide photo-like JPEG: a gradient with noise, so it is neither uniform nor a logo. */
async function heroJpeg(): Promise<Buffer> {
  const width = 1600;
  const height = 600;
  const data = Buffer.alloc(width * height * 3);
  for (let i = 0, seed = 7; i < data.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    data[i] = ((i / 3) % width) * (200 / width) + (seed % 40);
  }
  return sharp(data, { raw: { width, height, channels: 3 } }).jpeg({ quality: 80 }).toBuffer();
}

describe('collectImages: one download per file per crawl', () => {
  it('fetches and decodes an image once when it is both the hero banner and a picture of the page', async () => {
    const jpeg = await heroJpeg();
    const asked: string[] = [];
    const fetcher: Fetcher = {
      fetch(url) {
        const { pathname } = new URL(url);
        asked.push(pathname);
        const [type, body] = pathname === '/' ? ['text/html', Buffer.from(HOME)] : pathname === '/hero.jpg' ? ['image/jpeg', jpeg] : ['text/html', Buffer.from('<title>Not found</title>')];
        return Promise.resolve({ url, status: pathname === '/' || pathname === '/hero.jpg' ? 200 : 404, headers: { 'content-type': type }, body, redirects: [] });
      },
    };
    const outcome = await crawlBrand('acme.test', { fetcher, assets: tempAssets() }, { timeoutMs: NO_CRAWL_DEADLINE_MS });
    if (!outcome.ok) throw new Error(outcome.reason);
    expect(asked.filter((p) => p === '/hero.jpg')).toHaveLength(1);
    expect(outcome.draft.images.map((i) => [i.type, i.formats[0]?.format, i.formats[0]?.width])).toEqual([['banner', 'jpeg', 1600]]);
  });

  it('fetches a file once when it is both the logo and the og:image, and lists it only as the logo', async () => {
    const logo = await sharp({ create: { width: 400, height: 100, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .composite([{ input: { create: { width: 300, height: 60, channels: 4, background: '#1a73e8' } }, left: 50, top: 20 }])
      .png()
      .toBuffer();
    const home = `<!doctype html><html lang="en"><head><title>Acme</title><meta property="og:image" content="/logo.png"></head>
      <body><header><a href="/"><img src="/logo.png" alt="Acme logo" width="200" height="50"></a></header><main><p>Rockets.</p></main></body></html>`;
    const asked: string[] = [];
    const fetcher: Fetcher = {
      fetch(url) {
        const { pathname } = new URL(url);
        asked.push(pathname);
        const found = pathname === '/' || pathname === '/logo.png';
        const [type, body] = pathname === '/logo.png' ? ['image/png', logo] : ['text/html', Buffer.from(found ? home : '<title>Not found</title>')];
        return Promise.resolve({ url, status: found ? 200 : 404, headers: { 'content-type': type }, body, redirects: [] });
      },
    };
    const outcome = await crawlBrand('acme.test', { fetcher, assets: tempAssets() }, { timeoutMs: NO_CRAWL_DEADLINE_MS });
    if (!outcome.ok) throw new Error(outcome.reason);
    expect(asked.filter((p) => p === '/logo.png')).toHaveLength(1);
    expect(outcome.draft.logos.map((l) => [l.type, l.formats[0]?.format, l.formats[0]?.width])).toEqual([['logo', 'png', 400]]);
    expect(outcome.draft.images).toEqual([]);
  });
});
