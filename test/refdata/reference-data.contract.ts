/**
 * The ReferenceData contract: every backend runs it against a real database (no mocks). Each test uses its own
 * random tickers, so tests never see each other's rows.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Listing, ReferenceData } from '../../src/refdata/reference-data.js';

function uniqueTicker(): string {
  return `T${randomBytes(3).toString('hex').toUpperCase()}`;
}

function listing(ticker: string, overrides: Partial<Listing> = {}): Listing {
  return {
    ticker,
    tickerNorm: ticker,
    mic: 'XNAS',
    shareClass: null,
    name: 'Acme Inc',
    isin: null,
    country: 'US',
    domain: 'acme.test',
    primary: true,
    rank: 2,
    source: 'financedatabase',
    sourceDate: '2026-01-01',
    ...overrides,
  };
}

/** `store` migrates the database (every product's migrations); the contract runs on the reference data's own store. */
export function referenceDataContract(name: string, open: () => Promise<{ migrate(): Promise<void>; stores: { referenceData: ReferenceData }; cleanup: () => Promise<void> }>): void {
  describe(`ReferenceData contract: ${name}`, () => {
    let store: ReferenceData;
    let cleanup: () => Promise<void>;

    beforeAll(async () => {
      const opened = await open();
      ({ cleanup } = opened);
      store = opened.stores.referenceData;
      await opened.migrate();
    });
    afterAll(async () => {
      await cleanup();
    });

    it('finds a listing by ticker, by ticker and MIC, and by ISIN, with its provenance', async () => {
      const t = uniqueTicker();
      const counts = await store.upsertListings([listing(t, { isin: 'US0378331005' })]);
      expect(counts).toMatchObject({ inserted: 1, updated: 0, unchanged: 0 });
      expect(await store.listingByTickerAndMic(t, 'XNAS')).toEqual(listing(t, { isin: 'US0378331005' }));
      expect(await store.listingByTickerAndMic(t, 'XLON')).toBeNull();
      expect((await store.listingsByTicker(t)).map((l) => l.mic)).toEqual(['XNAS']);
      expect((await store.listingsByIsin('US0378331005')).some((l) => l.ticker === t)).toBe(true);
    });

    it('orders a plain ticker: primary first, then the bigger size class, then the more prominent venue', async () => {
      const t = uniqueTicker();
      await store.upsertListings([
        listing(t, { mic: 'XBER', name: 'Foreign copy', primary: false, rank: 1 }),
        listing(t, { mic: 'XKLS', name: 'Small homonym', country: 'MY', rank: 5 }),
        listing(t, { mic: 'XTSE', name: 'Equal homonym', country: 'CA', rank: 2 }),
        listing(t, { mic: 'XETR', name: 'Home listing', country: 'DE', rank: 2 }),
      ]);
      expect((await store.listingsByTicker(t)).map((l) => l.mic)).toEqual(['XETR', 'XTSE', 'XKLS', 'XBER']);
    });

    it('re-upserting the same rows changes nothing and counts them unchanged', async () => {
      const t = uniqueTicker();
      const rows = [listing(t), listing(t, { mic: 'XLON', country: 'GB' })];
      await store.upsertListings(rows);
      expect(await store.upsertListings(rows)).toMatchObject({ inserted: 0, updated: 0, unchanged: 2, contradictions: [] });
    });

    it('fills missing fields from another source and keeps the better-attested value on a contradiction', async () => {
      const t = uniqueTicker();
      await store.upsertListings([listing(t, { domain: null, isin: 'DE0007164600', country: 'DE', mic: 'XETR', source: 'free-ticker-database' })]);
      const counts = await store.upsertListings([listing(t, { domain: 'sap.test', isin: 'GB00BP6MXD84', country: 'DE', mic: 'XETR', source: 'financedatabase' })]);
      expect(counts.updated).toBe(1);
      expect(counts.contradictions).toEqual([
        { table: 'listings', key: `${t}:XETR`, field: 'isin', kept: 'DE0007164600', keptSource: 'free-ticker-database', rejected: 'GB00BP6MXD84', rejectedSource: 'financedatabase' },
      ]);
      const row = await store.listingByTickerAndMic(t, 'XETR');
      expect(row).toMatchObject({ isin: 'DE0007164600', domain: 'sap.test', source: 'free-ticker-database' });
      // A more trusted source wins a domain disagreement.
      await store.upsertListings([{ ...(row as Listing), domain: 'sap.example', source: 'mrchartist' }]);
      expect((await store.listingByTickerAndMic(t, 'XETR'))?.domain).toBe('sap.example');
    });

    it('stores ETFs, crypto assets, ISIN→LEI and LEI→domain for exact lookups', async () => {
      const t = uniqueTicker();
      const meta = { source: 'financedatabase', sourceDate: '2026-01-01' };
      await store.upsertEtfs([{ ticker: t, tickerNorm: t, mic: 'ARCX', name: 'Fund', isin: null, issuer: 'State Street', issuerDomain: 'ssga.com', ...meta }]);
      expect((await store.etfsByTicker(t)).map((e) => e.issuerDomain)).toEqual(['ssga.com']);
      expect(await store.etfByTickerAndMic(t, 'ARCX')).toMatchObject({ issuer: 'State Street' });
      await store.upsertCryptoAssets([
        { symbol: t, name: 'Small coin', domain: 'small.test', rank: 900, ...meta },
        { symbol: t, name: 'Big coin', domain: 'big.test', rank: 3, ...meta },
      ]);
      expect((await store.cryptoBySymbol(t)).map((c) => c.domain)).toEqual(['big.test', 'small.test']);
      await store.upsertIsinLeis([{ isin: 'US0378331005', lei: 'HWUPKR0MPOU8FGXBT394', source: 'gleif', sourceDate: '2026-01-01' }]);
      expect(await store.leiByIsin('US0378331005')).toMatchObject({ lei: 'HWUPKR0MPOU8FGXBT394', source: 'gleif' });
      await expect(store.upsertIsinLeis([{ isin: 'US0378331006', lei: 'HWUPKR0MPOU8FGXBT394', ...meta }])).rejects.toThrow(/invalid ISIN/);
      await store.upsertLeiDomains([{ lei: 'HWUPKR0MPOU8FGXBT394', name: 'Apple', domain: 'apple.com', source: 'wikidata', sourceDate: '2026-01-01' }]);
      expect(await store.domainByLei('HWUPKR0MPOU8FGXBT394')).toMatchObject({ domain: 'apple.com' });
    });

    it('records imports and reports counts and dates per source', async () => {
      // Its own source name, so the counts are this test's rows whatever other tests stored before it.
      const source = `status-${randomBytes(3).toString('hex')}`;
      await store.upsertListings([listing(uniqueTicker(), { source, sourceDate: '2026-01-01' }), listing(uniqueTicker(), { source, sourceDate: '2026-01-05' })]);
      await store.recordReferenceImport({ source: 'sec', format: 'sec-company-tickers-exchange', file: 'x.json', sourceDate: '2026-02-03', importedAt: new Date(), report: '{}' });
      expect(await store.hasReferenceImports()).toBe(true);
      const status = await store.referenceStatus();
      expect(status.imports.some((i) => i.file === 'x.json' && i.sourceDate === '2026-02-03')).toBe(true);
      const listings = status.sources.find((s) => s.table === 'listings' && s.source === source);
      expect(listings?.rows).toBe(2);
      expect(listings?.sourceDate).toBe('2026-01-05');
    });
  });
}
