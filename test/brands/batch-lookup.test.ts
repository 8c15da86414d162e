/**
 * BatchLookup's per-item budgets on a real SQLite store. A slow or failing database is simulated by wrapping the
 * real store's read (the port is the boundary); everything else is the real code.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AssetUrls } from '../../src/assets/asset-urls.js';
import { BrandCache } from '../../src/brands/brand-cache.js';
import { BatchLookup } from '../../src/brands/batch-lookup.js';
import { BrandIndexer } from '../../src/brands/brand-indexer.js';
import { BrandLookup } from '../../src/brands/brand-lookup.js';
import { CrawlScheduler } from '../../src/brands/crawl-scheduler.js';
import { SqlJobQueue } from '../../src/jobs/sql/sql-job-queue.js';
import { silentLogger } from '../../src/platform/logger.js';
import type { BrandStore, IdentifierRef } from '../../src/brands/brand-store.js';
import { UNBOUNDED_BUDGET_MS } from '../helpers/unbounded-budget.js';
import { sampleBrand } from '../store/sample-brand.js';
import { tempSqlite, type TempDatabase } from '../store/temp-database.js';

let db: TempDatabase;

beforeEach(async () => {
  db = await tempSqlite();
  await db.migrate();
  const now = new Date();
  await db.stores.brands.saveBrand({ brand: sampleBrand('acme.com'), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: 'acme.com' }]);
});
afterEach(async () => db.cleanup());

/** The real store, except that reads of `slowDomain` wait until `slow` settles and reads of `brokenDomain` fail. */
function degradedStore(store: BrandStore, slowDomain: string, slow: Promise<void>, brokenDomain: string): BrandStore {
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop !== 'findBrandByIdentifier') return Reflect.get(target, prop, receiver) as unknown;
      return async (ref: IdentifierRef) => {
        if (ref.value === slowDomain) await slow;
        if (ref.value === brokenDomain) throw new Error('connection reset');
        return target.findBrandByIdentifier(ref);
      };
    },
  });
}

function batchLookup(store: BrandStore): BatchLookup {
  const cache = new BrandCache(60_000, new AssetUrls('http://brandbase.test/assets/'));
  const indexer = new BrandIndexer(store, async () => ({ ok: false, reason: 'unreachable', message: 'not crawled in this test' }), silentLogger());
  const lookup = new BrandLookup(store, cache, indexer);
  return new BatchLookup(lookup, new CrawlScheduler(new SqlJobQueue(db.database), 100));
}

describe('BatchLookup budgets', () => {
  it('an item not answered within its time budget is 504 timeout; the others are answered', async () => {
    // The slow read does not end until the batch has answered: the batch cannot have waited for it. The budget's
    // timers are fake: the clock moves past the budget only once the other two items have answered (their timers
    // cleared), so however slow the machine, they are answered in time and the slow one is not.
    let unblock!: () => void;
    const slow = new Promise<void>((resolve) => (unblock = resolve));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const lookup = batchLookup(degradedStore(db.stores.brands, 'slow.test', slow, 'none'));
      const answered = lookup.resolve(['acme.com', 'slow.test', 'AAPL'], { cachedOnly: true, allowNsfw: undefined, itemTimeoutMs: 2_000 });
      expect(vi.getTimerCount()).toBe(3);
      // Yields to the event loop (real setImmediate, not a clock) until only the slow item's budget is left.
      while (vi.getTimerCount() > 1) await new Promise((resolve) => setImmediate(resolve));
      await vi.advanceTimersByTimeAsync(1_999);
      expect(vi.getTimerCount()).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      const outcomes = await answered;
      expect(outcomes.map((o) => o.status)).toEqual([200, 504, 204]);
      expect(outcomes[1]).toEqual({ status: 504, code: 'timeout' });
    } finally {
      vi.useRealTimers();
      unblock();
    }
  });

  it('an item whose lookup fails is 500; the others are answered', async () => {
    const lookup = batchLookup(degradedStore(db.stores.brands, 'none', Promise.resolve(), 'broken.test'));
    const outcomes = await lookup.resolve(['broken.test', 'acme.com'], { cachedOnly: false, allowNsfw: undefined, itemTimeoutMs: UNBOUNDED_BUDGET_MS });
    expect(outcomes.map((o) => o.status)).toEqual([500, 200]);
  });

  it('a full queue answers 500 for the items it could not queue', async () => {
    const cache = new BrandCache(60_000, new AssetUrls('http://brandbase.test/assets/'));
    const indexer = new BrandIndexer(db.stores.brands, async () => ({ ok: false, reason: 'unreachable', message: '' }), silentLogger());
    const lookup = new BatchLookup(new BrandLookup(db.stores.brands, cache, indexer), new CrawlScheduler(new SqlJobQueue(db.database), 1));
    const outcomes = await lookup.resolve(['one.test', 'two.test'], { cachedOnly: false, allowNsfw: undefined, itemTimeoutMs: UNBOUNDED_BUDGET_MS });
    expect(outcomes.map((o) => o.status).sort()).toEqual([202, 500]);
  });
});
