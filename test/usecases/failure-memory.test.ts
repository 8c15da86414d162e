/**
 * The crawl failure memory as GET, HEAD and batch see it, with an injected clock: within the window all three
 * answer not found with the remembered reason and nothing is crawled or queued; after it, HEAD and batch queue a
 * crawl again and GET crawls again. Real SQLite store and jobs table, the real crawler and SafeFetcher against a
 * loopback port nothing listens on (the site is down).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AssetUrls } from '../../src/assets/asset-urls.js';
import { BatchLookup } from '../../src/brands/batch-lookup.js';
import { BrandCache } from '../../src/brands/brand-cache.js';
import { BrandIndexer } from '../../src/brands/brand-indexer.js';
import { BrandLookup } from '../../src/brands/brand-lookup.js';
import { CrawlScheduler } from '../../src/brands/crawl-scheduler.js';
import { crawlBrand } from '../../src/crawl/crawl-brand.js';
import { parseIdentifier, type Readings } from '../../src/domain/identifiers.js';
import { SqlJobQueue } from '../../src/jobs/sql/sql-job-queue.js';
import { silentLogger } from '../../src/platform/logger.js';
import { SafeFetcher } from '../../src/platform/safe-fetcher.js';
import { batchBrands } from '../../src/usecases/batch-brands.js';
import { ChargeRule } from '../../src/usecases/charge-rule.js';
import { FREE_PAYER } from '../../src/usecases/free-payer.js';
import { lookupBrand } from '../../src/usecases/lookup-brand.js';
import { prefetchBrand } from '../../src/usecases/prefetch-brand.js';
import type { UseCaseDeps } from '../../src/usecases/use-case-deps.js';
import { freePort } from '../helpers/brandbase-process.js';
import { tempAssets } from '../helpers/temp-assets.js';
import { sampleBrand } from '../store/sample-brand.js';
import { tempSqlite, type TempDatabase } from '../store/temp-database.js';

const DOWN = 'down-brand.test';
const MEMORY_MS = 60_000;

let db: TempDatabase;
let deps: UseCaseDeps;
/** Reads of the failure memory, counted on the real store (every call still reaches it). */
let memoryReads: number;
let queue: SqlJobQueue;
let clock: number;
let crawls: number;

function readings(identifier: string): Readings {
  const parsed = parseIdentifier(identifier);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.readings;
}

beforeEach(async () => {
  db = await tempSqlite();
  await db.migrate();
  clock = new Date('2030-01-01T00:00:00Z').getTime();
  crawls = 0;
  const fetcher = new SafeFetcher({ hostMap: { [DOWN]: `127.0.0.1:${await freePort()}` } });
  const assets = tempAssets();
  const crawl = (domain: string) => {
    crawls++;
    return crawlBrand(domain, { fetcher, assets }, { timeoutMs: 10_000 });
  };
  memoryReads = 0;
  const real = db.stores.brands;
  // Every call reaches the real store; reads of the failure memory are counted on the way.
  const store = new Proxy(real, {
    get(target, prop) {
      if (prop === 'getCrawlFailure') return (domain: string) => (memoryReads++, target.getCrawlFailure(domain));
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  const indexer = new BrandIndexer(store, crawl, silentLogger(), { now: () => new Date(clock), failureMemory: { baseMs: MEMORY_MS, maxMs: 3_600_000 } });
  const lookup = new BrandLookup(store, new BrandCache(60_000, new AssetUrls('http://brandbase.test/assets/')), indexer);
  queue = new SqlJobQueue(db.database);
  const scheduler = new CrawlScheduler(queue, 1000);
  deps = { lookup, batch: new BatchLookup(lookup, scheduler), scheduler, rule: new ChargeRule(null), batchItemTimeoutMs: 10_000, batchResponseMaxBytes: 1024 * 1024 };
});
afterEach(async () => db.cleanup());

const get = async () => (await lookupBrand(deps, FREE_PAYER, { readings: readings(DOWN), cachedOnly: false, allowNsfw: undefined, palette: false })).value;
const head = () => prefetchBrand(deps, FREE_PAYER, readings(DOWN));
const batchItem = async () => (JSON.parse((await batchBrands(deps, FREE_PAYER, { items: [DOWN], cachedOnly: false, allowNsfw: undefined, palette: false })).value.json) as { results: unknown[] }).results[0];

describe('the failure memory for GET, HEAD and batch', () => {
  it('within the window: all three answer not found with the reason, nothing is crawled or queued', async () => {
    expect(await get()).toMatchObject({ status: 'not_found', reason: 'unreachable' });
    expect(crawls).toBe(1);
    clock += MEMORY_MS - 1;
    expect(await get()).toMatchObject({ status: 'not_found', reason: 'unreachable' });
    expect(await head()).toBe('not_found');
    expect(await batchItem()).toEqual({ identifier: DOWN, status: 404, message: 'No brand found for this identifier.', reason: 'unreachable' });
    expect(crawls).toBe(1);
    expect(await queue.depth()).toBe(0);
  });

  it('after the window: HEAD and batch queue a crawl again, and GET crawls again', async () => {
    await get();
    clock += MEMORY_MS + 1;
    expect(await head()).toBe('queued');
    expect(await batchItem()).toEqual({ identifier: DOWN, status: 202, code: 'crawl_queued' });
    expect(await queue.depth()).toBe(1); // one job for the domain (deduplicated)
    expect(await get()).toMatchObject({ status: 'not_found', reason: 'unreachable' });
    expect(crawls).toBe(2);
  });

  it('a held brand is answered by GET, HEAD and batch without reading the failure memory', async () => {
    const now = new Date(clock);
    await db.stores.brands.saveBrand({ brand: sampleBrand('held.test'), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: 'held.test' }]);
    await db.stores.brands.recordCrawlFailure({ domain: 'held.test', reason: 'timeout', message: 'an old failure', failedAt: now });
    const held = readings('held.test');
    expect((await lookupBrand(deps, FREE_PAYER, { readings: held, cachedOnly: false, allowNsfw: undefined, palette: false })).value.status).toBe('found');
    expect(await prefetchBrand(deps, FREE_PAYER, held)).toBe('held');
    expect((await batchBrands(deps, FREE_PAYER, { items: ['held.test'], cachedOnly: false, allowNsfw: undefined, palette: false })).value.json).toContain('"status":200');
    expect(memoryReads).toBe(0);
    await get(); // a brand not held: one read
    expect(memoryReads).toBe(1);
  });
});
