/**
 * Tickers, ISINs and crypto symbols in the brand cache (ADR 0022): a cached ticker is a Map lookup, and an
 * invalidated brand takes its identifier keys with it, also when another process wrote it (the cache sync, ADR
 * 0017, on a real SQLite file).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AssetUrls } from '../../src/assets/asset-urls.js';
import { BrandCache, identifierCacheKey } from '../../src/brands/brand-cache.js';
import { BrandCacheSync } from '../../src/brands/brand-cache-sync.js';
import { identifierKeys } from '../../src/brands/financial-resolver.js';
import { silentLogger } from '../../src/platform/logger.js';
import { openSqliteStore } from '../store/open-store.js';
import type { StoredBrand } from '../../src/brands/brand-store.js';
import { until } from '../helpers/until.js';
import { sampleBrand } from '../store/sample-brand.js';

function stored(domain: string): StoredBrand {
  const now = new Date();
  return { brand: sampleBrand(domain), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now };
}

const newCache = () => new BrandCache(60_000, new AssetUrls('http://brandbase.test/assets/'));
const AAPL = identifierCacheKey({ kind: 'ticker', value: 'AAPL' });

describe('identifier keys in the brand cache', () => {
  it('answers a brand by identifier key and drops the keys with the brand', () => {
    const cache = newCache();
    const apple = cache.put(stored('apple.com'), ['apple.com'], undefined, [AAPL, 'isin:US0378331005']);
    expect(cache.getByKey(AAPL)).toBe(apple);
    expect(cache.getByKey('isin:US0378331005')).toBe(apple);
    cache.invalidate([apple.stored.brand.id], []);
    expect(cache.getByKey(AAPL)).toBeNull();
    expect(cache.getByKey('isin:US0378331005')).toBeNull();
  });

  it('moves a key to the brand it was attached to last, and the old brand no longer drops it', () => {
    const cache = newCache();
    const first = cache.put(stored('one.com'), [], undefined, [AAPL]);
    const second = cache.put(stored('two.com'), [], undefined, [AAPL]);
    expect(cache.getByKey(AAPL)).toBe(second);
    cache.invalidate([first.stored.brand.id], []);
    expect(cache.getByKey(AAPL)).toBe(second);
  });

  it('keys every spelling of a listing alike: suffix, prefix, exchange parameter, share class separators', () => {
    const keys = (symbol: string, exchange?: string) => identifierKeys({ kind: 'ticker', symbol, ...(exchange ? { exchange } : {}) }).map((r) => r.value);
    expect(keys('7203.T')).toEqual(['XTKS:7203', '7203.T']);
    expect(keys('7203', 'XTKS')).toEqual(['XTKS:7203']);
    expect(keys('7203', 'TSE')).toEqual(['XTKS:7203']);
    expect(keys('SHEL', 'L')).toEqual(['XLON:SHEL']);
    expect(keys('SAP.DE', 'XETR')).toEqual(['XETR:SAP']);
    expect(keys('0005.HK')).toEqual(['XHKG:5', '0005.HK']);
    expect(keys('5', 'XHKG')).toEqual(['XHKG:5']);
    expect(keys('BRK-B')).toEqual(['BRK.B']);
    expect(keys('BRK/B')).toEqual(['BRK.B']);
  });

  it("drops an invalidated brand's ticker keys when another process writes the brand", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'brandbase-keys-'));
    const { stores, database, migrate } = await openSqliteStore({ file: path.join(dir, 'brandbase.sqlite') });
    await migrate();
    const cache = newCache();
    const sync = new BrandCacheSync(stores.brands, cache, silentLogger(), { intervalMs: 20 });
    try {
      const apple = stored('apple.com');
      await stores.brands.saveBrand(apple, [{ kind: 'domain', value: 'apple.com' }, { kind: 'ticker', value: 'AAPL' }]);
      await sync.start();
      cache.put(apple, ['apple.com'], undefined, [AAPL]);
      expect(cache.getByKey(AAPL)).not.toBeNull();
      // Another process saves the brand again (a re-crawl); this one hears of it through the brand write log only.
      await stores.brands.saveBrand({ ...apple, updatedAt: new Date() }, []);
      await until(() => cache.getByKey(AAPL) === null, 'the ticker key to be dropped by the cache sync');
    } finally {
      await sync.stop();
      await database.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
