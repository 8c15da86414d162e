/**
 * Issue 16 part A on fixture sites served on loopback (test/fixtures/names/): the www-only site and its reverse,
 * an undeclared apple-touch-icon larger than the declared icon, and an article page that names its publisher
 * only in microdata. Real crawlBrand, real SafeFetcher, real sockets.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlBrand, type CrawlOutcome } from '../../src/crawl/crawl-brand.js';
import type { AssetStore, StoredAsset } from '../../src/assets/asset-store.js';
import { SafeFetcher } from '../../src/platform/safe-fetcher.js';

type Files = Record<string, { type: string; body: Buffer | string }>;

const servers: Server[] = [];
const hostMap: Record<string, string> = {};
const requests: Record<string, string[]> = {};

/** One loopback server per host; `null` files answer 404 to everything (a host that exists but serves no site). */
async function serve(host: string, files: Files | null): Promise<void> {
  requests[host] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests[host]?.push(path);
    if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    const file = files?.[path];
    if (!file) return void res.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><title>Not found</title>');
    res.writeHead(200, { 'content-type': file.type }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  hostMap[host] = `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A host whose every path redirects along `/r1 → /r2 → … → /rN`, the last answering 404. */
async function serveRedirectChain(host: string, hops: number): Promise<void> {
  requests[host] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests[host]?.push(path);
    if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    const step = path === '/' ? 0 : Number(path.slice(2));
    if (step < hops) return void res.writeHead(302, { location: `/r${step + 1}` }).end();
    res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  hostMap[host] = `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A loopback port nothing listens on: connections are refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const fixture = (name: string): Promise<string> => readFile(new URL(`../fixtures/names/${name}`, import.meta.url), 'utf8');
const html = (body: string) => ({ type: 'text/html; charset=utf-8', body });
const square = async (size: number, colour: string) => ({
  type: 'image/png',
  body: await sharp({ create: { width: size, height: size, channels: 4, background: colour } })
    .composite([{ input: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}"><circle cx="${size / 2}" cy="${size / 2}" r="${size / 3}" fill="#ffffff"/></svg>`) }])
    .png()
    .toBuffer(),
});

class MemoryAssets implements AssetStore {
  private readonly files = new Map<string, Buffer>();
  async put(bytes: Buffer, ext: 'svg' | 'png' | 'webp' | 'jpeg'): Promise<StoredAsset> {
    const key = `${(await import('node:crypto')).createHash('sha256').update(bytes).digest('hex')}.${ext}`;
    this.files.set(key, bytes);
    return { key, size: bytes.length };
  }
  async get(key: string): Promise<{ bytes: Buffer; contentType: string } | null> {
    const bytes = this.files.get(key);
    return bytes ? { bytes, contentType: 'application/octet-stream' } : null;
  }
}

let fetcher: SafeFetcher;
const assets = new MemoryAssets();

beforeAll(async () => {
  const home = html(await fixture('brand-home.html'));
  const icon32 = await square(32, '#0b5394');
  // www-only: the bare name refuses connections; another site's bare name answers 404 everywhere.
  hostMap['refusing.test'] = `127.0.0.1:${await closedPort()}`;
  await serve('www.refusing.test', { '/': home, '/favicon-32.png': icon32 });
  await serve('notfound.test', null);
  await serve('www.notfound.test', { '/': home, '/favicon-32.png': icon32 });
  // The reverse: only the bare name serves the site.
  hostMap['www.bareonly.test'] = `127.0.0.1:${await closedPort()}`;
  await serve('bareonly.test', { '/': home, '/favicon-32.png': icon32 });
  await serve('quaymark.test', {
    '/': html(await fixture('small-icon.html')),
    '/favicon-40.png': await square(40, '#2e7d32'),
    '/apple-touch-icon.png': await square(180, '#2e7d32'),
  });
  await serve('tidewatch.test', { '/': html(await fixture('article-publisher.html')) });
  // The redirect budget is shared: 4 redirects on the bare name leave the www twin no redirect of its own.
  await serveRedirectChain('chained.test', 4);
  await serve('www.chained.test', { '/': home, '/favicon-32.png': icon32 });
  await serveRedirectChain('overspent.test', 4);
  await serveRedirectChain('www.overspent.test', 1);
  fetcher = new SafeFetcher({ hostMap });
});

afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => {
    s.closeAllConnections();
    s.close(() => resolve());
  })));
});

async function crawlOk(host: string) {
  const outcome: CrawlOutcome = await crawlBrand(host, { fetcher, assets }, { timeoutMs: 20_000 });
  if (!outcome.ok) throw new Error(`crawl of ${host} failed: ${outcome.reason} ${outcome.message}`);
  return outcome;
}

describe('www fallback', () => {
  it('finds the brand on www. when the bare domain refuses connections', async () => {
    const { domain, draft } = await crawlOk('refusing.test');
    expect(domain).toBe('refusing.test');
    expect(draft.name).toBe('Harbourline');
  });

  it('finds the brand on www. when the bare domain answers 404', async () => {
    const { draft } = await crawlOk('notfound.test');
    expect(draft.name).toBe('Harbourline');
    expect(requests['notfound.test']).toContain('/');
    expect(requests['www.notfound.test']).toContain('/');
  });

  it('finds the brand on the bare domain when www. refuses (the reverse)', async () => {
    const { draft } = await crawlOk('www.bareonly.test');
    expect(draft.name).toBe('Harbourline');
  });

  it('counts the hop to the twin in the one redirect budget of the homepage fetch', async () => {
    expect((await crawlOk('chained.test')).draft.name).toBe('Harbourline');
    const outcome = await crawlBrand('overspent.test', { fetcher, assets }, { timeoutMs: 10_000 });
    // 4 redirects on the bare name + the hop to www. + 1 redirect there = 6 > 5: the first host's failure stands.
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.message).toContain('overspent.test answered HTTP 404');
    expect(requests['www.overspent.test']).toContain('/');
  });

  it('still reports the first host when neither serves the site', async () => {
    const outcome = await crawlBrand('nowhere.test', { fetcher: new SafeFetcher({ hostMap: { 'nowhere.test': hostMap['refusing.test'] ?? '', 'www.nowhere.test': hostMap['refusing.test'] ?? '' } }), assets }, { timeoutMs: 10_000 });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.message).toContain('nowhere.test');
  });
});

describe('conventional icon paths', () => {
  it('takes an undeclared 180-px /apple-touch-icon.png over the declared 40-px icon', async () => {
    const { draft } = await crawlOk('quaymark.test');
    const icon = draft.logos.find((l) => l.type === 'icon');
    expect(icon?.formats[0]?.width).toBe(180);
    expect(requests['quaymark.test']).toContain('/apple-touch-icon.png');
  });

  it('probes them on a site that declares only a small icon, and keeps the declared one when nothing is there', async () => {
    // brand-home.html declares only a 32-px icon and the site has no apple-touch-icon: the probe 404s, the
    // declared icon stays. (No probe when a large icon is declared: test/crawl/logo-candidates.test.ts.)
    const { draft } = await crawlOk('www.notfound.test');
    expect(requests['www.notfound.test']).toContain('/apple-touch-icon.png');
    expect(draft.logos.find((l) => l.type === 'icon')?.formats[0]?.width).toBe(32);
  });
});

describe('article page naming its publisher only in microdata', () => {
  it('gets the publisher as name and the footer self-description, not the article lede or the newsletter pitch', async () => {
    const { draft } = await crawlOk('tidewatch.test');
    expect(draft.name).toBe('Tidewatch');
    expect(draft.description).toBe('Tidewatch is an independent newsroom covering shipping and coastal life in the northern isles.');
  });
});
