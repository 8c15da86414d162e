/**
 * Records hold asset keys and every `src` is rendered when served (ADR 0011), shown on real processes: a brand
 * crawled live by `brandbase serve` under one BRANDBASE_PUBLIC_URL is answered, after a restart on the same data
 * folder, with every src under the new public URL (or under BRANDBASE_ASSET_BASE_URL when set), and every file
 * is served by the running server with its content type. Nothing is re-crawled on the way.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Brand, Format } from '../../src/domain/brand.js';
import { migrateToLatest } from '../../src/db/migrations.js';
import { PRODUCT_MIGRATIONS } from '../../src/main/product-stores.js';
import { openSqliteStore } from '../store/open-store.js';
import { FIXTURE_HOSTS, startFixtureSites, type FixtureSites } from '../helpers/fixture-sites.js';
import { runJson, startServer, type ServerProcess } from '../helpers/brandbase-process.js';

const TIMEOUT_MS = 120_000;
const PUBLIC_A = 'http://brands-a.test:8787';
const PUBLIC_B = 'https://brands-b.example';
const CDN = 'https://cdn.example.test/brand-assets/';
const CONTENT_TYPES: Record<Format['format'], string> = { svg: 'image/svg+xml', png: 'image/png', webp: 'image/webp', jpeg: 'image/jpeg' };
const KEY = /^[0-9a-f]{64}\.(svg|png|webp|jpeg)$/;

let sites: FixtureSites;
let dataDir: string;
let env: Record<string, string>;
let key: string;
const servers: ServerProcess[] = [];

beforeAll(async () => {
  sites = await startFixtureSites();
  dataDir = await mkdtemp(path.join(tmpdir(), 'brandbase-asset-urls-'));
  // The palette's background render (ADR 0023) fetches the home page again after a crawl that did not render, at a
  // time of the worker's choosing: off here, where the site's request count proves a brand was not crawled again.
  env = { BRANDBASE_DATA_DIR: dataDir, BRANDBASE_CRAWL_HOSTS: JSON.stringify(sites.hostMap), BRANDBASE_KEY_CACHE_MS: '0', BRANDBASE_LOG_LEVEL: 'warn', BRANDBASE_PALETTE_RENDER: 'off' };
  const org = await runJson(['orgs', 'create', '--name', 'Assets', '--plan', 'paid'], env);
  key = String((await runJson(['keys', 'create', '--org', String(org.id)], env)).key);
}, TIMEOUT_MS);

afterAll(async () => {
  for (const server of servers) if (server.child.exitCode === null) server.child.kill('SIGKILL');
  await sites?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function serve(extra: Record<string, string>): Promise<ServerProcess> {
  const server = await startServer({ ...env, ...extra });
  servers.push(server);
  return server;
}

async function stop(server: ServerProcess): Promise<void> {
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
}

const formatsOf = (brand: Brand): Format[] => [...brand.logos, ...brand.images].flatMap((entry) => entry.formats);

async function lookUp(server: ServerProcess): Promise<Brand> {
  const res = await fetch(`${server.baseUrl}/v2/brands/${FIXTURE_HOSTS.lumen}`, { headers: { authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as Brand;
}

async function batchLookUp(server: ServerProcess): Promise<Brand> {
  const res = await fetch(`${server.baseUrl}/v2/brands/batch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ identifiers: [FIXTURE_HOSTS.lumen] }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { results: { status: number; brand: Brand }[] };
  expect(body.results[0]?.status).toBe(200);
  return body.results[0]!.brand;
}

/** Every src starts with `base`, and what follows it is a key the running server answers with its content type. */
async function expectServedUnder(server: ServerProcess, brand: Brand, base: string): Promise<string[]> {
  const formats = formatsOf(brand);
  expect(formats.length).toBeGreaterThan(0);
  const keys: string[] = [];
  for (const format of formats) {
    expect(format.src.startsWith(base)).toBe(true);
    const assetKey = format.src.slice(base.length);
    expect(assetKey).toMatch(KEY);
    const res = await fetch(`${server.baseUrl}/assets/${assetKey}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(CONTENT_TYPES[format.format]);
    expect(Number(res.headers.get('content-length') ?? (await res.arrayBuffer()).byteLength)).toBe(format.size);
    keys.push(assetKey);
  }
  return keys;
}

describe('asset URLs follow the configuration, not the record', () => {
  /**
   * The live crawl under public URL A, done once by whichever test needs it first (the later ones restart on its data
   * folder): each test states what it needs instead of relying on the order the tests run in.
   */
  let crawledUnderA: Promise<{ brand: Brand; keysA: string[]; crawlRequests: number }> | undefined;
  const crawlUnderA = () =>
    (crawledUnderA ??= (async () => {
      const server = await serve({ BRANDBASE_PUBLIC_URL: PUBLIC_A });
      try {
        const brand = await lookUp(server);
        const keysA = await expectServedUnder(server, brand, `${PUBLIC_A}/assets/`);
        return { brand, keysA, crawlRequests: sites.sites.lumen.requests.length };
      } finally {
        await stop(server);
      }
    })());

  it('a brand crawled live under public URL A answers every src under A', async () => {
    const { brand, keysA } = await crawlUnderA();
    // Logos (with their renditions) and pictures: every kind of src the crawler produces.
    expect(brand.logos.length).toBeGreaterThan(0);
    expect(brand.images.length).toBeGreaterThan(0);
    expect(new Set(formatsOf(brand).map((f) => f.format))).toEqual(new Set(['svg', 'png', 'webp', 'jpeg']));
    expect(keysA).toHaveLength(formatsOf(brand).length);
  }, TIMEOUT_MS);

  it('restarted with public URL B on the same data folder: every src of every answer is under B', async () => {
    const { keysA, crawlRequests } = await crawlUnderA();
    expect(keysA.length).toBeGreaterThan(0);
    const server = await serve({ BRANDBASE_PUBLIC_URL: PUBLIC_B });
    const single = await lookUp(server);
    const batched = await batchLookUp(server);
    expect(await expectServedUnder(server, single, `${PUBLIC_B}/assets/`)).toEqual(keysA);
    expect(await expectServedUnder(server, batched, `${PUBLIC_B}/assets/`)).toEqual(keysA);
    expect(JSON.stringify([single, batched])).not.toContain(PUBLIC_A);
    // Answered from the store: the site was not crawled again.
    expect(sites.sites.lumen.requests.length).toBe(crawlRequests);
    await stop(server);
  }, TIMEOUT_MS);

  it('BRANDBASE_ASSET_BASE_URL (a CDN) overrides the public URL for every src', async () => {
    const { keysA, crawlRequests } = await crawlUnderA();
    const server = await serve({ BRANDBASE_PUBLIC_URL: PUBLIC_B, BRANDBASE_ASSET_BASE_URL: CDN });
    const single = await lookUp(server);
    const batched = await batchLookUp(server);
    expect(await expectServedUnder(server, single, CDN)).toEqual(keysA);
    expect(await expectServedUnder(server, batched, CDN)).toEqual(keysA);
    expect(JSON.stringify([single, batched])).not.toContain(PUBLIC_B);
    expect(sites.sites.lumen.requests.length).toBe(crawlRequests);
    await stop(server);
  }, TIMEOUT_MS);

  it('a data folder from before 0004_asset_keys (absolute URLs in records) is converted on start', async () => {
    const { keysA, crawlRequests } = await crawlUnderA();
    // A data folder as the previous version left it: migrated up to 0003, the record with URLs under A, the files.
    const oldDir = await mkdtemp(path.join(tmpdir(), 'brandbase-asset-urls-old-'));
    try {
      await cp(path.join(dataDir, 'assets'), path.join(oldDir, 'assets'), { recursive: true });
      const current = new BetterSqlite3(path.join(dataDir, 'brandbase.sqlite'), { readonly: true });
      const row = current.prepare('select * from brands where domain = ?').get(FIXTURE_HOSTS.lumen) as Record<string, unknown> & { id: string; record: string };
      current.close();
      const oldRecord = row.record.replace(/"src":"([0-9a-f]{64}\.(?:svg|png|webp|jpeg))"/g, `"src":"${PUBLIC_A}/assets/$1"`);
      expect(oldRecord).not.toBe(row.record);
      const { close, database, db } = await openSqliteStore({ file: path.join(oldDir, 'brandbase.sqlite') });
      try {
        const before0004 = PRODUCT_MIGRATIONS.map((product) => Object.fromEntries(Object.entries(product).filter(([name]) => name < '0004_asset_keys')));
        await migrateToLatest(database, before0004);
        await db.insertInto('brands').values({ id: row.id, domain: FIXTURE_HOSTS.lumen, status: 'indexed', record: oldRecord, crawled_at: Number(row.crawled_at), created_at: Number(row.created_at), updated_at: Number(row.updated_at) }).execute();
        await db.insertInto('brand_identifiers').values({ kind: 'domain', value: FIXTURE_HOSTS.lumen, brand_id: row.id }).execute();
      } finally {
        await close();
      }

      const oldEnv = { ...env, BRANDBASE_DATA_DIR: oldDir, BRANDBASE_PUBLIC_URL: PUBLIC_B };
      const server = await serve(oldEnv);
      const org = await runJson(['orgs', 'create', '--name', 'Old folder', '--plan', 'paid'], oldEnv);
      const oldKey = String((await runJson(['keys', 'create', '--org', String(org.id)], oldEnv)).key);
      const res = await fetch(`${server.baseUrl}/v2/brands/${FIXTURE_HOSTS.lumen}`, { headers: { authorization: `Bearer ${oldKey}` } });
      expect(res.status).toBe(200);
      expect(await expectServedUnder(server, (await res.json()) as Brand, `${PUBLIC_B}/assets/`)).toEqual(keysA);
      expect(sites.sites.lumen.requests.length).toBe(crawlRequests);
      await stop(server);
    } finally {
      await rm(oldDir, { recursive: true, force: true });
    }
  }, TIMEOUT_MS);
});
