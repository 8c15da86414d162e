/**
 * A fresh store gets the embedded reference set when it is opened (migrate, first start), and answers the
 * well-known cases; opening it again does not load it twice. Real SQLite file through openBackends.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { openBackends, type Backends } from '../../src/main/open-backends.js';

describe('embedded reference data', () => {
  let dir: string;
  let backends: Backends;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'brandbase-refdata-'));
    backends = await openBackends(loadConfig({ BRANDBASE_DATA_DIR: dir }));
  }, 120_000);
  afterAll(async () => {
    await backends.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('loads thousands of listings, ETFs and crypto assets, with provenance', async () => {
    const { sources, imports } = await backends.stores.referenceData.referenceStatus();
    const rows = (table: string) => sources.filter((s) => s.table === table).reduce((n, s) => n + s.rows, 0);
    expect(rows('listings')).toBeGreaterThan(5000);
    expect(rows('etfs')).toBeGreaterThan(5000);
    expect(rows('crypto')).toBeGreaterThan(300);
    expect(imports.map((i) => i.format).sort()).toEqual(['brandbase-crypto', 'brandbase-etfs', 'brandbase-listings']);
    expect(sources.map((s) => s.source)).toContain('financedatabase');
  });

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
    const again = await openBackends(loadConfig({ BRANDBASE_DATA_DIR: dir }));
    try {
      expect((await again.stores.referenceData.referenceStatus()).imports).toHaveLength(3);
    } finally {
      await again.close();
    }
  });
});
