/**
 * Render wait (issue 16, JavaScript-built headers): with real Chromium, a page whose header logo a script inserts
 * after DOMContentLoaded (test/fixtures/sites/latemast) yields that logo, also when scripts and an image on a
 * host that never answers are on the page. Plus the pure decisions behind it (settle-page.ts, render-requests.ts).
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlBrand } from '../../src/crawl/crawl-brand.js';
import { BrowserRenderer } from '../../src/crawl/fetch/render/browser-renderer.js';
import { RenderRequests, THIRD_PARTY_TIMEOUT_MS } from '../../src/crawl/fetch/render/render-requests.js';
import { isSettled } from '../../src/crawl/fetch/render/settle-page.js';
import { FetchError } from '../../src/platform/fetcher.js';
import { SafeFetcher, USER_AGENT } from '../../src/platform/safe-fetcher.js';
import { tempAssets } from '../helpers/temp-assets.js';
import { CHROMIUM_PATH, needsChromium } from '../helpers/optional.js';

const chromiumPath = CHROMIUM_PATH;
const SITE = path.join(import.meta.dirname, '../fixtures/sites/latemast');
const HOST = 'latemast.test';
const TAGS_HOST = 'tags.adnet.test';
const LOGO_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40" viewBox="0 0 160 40"><path fill="#0b3d91" d="M4 6h10v28H4zM20 6h26v8H37v20h-9V14h-8zM52 6h10v20h16v8H52zM84 6h30v8H94v4h16v8H94v8H84z"/><circle cx="138" cy="20" r="14" fill="#e4572e"/></svg>';

describe('RenderRequests', () => {
  it('gives the site its own patience, another host a short one, and never fetches third-party images', () => {
    const requests = new RenderRequests('https://www.latemast.test/');
    expect(requests.decide('https://cdn.latemast.test/app.js', 'script')).toMatchObject({ fetch: true, own: true });
    expect(requests.decide('https://tags.adnet.test/gtm.js', 'script')).toEqual({ fetch: true, own: false, timeoutMs: THIRD_PARTY_TIMEOUT_MS });
    expect(requests.decide('https://tags.adnet.test/pixel.gif', 'image')).toEqual({ fetch: false });
    // The site's own images are fetched, but the page is not kept waiting for them.
    expect(requests.decide('https://www.latemast.test/logo.svg', 'image')).toMatchObject({ fetch: true, own: false });
  });

  it('aborts every later request to a host that could not be reached, and counts only the site’s own requests in flight', async () => {
    let clock = 0;
    const requests = new RenderRequests('https://latemast.test/', () => clock);
    await expect(requests.track('https://tags.adnet.test/gtm.js', false, () => Promise.reject(new FetchError('timeout', 'no answer')))).rejects.toThrow();
    expect(requests.decide('https://tags.adnet.test/consent.js', 'script')).toEqual({ fetch: false });
    await expect(requests.track('https://media.latemast.test/a.jpg', false, () => Promise.reject(new FetchError('dns_failure', 'no such host')))).rejects.toThrow();
    expect(requests.decide('https://media.latemast.test/b.jpg', 'image')).toEqual({ fetch: false });
    // One file too large says nothing about the host.
    await expect(requests.track('https://latemast.test/huge.js', true, () => Promise.reject(new FetchError('too_large', 'too large')))).rejects.toThrow();
    expect(requests.decide('https://latemast.test/app.js', 'script')).toMatchObject({ fetch: true, own: true });
    let answer: (value: string) => void = () => undefined;
    const own = requests.track('https://latemast.test/api/header.json', true, () => new Promise<string>((resolve) => (answer = resolve)));
    clock = 1_000;
    expect(requests.ownIdleMs()).toBe(0);
    answer('{}');
    await own;
    clock = 1_300;
    expect(requests.ownIdleMs()).toBe(300);
  });
});

describe('isSettled', () => {
  const idle = (ms: number) => ({ awaitMark: false, ownIdleMs: () => ms });
  const waiting = (ms: number) => ({ awaitMark: true, ownIdleMs: () => ms });

  it('waits for the site’s own requests and a quiet DOM', () => {
    expect(isSettled({ quietMs: 1_000, hasMark: true }, idle(0), 300)).toBe(false);
    expect(isSettled({ quietMs: 100, hasMark: true }, idle(1_000), 300)).toBe(false);
    expect(isSettled({ quietMs: 500, hasMark: false }, idle(500), 600)).toBe(true);
  });

  it('waits for a mark when asked, until the page has done nothing for a while or the patience is spent', () => {
    expect(isSettled({ quietMs: 800, hasMark: false }, waiting(800), 900)).toBe(false);
    expect(isSettled({ quietMs: 800, hasMark: true }, waiting(800), 900)).toBe(true);
    expect(isSettled({ quietMs: 3_000, hasMark: false }, waiting(3_000), 3_100)).toBe(true);
    expect(isSettled({ quietMs: 50, hasMark: false }, waiting(1_000), 6_000)).toBe(true);
  });

  it('reads a page that never stops changing once its own requests are done', () => {
    expect(isSettled({ quietMs: 20, hasMark: true }, idle(1_000), 1_000)).toBe(false);
    expect(isSettled({ quietMs: 20, hasMark: true }, idle(1_000), 2_100)).toBe(true);
  });
});

needsChromium('render').describe('a header logo inserted after DOMContentLoaded, with headless Chromium', () => {
  let site: Server;
  let blackhole: TcpServer;
  const sockets = new Set<Socket>();
  const blackholeRequests: string[] = [];
  let fetcher: SafeFetcher;
  let renderer: BrowserRenderer;

  beforeAll(async () => {
    site = await serveLatemast();
    // Accepts connections and reads requests, never answers: a third party on a locked-down server.
    blackhole = createTcpServer((socket) => {
      sockets.add(socket);
      socket.on('data', (d: Buffer) => blackholeRequests.push(d.toString('latin1').split('\r\n')[0] ?? ''));
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => blackhole.listen(0, '127.0.0.1', resolve));
    const hostMap = { [HOST]: `127.0.0.1:${(site.address() as AddressInfo).port}`, [TAGS_HOST]: `127.0.0.1:${(blackhole.address() as AddressInfo).port}` };
    fetcher = new SafeFetcher({ hostMap });
    renderer = new BrowserRenderer({ executablePath: chromiumPath ?? '', fetcher, userAgent: USER_AGENT });
    // Chromium is started here, so the crawl's render budget goes to the page, not to starting a browser.
    await renderer.render('about:blank', { timeoutMs: 120_000 });
  }, 180_000);

  afterAll(async () => {
    await renderer?.close();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => blackhole?.close(resolve));
    await new Promise((resolve) => site?.close(resolve));
  });

  it('statically has no logo, only the icon', async () => {
    const outcome = await crawlBrand(HOST, { fetcher, assets: tempAssets() }, { timeoutMs: 20_000 });
    if (!outcome.ok) throw new Error(outcome.message);
    expect(outcome.draft.logos.map((l) => l.type)).toEqual(['icon']);
  });

  it('rendered, waits for the script to insert the header logo and keeps it', async () => {
    // The logo appears 1 s after the header data, when the network has long been idle: a wait for network idle
    // alone reads the page before it (the wait this replaced did).
    const assets = tempAssets();
    const outcome = await crawlBrand(HOST, { fetcher, assets, renderer }, { timeoutMs: 20_000 });
    if (!outcome.ok) throw new Error(outcome.message);
    const logo = outcome.draft.logos.find((l) => l.type === 'logo');
    expect(logo?.formats[0]).toMatchObject({ format: 'svg', width: 160, height: 40 });
    expect((await assets.get(logo?.formats[0]?.src ?? ''))?.bytes.toString('utf8')).toContain('#e4572e');
  }, 60_000);

  it('scripts and a pixel on a host that never answers do not keep the logo out', async () => {
    const rendered = await renderer.render(`http://${HOST}/with-tags.html`, { timeoutMs: 12_000, awaitMark: true });
    expect(rendered?.html).toContain('src="/static/latemast-wordmark.svg"');
    // The host was tried (for its scripts: robots.txt first, which it never answers), never for its pixel: other
    // hosts' images are not fetched.
    expect(blackholeRequests.length).toBeGreaterThan(0);
    expect(blackholeRequests.some((line) => line.includes('/pixel.gif'))).toBe(false);
  }, 60_000);
});

async function serveLatemast(): Promise<Server> {
  const favicon = await sharp(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32"><circle cx="16" cy="16" r="14" fill="#e4572e"/></svg>')).png().toBuffer();
  const files: Record<string, { type: string; body: Buffer | string; delayMs?: number }> = {
    '/': { type: 'text/html; charset=utf-8', body: await readFile(path.join(SITE, 'index.html'), 'utf8') },
    '/with-tags.html': { type: 'text/html; charset=utf-8', body: await readFile(path.join(SITE, 'with-tags.html'), 'utf8') },
    '/static/header.js': { type: 'text/javascript', body: await readFile(path.join(SITE, 'header.js'), 'utf8') },
    '/api/header.json': { type: 'application/json', body: JSON.stringify({ name: 'Latemast', logo: '/static/latemast-wordmark.svg' }), delayMs: 300 },
    '/static/latemast-wordmark.svg': { type: 'image/svg+xml', body: LOGO_SVG },
    '/favicon-32x32.png': { type: 'image/png', body: favicon },
    '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nAllow: /\n' },
  };
  const server = createServer((req, res) => {
    const file = files[new URL(req.url ?? '/', 'http://x').pathname];
    if (!file) return void res.writeHead(404).end();
    setTimeout(() => res.writeHead(200, { 'content-type': file.type }).end(file.body), file.delayMs ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}
