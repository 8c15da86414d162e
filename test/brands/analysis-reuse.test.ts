/**
 * The content-hash analysis cache in use (docs/refresh.md "The analysis cache", ADR 0030): the indexer loads what
 * a domain's last crawl used, the crawl reuses the analysis of every file whose bytes did not change, and the
 * indexer keeps the new entries and every file's mark signature for the save's change detection. Real fixture sites
 * on loopback through the safe fetcher's host map, the real crawl, a real asset folder and a real store: SQLite
 * always, PostgreSQL when one answers.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { IsolatedCrawler } from '../../src/crawl/isolation/isolated-crawler.js';
import { crawlWorkerEntry } from '../../src/main/crawler.js';
import { BrandIndexer, type IndexOutcome } from '../../src/brands/brand-indexer.js';
import { crawlBrand } from '../../src/crawl/crawl-brand.js';
import { contentKeyOf } from '../../src/domain/brand-announcement.js';
import { silentLogger } from '../../src/platform/logger.js';
import { SafeFetcher } from '../../src/platform/safe-fetcher.js';
import type { BrandStore, RefreshStore } from '../../src/brands/brand-store.js';
import { FIXTURE_HOSTS, startFixtureSites, type FixtureSites } from '../helpers/fixture-sites.js';
import { useProcessTimeouts } from '../helpers/process-timeouts.js';
import { tempAssets, type TempAssets } from '../helpers/temp-assets.js';
import { PG_URL, tempPostgres, tempSqlite, type TempDatabase } from '../store/temp-database.js';
import { needsPostgres } from '../helpers/optional.js';
import { UNBOUNDED_BUDGET_MS, UNBOUNDED_BUDGETS_ENV } from '../helpers/unbounded-budget.js';

// One case starts a crawl worker process, which loads the crawler through tsx: timeouts sized for a busy machine.
useProcessTimeouts();

let sites: FixtureSites;
beforeAll(async () => {
  sites = await startFixtureSites();
});
afterAll(async () => sites?.close());

function indexerOver(store: BrandStore & RefreshStore, assets: TempAssets): BrandIndexer {
  const fetcher = new SafeFetcher({ hostMap: sites.hostMap });
  return new BrandIndexer(store, (domain, _owner, known) => crawlBrand(domain, { fetcher, assets, knownAnalyses: known ?? [] }, { timeoutMs: UNBOUNDED_BUDGET_MS }), silentLogger());
}

function ok(outcome: IndexOutcome): Extract<IndexOutcome, { ok: true }> {
  if (!outcome.ok) throw new Error(`crawl failed: ${outcome.reason} ${outcome.message}`);
  return outcome;
}

function reuseSuite(name: string, open: () => Promise<TempDatabase>): void {
  describe(`analysis cache: ${name}`, () => {
    let db: TempDatabase;
    let assets: TempAssets;
    /** The first crawl of northwind.test, made here so every test finds it whatever order they run in. */
    let first: Extract<IndexOutcome, { ok: true }>;
    /** The analyses that first crawl stored. */
    let cached: Awaited<ReturnType<RefreshStore['loadAnalyses']>>;
    beforeAll(async () => {
      db = await open();
      await db.migrate();
      assets = tempAssets();
      first = ok(await indexerOver(db.stores.brands, assets).index(FIXTURE_HOSTS.northwind));
      cached = await db.stores.brands.loadAnalyses(FIXTURE_HOSTS.northwind, new Date());
    });
    afterAll(async () => db?.cleanup());

    it('a re-crawl of an unchanged site reuses every analysis, and saves the same record', async () => {
      const indexer = indexerOver(db.stores.brands, assets);
      expect(first.analysis?.hits).toBe(0);
      expect(first.analysis?.misses).toBeGreaterThanOrEqual(3);
      // One entry per file analysed, plus the stored bytes of converted files (the favicon.ico's PNG).
      expect(cached.filter((e) => !e.key.startsWith('stored:')).length).toBe(first.analysis?.misses);
      expect(cached.some((e) => e.key.startsWith('stored:'))).toBe(true);

      const second = ok(await indexer.index(FIXTURE_HOSTS.northwind, { retry: true }));
      // Every file the first crawl analysed is reused; nothing is decoded or classified again.
      expect(second.analysis).toEqual({ hits: first.analysis?.misses, misses: 0 });
      const keys = (outcome: typeof first) => [...outcome.stored.brand.logos, ...outcome.stored.brand.images].map((l) => l.formats.map((f) => [f.src, f.width, f.height, f.background]));
      expect(keys(second)).toEqual(keys(first));
      expect(second.stored.brand.colors).toEqual(first.stored.brand.colors);
      expect(second.stored.brand.images.map((i) => [i.type, i.tags])).toEqual(first.stored.brand.images.map((i) => [i.type, i.tags]));
      // The second crawl's entries replace the first's: the same files, so the same rows.
      expect((await db.stores.brands.loadAnalyses(FIXTURE_HOSTS.northwind, new Date())).map((e) => e.key).sort()).toEqual(cached.map((e) => e.key).sort());
    });

    it('keeps the mark signature of every logo file the crawl met, before the save reads them', async () => {
      const stored = await db.stores.brands.findBrandByIdentifier({ kind: 'domain', value: FIXTURE_HOSTS.northwind });
      const originals = (stored?.brand.logos ?? []).map((logo) => contentKeyOf(logo.formats[0]?.src ?? ''));
      expect(originals.length).toBeGreaterThan(0);
      const marks = await db.stores.brands.markSignatures(originals);
      expect([...marks.keys()].sort()).toEqual([...new Set(originals)].sort());
      for (const mark of marks.values()) expect(mark.dhash).toMatch(/^[0-9a-f]{16}$/);
    });

    it("another site's analyses are of other bytes: nothing is reused", async () => {
      const indexer = indexerOver(db.stores.brands, assets);
      const lumen = ok(await indexer.index(FIXTURE_HOSTS.lumen));
      expect(lumen.analysis?.hits).toBe(0);
      const known = await db.stores.brands.loadAnalyses(FIXTURE_HOSTS.northwind, new Date());
      expect(known.length).toBeGreaterThan(0);
      const fetcher = new SafeFetcher({ hostMap: sites.hostMap });
      const outcome = await crawlBrand(FIXTURE_HOSTS.lumen, { fetcher, assets, knownAnalyses: known }, { timeoutMs: UNBOUNDED_BUDGET_MS });
      expect(outcome.ok && outcome.analysis?.counts.hits).toBe(0);
    });
  });
}

reuseSuite('SQLite (temp file)', tempSqlite);
needsPostgres.describe('PostgreSQL', () => {
  reuseSuite('PostgreSQL (fresh schema)', () => tempPostgres(PG_URL ?? ''));
});

describe('analysis memo without a store', () => {
  it('a crawl given no known analyses analyses every file again (the cache is what saves the work)', async () => {
    const assets = tempAssets();
    const fetcher = new SafeFetcher({ hostMap: sites.hostMap });
    const crawl = () => crawlBrand(FIXTURE_HOSTS.northwind, { fetcher, assets }, { timeoutMs: UNBOUNDED_BUDGET_MS });
    const [a, b] = [await crawl(), await crawl()];
    expect(a.ok && b.ok).toBe(true);
    if (!a.ok || !b.ok) return;
    expect(b.analysis?.counts).toEqual({ hits: 0, misses: a.analysis?.counts.misses });
    // Entries whose analysis version differs are never read: a new analysis replaces them.
    const stale = (a.analysis?.entries ?? []).map((e) => ({ ...e, key: e.key.replace(/:v\d+:/, ':v0:') }));
    const c = await crawlBrand(FIXTURE_HOSTS.northwind, { fetcher, assets, knownAnalyses: stale }, { timeoutMs: UNBOUNDED_BUDGET_MS });
    expect(c.ok && c.analysis?.counts.hits).toBe(0);
  });
});

describe('analysis cache across a crawl worker process (the default isolation, ADR 0014)', () => {
  it('the known analyses go to the worker with the crawl, and its reuse comes back', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'brandbase-reuse-pool-'));
    const config = loadConfig({ BRANDBASE_DATA_DIR: dir, BRANDBASE_CRAWL_HOSTS: JSON.stringify(sites.hostMap), ...UNBOUNDED_BUDGETS_ENV });
    const crawler = new IsolatedCrawler({ entry: crawlWorkerEntry(), config, assetsDir: path.join(dir, 'assets'), logger: silentLogger(), mode: 'process', workers: 1, memoryMb: 1024, heapMb: 1024, hardLimitMs: UNBOUNDED_BUDGET_MS });
    try {
      const first = await crawler.crawl(FIXTURE_HOSTS.northwind);
      if (!first.ok) throw new Error(first.reason);
      expect(first.analysis?.counts.misses).toBeGreaterThan(0);
      const second = await crawler.crawl(FIXTURE_HOSTS.northwind, null, first.analysis?.entries ?? []);
      expect(second.ok && second.analysis?.counts).toEqual({ hits: first.analysis?.counts.misses, misses: 0 });
    } finally {
      await crawler.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
