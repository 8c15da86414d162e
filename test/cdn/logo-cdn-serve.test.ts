/**
 * The logo CDN through real `brandbase serve` processes on loopback, as an `<img>` (or a server-side fetch) sees
 * it: on its own port (BRANDBASE_CDN_PORT) and on the API's listener under `/logo`. An unknown brand answers the
 * fallback at once and queues its crawl; once the worker has indexed the fixture site, the same URL answers the
 * brand's logo, which matches the record's own asset.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Brand } from '../../src/domain/brand.js';
import { LogoCdnUrls } from '../../src/cdn/logo-cdn-urls.js';
import { FIXTURE_HOSTS, startFixtureSites, type FixtureSites } from '../helpers/fixture-sites.js';
import { freePort, runJson, startServer, type ServerProcess } from '../helpers/brandbase-process.js';
import { UNBOUNDED_BUDGETS_ENV } from '../helpers/unbounded-budget.js';

let sites: FixtureSites;
const dataDirs: string[] = [];
const servers: ServerProcess[] = [];

/** One test's own service: a data folder, an organization with a key and a client ID for shop.example. */
interface OwnService {
  env: Record<string, string>;
  key: string;
  clientId: string;
}

async function ownService(): Promise<OwnService> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'brandbase-cdn-'));
  dataDirs.push(dataDir);
  const env = { BRANDBASE_DATA_DIR: dataDir, BRANDBASE_CRAWL_HOSTS: JSON.stringify(sites.hostMap), BRANDBASE_KEY_CACHE_MS: '0', BRANDBASE_CLIENT_ID_CACHE_MS: '0', ...UNBOUNDED_BUDGETS_ENV };
  const org = await runJson(['orgs', 'create', '--name', 'Logo wall', '--plan', 'paid'], env);
  const key = String((await runJson(['keys', 'create', '--org', String(org.id)], env)).key);
  const clientId = String((await runJson(['client-ids', 'create', '--org', String(org.id), '--referrer', 'shop.example'], env)).id);
  return { env, key, clientId };
}

/**
 * Asks again until `probe` answers: the crawl runs in the server's worker, another process, seen only through
 * HTTP. No deadline of its own: the test's timeout bounds it, so a loaded machine only makes it slower.
 */
async function eventually<T>(probe: () => Promise<T | null>): Promise<T> {
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function pixels(bytes: Buffer): Promise<{ width: number; height: number; data: Buffer }> {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

/** Mean absolute difference per channel (0..255) of two decoded images of one size. */
function meanDifference(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i += 1) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

beforeAll(async () => {
  sites = await startFixtureSites();
});

afterAll(async () => {
  for (const server of servers) if (server.child.exitCode === null) server.child.kill('SIGKILL');
  await sites?.close();
  for (const dataDir of dataDirs) await rm(dataDir, { recursive: true, force: true });
});

describe('logo CDN on a running server', () => {
  it('own port: an unknown brand answers the fallback at once and queues a crawl; the logo once indexed, as the record holds it', async () => {
    const { env, key, clientId } = await ownService();
    const cdnPort = await freePort();
    const server = await startServer({ ...env, BRANDBASE_CDN_PORT: String(cdnPort) });
    servers.push(server);
    const cdn = `http://127.0.0.1:${cdnPort}`;
    const brand = FIXTURE_HOSTS.northwind;
    // The fixture site's requests from here on are this test's server's (another test may have crawled it before).
    const siteRequestsBefore = sites.sites.northwind.requests.length;
    // A server-side fetch (no Referer) of a brand never seen: the default fallback now, at the size asked for.
    const first = await fetch(`${cdn}/${brand}/w/64.png?c=${clientId}`);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-bf-fallback')).toBe('default');
    expect(first.headers.get('cache-control')).toBe('public, max-age=300');
    const placeholder = await pixels(Buffer.from(await first.arrayBuffer()));
    expect([placeholder.width, placeholder.height]).toEqual([64, 64]);
    // An <img> on an allowed page, for the same brand: its logo once the in-process worker has crawled the site.
    const img = { referer: 'https://shop.example/products' };
    const logo = await eventually(async () => {
      const res = await fetch(`${cdn}/${brand}/w/64.png?c=${clientId}`, { headers: img });
      return res.status === 200 && res.headers.get('x-bf-fallback') === null ? res : null;
    });
    expect(sites.sites.northwind.requests.slice(siteRequestsBefore)).toContain('/');
    expect(logo.headers.get('content-type')).toBe('image/png');
    expect(logo.headers.get('cache-control')).toBe(`public, max-age=${7 * 86_400}`);
    const etag = logo.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await fetch(`${cdn}/${brand}/w/64.png?c=${clientId}`, { headers: { ...img, 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect((await again.arrayBuffer()).byteLength).toBe(0);
    // Not on this CDN: a page the client ID does not allow, and the API's own listener (the CDN has its port).
    expect((await fetch(`${cdn}/${brand}?c=${clientId}`, { headers: { referer: 'https://other.example/' } })).headers.get('x-bf-error')).toBe('referrer_not_allowed');
    expect((await fetch(`${server.baseUrl}/logo/${brand}?c=${clientId}`)).status).toBe(404);

    // Records and CDN agree: each logo file of the record, fetched in its CDN form, is that file's picture.
    const record = (await (await fetch(`${server.baseUrl}/v2/brands/${brand}?cachedOnly=true`, { headers: { authorization: `Bearer ${key}` } })).json()) as Brand;
    const urls = new LogoCdnUrls(cdn);
    let compared = 0;
    for (const item of record.logos) {
      for (const format of item.formats) {
        const url = urls.formatUrl(record, item, format);
        if (url === null) continue;
        const served = await fetch(`${url}?c=${clientId}`);
        expect(served.status, url).toBe(200);
        expect(served.headers.get('x-bf-fallback'), url).toBeNull();
        if (format.format === 'svg') {
          expect(served.headers.get('content-type'), url).toBe('image/svg+xml');
          continue;
        }
        const original = await pixels(Buffer.from(await (await fetch(format.src)).arrayBuffer()));
        const variant = await pixels(Buffer.from(await served.arrayBuffer()));
        expect([variant.width, variant.height], url).toEqual([original.width, original.height]);
        // Lossless PNG/WebP re-encodes or JPEG at quality 90: the same picture within encoding noise.
        expect(meanDifference(original.data, variant.data), url).toBeLessThan(6);
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(0);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it("API listener: the CDN under /logo, the held brand's logo; an unknown brand's 404 fallback answers 404 crawl_queued", async () => {
    const { env, clientId } = await ownService();
    // This test's own held brand, indexed from the shell before the server starts.
    const crawled = await runJson(['crawl', FIXTURE_HOSTS.northwind], env);
    expect(crawled.results).toEqual([expect.objectContaining({ domain: FIXTURE_HOSTS.northwind, status: 'indexed' })]);
    const server = await startServer(env);
    servers.push(server);
    const held = await fetch(`${server.baseUrl}/logo/${FIXTURE_HOSTS.northwind}/w/32/h/32.webp?c=${clientId}`);
    expect(held.status).toBe(200);
    expect(held.headers.get('content-type')).toBe('image/webp');
    expect(held.headers.get('x-bf-fallback')).toBeNull();
    expect(await pixels(Buffer.from(await held.arrayBuffer()))).toMatchObject({ width: 32, height: 32 });
    const unknown = await fetch(`${server.baseUrl}/logo/${FIXTURE_HOSTS.lumen}/fallback/404?c=${clientId}`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('x-bf-error')).toBe('crawl_queued');
    expect(await unknown.json()).toMatchObject({ code: 'crawl_queued' });
    const bad = await fetch(`${server.baseUrl}/logo/${FIXTURE_HOSTS.lumen}/w/4096?c=${clientId}`);
    expect(bad.status).toBe(400);
    expect(bad.headers.get('x-bf-error')).toBe('invalid_width');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });
});
