/**
 * Every import format on small files (test/fixtures/refdata/), into a real temp SQLite store: malformed rows,
 * duplicates, a bad ISIN check digit, the README's known errors and a row that contradicts another source.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { importReferenceFile, UnknownFormatError } from '../../src/refdata/import/import-file.js';
import type { ReferenceData } from '../../src/refdata/reference-data.js';
import { tempSqlite } from '../store/temp-database.js';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/refdata/${name}`, import.meta.url));

/**
 * The imports in the order the tests below take them: later formats cross-check what earlier ones stored (curated
 * domains need the US listings, a contradiction needs the stored ISIN), so a test starts from a store holding every
 * import before its own, replayed into its own temp database: the tests share nothing and pass in any order.
 */
const IMPORTS = [
  ['sec_company_tickers_exchange.json', 'sec-company-tickers-exchange'],
  ['ftd_core_listings.csv', 'free-ticker-listings'],
  ['fd_equities.csv', 'financedatabase-equities'],
  ['fd_equities.csv', 'financedatabase-equities'],
  ['fd_v1_equities.csv', 'financedatabase-v1-equities'],
  ['ftd_identifiers.csv', 'free-ticker-identifiers'],
  ['mrchartist_domains.json', 'mrchartist-domains'],
  ['fd_etfs.csv', 'financedatabase-etfs'],
  ['fd_cryptos.csv', 'financedatabase-cryptos'],
  ['trustwallet_chains.json', 'trustwallet-chains'],
  ['gleif_isin_lei.csv', 'gleif-isin-lei'],
  ['wikidata.json', 'wikidata-json'],
  ['wikidata.csv', 'wikidata-csv'],
] as const;

describe('reference data import', () => {
  let store: ReferenceData;
  const cleanups: (() => Promise<void>)[] = [];
  const run = (file: string, format: string) => importReferenceFile(store, { file: fixture(file), format, sourceDate: '2026-01-02' });

  /** A fresh temp store (this test's `store`) holding the imports listed before `file` (its first occurrence). */
  async function importedBefore(file: (typeof IMPORTS)[number][0] | 'all'): Promise<void> {
    const temp = await tempSqlite();
    cleanups.push(temp.cleanup);
    await temp.migrate();
    store = temp.stores.referenceData;
    const end = file === 'all' ? IMPORTS.length : IMPORTS.findIndex(([name]) => name === file);
    for (const [name, format] of IMPORTS.slice(0, end)) await run(name, format);
  }

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('SEC company_tickers_exchange.json: listings with share classes normalized; bad and duplicate rows reported', async () => {
    await importedBefore('sec_company_tickers_exchange.json');
    const report = await run('sec_company_tickers_exchange.json', 'sec-company-tickers-exchange');
    expect(report).toMatchObject({ rowsRead: 7, inserted: 4 });
    expect(report.skipped['duplicate-in-file']?.count).toBe(1);
    expect(report.skipped['unknown-exchange']?.count).toBe(1);
    expect(report.skipped['malformed-row']?.count).toBe(1);
    expect(await store.listingByTickerAndMic('BRK.B', 'XNYS')).toMatchObject({ ticker: 'BRK-B', shareClass: 'B', source: 'sec', sourceDate: '2026-01-02' });
  });

  it('free-ticker-database listings: an ISIN on a homonymous listing and an ADR ISIN are dropped, ETFs get their issuer', async () => {
    await importedBefore('ftd_core_listings.csv');
    const report = await run('ftd_core_listings.csv', 'free-ticker-listings');
    expect(report.corrected['isin-on-homonym']?.examples).toEqual(['Bursa::7203: JP3633400001']);
    expect(report.corrected['adr-isin-on-foreign-listing']?.examples).toEqual(['LSE::SHEL: US5949181045']);
    expect(report.skipped['duplicate-in-file']?.count).toBe(1);
    expect(report.skipped['unknown-exchange']?.count).toBe(1);
    expect(await store.listingByTickerAndMic('7203', 'XKLS')).toMatchObject({ isin: null, country: 'MY' });
    expect(await store.listingByTickerAndMic('7203', 'XTKS')).toMatchObject({ isin: 'JP3633400001' });
    expect(await store.listingByTickerAndMic('SHEL', 'XLON')).toMatchObject({ isin: null, country: 'GB', primary: true });
    expect(await store.etfByTickerAndMic('SPY', 'ARCX')).toMatchObject({ issuerDomain: 'ssga.com' });
  });

  it('FinanceDatabase equities: XJPX→XTKS, suffixes, ADR ISINs, IR subdomains, copied websites, bad check digits, contradictions', async () => {
    await importedBefore('fd_equities.csv');
    const report = await run('fd_equities.csv', 'financedatabase-equities');
    expect(report.corrected['mic-XJPX-to-XTKS']?.count).toBe(2);
    expect(report.corrected['adr-isin-on-foreign-listing']?.examples).toEqual(['6758.T: US8356993076']);
    expect(report.corrected['bad-isin-check-digit']?.examples).toEqual(['BAD.L: GB00BP6MXD85']);
    expect(report.corrected['copied-website']?.count).toBe(3);
    expect(report.skipped).toMatchObject({ delisted: { count: 1 }, 'unknown-exchange': { count: 1 }, 'malformed-row': { count: 1 }, 'duplicate-in-file': { count: 1 } });
    // SAP.DE carries Shell's ISIN in this file: the stored German ISIN (free-ticker-database) is better attested.
    expect(report.contradictions.examples).toContainEqual(expect.objectContaining({ key: 'SAP:XETR', field: 'isin', kept: 'DE0007164600', rejected: 'GB00BP6MXD84' }));
    expect(await store.listingByTickerAndMic('SAP', 'XETR')).toMatchObject({ isin: 'DE0007164600', domain: 'sap.com' });
    expect(await store.listingByTickerAndMic('7203', 'XTKS')).toMatchObject({ domain: 'global.toyota', rank: 1, primary: true });
    expect(await store.listingByTickerAndMic('6758', 'XTKS')).toMatchObject({ isin: null, domain: 'sony.com' });
    expect(await store.listingByTickerAndMic('SHEL', 'XLON')).toMatchObject({ domain: 'shell.com' });
    expect(await store.listingByTickerAndMic('RH', 'XNYS')).toMatchObject({ domain: 'rh.com' });
    expect(await store.listingByTickerAndMic('1111', 'XKLS')).toMatchObject({ domain: null, country: null, rank: 9 });
    expect(await store.listingByTickerAndMic('BAD', 'XLON')).toMatchObject({ isin: null });
    // A plain ticker picks the primary, biggest listing, never the homonym.
    expect((await store.listingsByTicker('7203'))[0]).toMatchObject({ mic: 'XTKS', name: 'Toyota Motor Corporation' });
    expect((await store.listingsByTicker('SAP'))[0]).toMatchObject({ mic: 'XETR' });
  });

  it('a re-import of the same file changes nothing and reports every row as unchanged', async () => {
    await importedBefore('fd_equities.csv');
    await run('fd_equities.csv', 'financedatabase-equities');
    const report = await run('fd_equities.csv', 'financedatabase-equities');
    expect(report).toMatchObject({ inserted: 0, updated: 0 });
    expect(report.unchanged).toBe(11);
  });

  it('FinanceDatabase 2022 snapshot, free-ticker identifiers and curated domains fill and cross-check', async () => {
    await importedBefore('fd_v1_equities.csv');
    const v1 = await run('fd_v1_equities.csv', 'financedatabase-v1-equities');
    expect(v1.skipped['unknown-exchange']?.count).toBe(1);
    expect(await store.listingByTickerAndMic('AAPL', 'XNAS')).toMatchObject({ domain: 'apple.com', primary: true });
    const ids = await run('ftd_identifiers.csv', 'free-ticker-identifiers');
    expect(ids.skipped['no-valid-isin']?.count).toBe(1);
    expect(ids.corrected['bad-isin-check-digit']?.count).toBe(1);
    expect(await store.listingByTickerAndMic('SHEL', 'XLON')).toMatchObject({ isin: 'GB00BP6MXD84' });
    const curated = await run('mrchartist_domains.json', 'mrchartist-domains');
    expect(curated.skipped['no-us-listing']?.examples).toEqual(['NOPE']);
    expect(await store.listingByTickerAndMic('MSFT', 'XNAS')).toMatchObject({ domain: 'microsoft.com' });
    expect(await store.listingByTickerAndMic('BRK.B', 'XNYS')).toMatchObject({ domain: 'berkshirehathaway.com' });
  });

  it('FinanceDatabase ETFs: issuer domains from the curated table, duplicates and bad ISINs reported', async () => {
    await importedBefore('fd_etfs.csv');
    const report = await run('fd_etfs.csv', 'financedatabase-etfs');
    expect(report.skipped['duplicate-in-file']?.count).toBe(1);
    expect(report.corrected['bad-isin-check-digit']?.count).toBe(1);
    expect(await store.etfByTickerAndMic('CSPX', 'XLON')).toMatchObject({ issuerDomain: 'ishares.com', isin: 'IE00B5BMR087' });
    expect(await store.etfByTickerAndMic('XYZ', 'XLON')).toMatchObject({ issuer: null, issuerDomain: null, isin: null });
  });

  it('crypto assets: Trust Wallet chains outrank FinanceDatabase pairs; one asset per symbol', async () => {
    await importedBefore('fd_cryptos.csv');
    const fd = await run('fd_cryptos.csv', 'financedatabase-cryptos');
    expect(fd).toMatchObject({ inserted: 3 });
    expect(fd.skipped['another-pair-of-the-asset']?.count).toBe(2);
    expect(fd.skipped['malformed-row']?.count).toBe(1);
    const tw = await run('trustwallet_chains.json', 'trustwallet-chains');
    expect(tw.skipped).toMatchObject({ inactive: { count: 1 }, 'malformed-row': { count: 1 } });
    const btc = await store.cryptoBySymbol('BTC');
    expect(btc[0]).toMatchObject({ name: 'Bitcoin', domain: 'bitcoin.org', rank: 1 });
  });

  it('GLEIF ISIN→LEI: streamed; bad check digits, bad LEIs and short rows are skipped', async () => {
    await importedBefore('gleif_isin_lei.csv');
    const report = await run('gleif_isin_lei.csv', 'gleif-isin-lei');
    expect(report).toMatchObject({ rowsRead: 6, inserted: 2, unchanged: 0 });
    expect(report.skipped).toMatchObject({ 'bad-isin-check-digit': { count: 1 }, 'malformed-lei': { count: 1 }, 'malformed-row': { count: 1 } });
    expect(await store.leiByIsin('DE0007164600')).toMatchObject({ lei: '529900D6BF99LW9R2E68', source: 'gleif' });
  });

  it('Wikidata SPARQL JSON and CSV: listings, ISIN→LEI, LEI→website and crypto codes', async () => {
    await importedBefore('wikidata.json');
    const json = await run('wikidata.json', 'wikidata-json');
    expect(json.skipped['nothing-usable']?.count).toBe(1);
    expect(json.corrected['bad-isin-check-digit']?.count).toBe(1);
    expect(await store.listingByTickerAndMic('GOOGL', 'XNAS')).toMatchObject({ name: 'Google "Alphabet"', domain: 'abc.xyz', isin: 'US02079K3059' });
    expect(await store.domainByLei('5493006MHB84DD0ZWV18')).toMatchObject({ domain: 'abc.xyz' });
    const csv = await run('wikidata.csv', 'wikidata-csv');
    expect(csv.skipped).toMatchObject({ 'malformed-row': { count: 1 }, 'unknown-exchange': { count: 1 } });
    expect(await store.listingByTickerAndMic('7203', 'XTKS')).toMatchObject({ isin: 'JP3633400001' });
    expect(await store.domainByLei('529900D6BF99LW9R2E68')).toMatchObject({ domain: 'sap.com' });
  });

  it('status counts rows per source and lists the imports; an unknown format is refused', async () => {
    await importedBefore('all');
    const status = await store.referenceStatus();
    expect(status.sources.find((s) => s.table === 'listings' && s.source === 'sec')?.rows).toBe(4);
    expect(status.imports.length).toBeGreaterThanOrEqual(10);
    await expect(run('gleif_isin_lei.csv', 'nope')).rejects.toBeInstanceOf(UnknownFormatError);
  });
});
