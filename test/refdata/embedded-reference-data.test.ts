/**
 * A fresh store gets the embedded reference set and the brand knowledge set when it is opened (migrate, first
 * start), and answers the well-known cases; a knowledge-set brand is found by name before anything was crawled;
 * opening it again does not load it twice. Real SQLite file and PostgreSQL schema through openBackends.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { openBackends, type Backends } from '../../src/main/open-backends.js';
import { createLogger } from '../../src/platform/logger.js';
import { BrandSearch } from '../../src/search/brand-search.js';
import type { ReferenceDataTables } from '../../src/refdata/store/refdata-tables.js';
import { describeEachBackend, openBackendDatabase, queryDatabase } from '../helpers/backends.js';
import type { SharedDatabase } from '../helpers/shared-database.js';

const FORMATS = ['brandbase-brands', 'brandbase-crypto', 'brandbase-etfs', 'brandbase-listings'];

describeEachBackend('embedded reference data', (backend) => {
  let database: SharedDatabase;
  let backends: Backends;

  beforeAll(async () => {
    database = await openBackendDatabase(backend);
    backends = await openBackends(loadConfig(database.env));
  }, 120_000);
  afterAll(async () => {
    await backends?.close();
    await database?.cleanup();
  });

  it('loads thousands of listings, ETFs and crypto assets, with provenance', async () => {
    const { sources, imports } = await backends.stores.referenceData.referenceStatus();
    const rows = (table: string) => sources.filter((s) => s.table === table).reduce((n, s) => n + s.rows, 0);
    expect(rows('listings')).toBeGreaterThan(5000);
    expect(rows('etfs')).toBeGreaterThan(5000);
    expect(rows('crypto')).toBeGreaterThan(300);
    expect(imports.map((i) => i.format).sort()).toEqual(FORMATS);
    expect(sources.map((s) => s.source)).toContain('financedatabase');
  });

  it('holds the brand knowledge set: name-suggestion-index brands with their websites, countries and categories', async () => {
    const store = backends.stores.referenceData;
    const { sources } = await store.referenceStatus();
    expect(sources.find((s) => s.table === 'brands')).toMatchObject({ source: 'nsi', sourceDate: '2026-09-18' });
    expect(sources.find((s) => s.table === 'brands')?.rows).toBeGreaterThan(12_000);
    expect(await store.knownBrandsByDomain('starbucks.com')).toContainEqual(
      expect.objectContaining({ name: 'Starbucks', wikidata: 'Q37158', countries: ['001'], category: 'amenity/cafe', countrySites: expect.objectContaining({ DE: 'starbucks.de', JP: 'starbucks.co.jp' }) }),
    );
    expect(await store.knownBrandsByDomain('fiveguys.com')).toMatchObject([{ name: 'Five Guys', category: 'amenity/fast_food' }]);
  });

  it('finds a knowledge-set brand by name before anyone crawled it (Five Guys is no listed company)', async () => {
    const search = new BrandSearch(backends.stores.search, (key) => key, { timeoutMs: 60_000, referenceCheckMs: 60_000, logger: createLogger({ level: 'silent' }) });
    expect((await search.search('five guys', 3))[0]).toEqual({ name: 'Five Guys', domain: 'fiveguys.com', claimed: false, icon: null, brandId: null, qualityScore: null });
    expect((await search.search('Tim Hortons', 3))[0]).toMatchObject({ name: 'Tim Hortons', domain: 'timhortons.com', brandId: null });
  }, 60_000);

  it('answers the well-known tickers on their home exchange', async () => {
    const store = backends.stores.referenceData;
    expect(await store.listingByTickerAndMic('AAPL', 'XNAS')).toMatchObject({ domain: 'apple.com', primary: true });
    expect(await store.listingByTickerAndMic('7203', 'XTKS')).toMatchObject({ domain: 'global.toyota', primary: true });
    expect(await store.listingByTickerAndMic('SHEL', 'XLON')).toMatchObject({ domain: 'shell.com', country: 'GB', primary: true });
    expect(await store.listingByTickerAndMic('SAP', 'XETR')).toMatchObject({ domain: 'sap.com', isin: 'DE0007164600' });
    expect((await store.listingsByTicker('7203'))[0]).toMatchObject({ mic: 'XTKS' });
    expect((await store.listingsByTicker('SAP'))[0]).toMatchObject({ mic: 'XETR' });
    expect((await store.listingsByTicker('BRK.B'))[0]).toMatchObject({ domain: 'berkshirehathaway.com' });
    expect((await store.listingsByIsin('US0378331005'))[0]).toMatchObject({ mic: 'XNAS', domain: 'apple.com' });
  });

  it("answers ETFs with the issuer's domain and crypto symbols with the project's", async () => {
    const store = backends.stores.referenceData;
    expect(await store.etfByTickerAndMic('SPY', 'ARCX')).toMatchObject({ issuerDomain: 'ssga.com' });
    expect((await store.etfsByTicker('IVV'))[0]).toMatchObject({ issuerDomain: 'ishares.com' });
    expect((await store.etfsByTicker('VOO'))[0]).toMatchObject({ issuerDomain: 'vanguard.com' });
    expect((await store.cryptoBySymbol('BTC'))[0]).toMatchObject({ domain: 'bitcoin.org' });
    expect((await store.cryptoBySymbol('ETH'))[0]).toMatchObject({ domain: 'ethereum.org' });
  });

  it('is not loaded again when the store is opened again', async () => {
    const again = await openBackends(loadConfig(database.env));
    try {
      expect((await again.stores.referenceData.referenceStatus()).imports).toHaveLength(FORMATS.length);
    } finally {
      await again.close();
    }
  });

  it('a store made before the knowledge set shipped (reference data, no known brand) gets the set when opened, only it', async () => {
    await queryDatabase<void, ReferenceDataTables>(database, async (db) => {
      await db.deleteFrom('ref_brands').execute();
    });
    const again = await openBackends(loadConfig(database.env));
    try {
      expect(await again.stores.referenceData.knownBrandsByDomain('fiveguys.com')).toHaveLength(1);
      const formats = (await again.stores.referenceData.referenceStatus()).imports.map((i) => i.format).sort();
      expect(formats).toEqual([...FORMATS.slice(0, 1), ...FORMATS]);
    } finally {
      await again.close();
    }
  });
});
