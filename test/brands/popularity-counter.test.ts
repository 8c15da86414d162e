/**
 * Brand popularity (src/brands/popularity-counter.ts, ADR 0030): lookups are counted in memory on the lookup path
 * (a cached lookup touches no database) and written to `brand_popularity` in one batch per flush, off the request
 * path; a batch the store refuses is kept and written with the next one. Real SQLite store; the only wrapper counts
 * the store calls a lookup makes, or takes the store down for one flush.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AssetUrls } from '../../src/assets/asset-urls.js';
import { BrandCache } from '../../src/brands/brand-cache.js';
import { BrandIndexer } from '../../src/brands/brand-indexer.js';
import { BrandLookup } from '../../src/brands/brand-lookup.js';
import { PopularityCounter } from '../../src/brands/popularity-counter.js';
import { parseIdentifier, type Readings } from '../../src/domain/identifiers.js';
import { silentLogger } from '../../src/platform/logger.js';
import type { BrandLookupCount, BrandStore, RefreshStore } from '../../src/brands/brand-store.js';

/** The brand store the lookup path uses: records, identifiers and popularity. */
type LookupStore = BrandStore & RefreshStore;
import { until } from '../helpers/until.js';
import { sampleBrand } from '../store/sample-brand.js';
import { tempSqlite, type TempDatabase } from '../store/temp-database.js';

let db: TempDatabase;
beforeEach(async () => {
  db = await tempSqlite();
  await db.migrate();
});
afterEach(async () => db.cleanup());

const T = new Date('2026-11-28T10:00:00Z');

async function hold(domain: string): Promise<string> {
  const brand = sampleBrand(domain);
  await db.stores.brands.saveBrand({ brand, status: 'indexed', crawledAt: T, createdAt: T, updatedAt: T }, [{ kind: 'domain', value: domain }]);
  return brand.id;
}

function readings(input: string): Readings {
  const parsed = parseIdentifier(input);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.readings;
}

/** The real store, with every method call counted (the lookup path's database work). */
function counting(store: LookupStore): { store: LookupStore; calls: string[] } {
  const calls: string[] = [];
  const proxy = new Proxy(store, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(prop));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: proxy, calls };
}

function lookupWith(store: LookupStore, counter: PopularityCounter): BrandLookup {
  const cache = new BrandCache(60_000, new AssetUrls('http://brandbase.test/assets/'));
  const indexer = new BrandIndexer(store, async () => ({ ok: false, reason: 'unreachable', message: 'not crawled in this test' }), silentLogger());
  return new BrandLookup(store, cache, indexer, null, counter);
}

describe('PopularityCounter on the lookup path', () => {
  it('counts answered lookups in memory: a cached lookup makes no store call; a flush writes one batch', async () => {
    const [acme, globex] = [await hold('acme.test'), await hold('globex.test')];
    const { store, calls } = counting(db.stores.brands);
    const counter = new PopularityCounter(store, { flushMs: 3_600_000, now: () => T });
    const lookup = lookupWith(store, counter);
    const options = { cachedOnly: false, allowNsfw: undefined };
    expect((await lookup.lookup(readings('acme.test'), options)).status).toBe('found');
    expect((await lookup.lookup(readings('globex.test'), options)).status).toBe('found');
    calls.length = 0;
    for (let i = 0; i < 50; i++) expect((await lookup.lookup(readings('acme.test'), options)).status).toBe('found');
    for (let i = 0; i < 9; i++) await lookup.lookup(readings('https://www.globex.test/about'), options);
    expect(calls).toEqual([]);
    // Not found: nothing to count.
    expect((await lookup.lookup(readings('unknown.test'), { ...options, cachedOnly: true })).status).toBe('not_indexed');
    expect(counter.pendingBrands).toBe(2);
    calls.length = 0;
    await counter.flush();
    expect(calls).toEqual(['addBrandLookups']);
    expect(await db.stores.brands.brandLookups(acme)).toBe(51);
    expect(await db.stores.brands.brandLookups(globex)).toBe(10);
    expect(counter.pendingBrands).toBe(0);
    await counter.close();
  });

  it('flushes by itself after the interval, off the request path', async () => {
    const acme = await hold('acme.test');
    const counter = new PopularityCounter(db.stores.brands, { flushMs: 20 });
    const lookup = lookupWith(db.stores.brands, counter);
    for (let i = 0; i < 3; i++) await lookup.lookup(readings('acme.test'), { cachedOnly: false, allowNsfw: undefined });
    await until(async () => (await db.stores.brands.brandLookups(acme)) === 3, 'the timed flush');
    await counter.close();
  });

  it('keeps a batch the store refused and writes it with the next one; close flushes what is left', async () => {
    const acme = await hold('acme.test');
    let down = true;
    const flaky: Pick<RefreshStore, 'addBrandLookups'> = {
      addBrandLookups: (counts: readonly BrandLookupCount[]) => (down ? Promise.reject(new Error('database unavailable')) : db.stores.brands.addBrandLookups(counts)),
    };
    const counter = new PopularityCounter(flaky, { flushMs: 3_600_000, now: () => T });
    counter.count(acme);
    counter.count(acme);
    await expect(counter.flush()).rejects.toThrow('database unavailable');
    counter.count(acme);
    down = false;
    await counter.close();
    expect(await db.stores.brands.brandLookups(acme)).toBe(3);
  });
});
