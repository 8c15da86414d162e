/**
 * Builds the embedded reference set (refdata/embedded/*.csv.gz) from the openly licensed snapshots in
 * ../shared/refdata (or the folder given as the first argument): imports every source through the same importer
 * a deployment uses (so the known errors are caught the same way) into a throw-away SQLite store, spreads domains
 * and size classes across listings of one ISIN, then keeps the large and mid caps with a website, the ETFs of
 * known issuers and the crypto assets with a website. Run: node --import tsx scripts/build-refdata.ts [dir]
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { exchangeCountry, isSecondaryVenue } from '../src/refdata/exchanges.js';
import { importReferenceFile } from '../src/refdata/import/import-file.js';
import { CRYPTO_COLUMNS, ETF_COLUMNS, LISTING_COLUMNS } from '../src/refdata/import/embedded-tables.js';
import { compact } from '../src/refdata/import/listing-checks.js';
import { openSqliteDatabase } from '../src/db/sqlite/open-sqlite-database.js';
import { openProductStores } from '../src/main/product-stores.js';
import type { ReferenceDataTables } from '../src/refdata/store/refdata-tables.js';

const SHARED = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '../../shared/refdata'));
const OUT = path.join(import.meta.dirname, '../refdata/embedded');
/** Brandbase's own hand-checked rows (an absolute path: path.resolve below keeps it). */
const CURATED = path.join(import.meta.dirname, '../refdata/curated');

/** Import order matters: cross-checking formats (identifiers, curated domains) read what is already imported. */
const IMPORTS: { file: string; format: string; sourceDate: string }[] = [
  { file: 'sec/company_tickers_exchange.json', format: 'sec-company-tickers-exchange', sourceDate: '2025-08-01' },
  { file: 'free-ticker-database/core_listings.csv', format: 'free-ticker-listings', sourceDate: '2026-05-31' },
  { file: 'financedatabase/equities_slim.csv', format: 'financedatabase-equities', sourceDate: '2026-08-16' },
  { file: 'financedatabase-v1-2022/equities_v1_2022.csv', format: 'financedatabase-v1-equities', sourceDate: '2022-07-19' },
  { file: 'free-ticker-database/identifiers.csv', format: 'free-ticker-identifiers', sourceDate: '2026-05-31' },
  { file: 'mrchartist/domains_us.json', format: 'mrchartist-domains', sourceDate: '2025-08-01' },
  { file: `${CURATED}/listings.csv`, format: 'brandbase-listings', sourceDate: '2026-11-25' },
  { file: 'financedatabase/etfs_slim.csv', format: 'financedatabase-etfs', sourceDate: '2026-08-16' },
  { file: 'financedatabase/cryptos.csv', format: 'financedatabase-cryptos', sourceDate: '2026-08-16' },
  { file: 'trustwallet/chain_info_extracts.json', format: 'trustwallet-chains', sourceDate: '2025-08-01' },
  { file: `${CURATED}/crypto.csv`, format: 'brandbase-crypto', sourceDate: '2026-11-25' },
];

/** ETF venues in the order a plain ticker is most likely meant (the cap of 10,000 keeps the first). */
const ETF_VENUES = ['ARCX', 'XNAS', 'BATS', 'XNYS', 'XASE', 'XLON', 'XETR', 'XPAR', 'XAMS', 'XSWX', 'XMIL', 'XTSE', 'XASX', 'XTKS', 'XHKG'];

type Row = Record<string, string | number | null>;

function csv(columns: readonly string[], rows: readonly Row[]): Buffer {
  const cell = (v: string | number | null | undefined) => {
    const s = v === null || v === undefined ? '' : String(v);
    return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const lines = [columns.join(','), ...rows.map((r) => columns.map((c) => cell(r[c])).join(','))];
  return gzipSync(`${lines.join('\n')}\n`, { level: 9 });
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'brandbase-refdata-'));
  const database = await openSqliteDatabase({ file: path.join(dir, 'build.sqlite') });
  const { store, referenceData } = openProductStores(database);
  const db = database.tables<ReferenceDataTables>();
  try {
    await store.migrate();
    for (const step of IMPORTS) {
      const report = await importReferenceFile(referenceData, { ...step, file: path.resolve(SHARED, step.file) });
      const skipped = Object.entries(report.skipped).map(([k, v]) => `${k}=${v.count}`).join(' ');
      const corrected = Object.entries(report.corrected).map(([k, v]) => `${k}=${v.count}`).join(' ');
      process.stdout.write(`${step.format}: read ${report.rowsRead}, +${report.inserted} ~${report.updated} =${report.unchanged}, contradictions ${report.contradictions.count}; skipped ${skipped || '-'}; corrected ${corrected || '-'}\n`);
    }
    const listings = ((await db.selectFrom('ref_listings').selectAll().execute()) as unknown as Row[]).map(checkStaleDomain);
    linkByCompanyName(listings);
    spreadAcrossIsin(listings);
    borrowDomainByShortName(listings);
    spreadAcrossIsin(listings);
    const keptListings = listings
      // Every US exchange listing is kept, with or without a website: a plain ticker reads as a US symbol first, so
      // a US company the set did not know would otherwise answer a foreign homonym (`MS`, `T`) instead of a 404.
      .filter((l) => isUsExchangeListing(l) || (l.domain !== null && (Number(l.rank) <= 3 || isHomeListingOfUnknownSize(l) || TRUSTED_DOMAIN_SOURCES.has(JSON.parse(String(l.field_sources)).domain))))
      // Listings on regional and off-exchange venues would only bloat the set; the home listing is kept.
      .filter((l) => !isSecondaryVenue(String(l.mic)))
      .map((l) => ({ ...l, primary: l.is_primary }))
      .sort((a, b) => String(a.mic).localeCompare(String(b.mic)) || String(a.ticker_norm).localeCompare(String(b.ticker_norm)));
    const etfs = ((await db.selectFrom('ref_etfs').selectAll().where('issuer_domain', 'is not', null).execute()) as unknown as Row[])
      .sort((a, b) => venueOrder(a.mic) - venueOrder(b.mic) || String(a.ticker_norm).localeCompare(String(b.ticker_norm)))
      .slice(0, 10_000);
    const crypto = await db.selectFrom('ref_crypto_assets').selectAll().where('domain', 'is not', null).orderBy('rank').orderBy('symbol').limit(2000).execute();
    await writeFile(path.join(OUT, 'listings.csv.gz'), csv(LISTING_COLUMNS, keptListings));
    await writeFile(path.join(OUT, 'etfs.csv.gz'), csv(ETF_COLUMNS, etfs));
    await writeFile(path.join(OUT, 'crypto.csv.gz'), csv(CRYPTO_COLUMNS, crypto as unknown as Row[]));
    process.stdout.write(`embedded: ${keptListings.length} listings, ${etfs.length} ETFs, ${crypto.length} crypto assets → ${OUT}\n`);
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const US_EXCHANGES = new Set(['XNYS', 'XNAS', 'XASE', 'ARCX', 'BATS']);

function isUsExchangeListing(l: Row): boolean {
  return US_EXCHANGES.has(String(l.mic));
}

/**
 * A domain from the 2022 snapshot (financedatabase-v1-2022) is matched by ticker alone, and tickers are reused: it is
 * kept only when the company name carries the domain's name (`MORGAN STANLEY` ~ morganstanley.com, `AT&T INC` ~
 * att.com), else dropped (the listing stays, without a website: a 404 rather than another company's brand).
 */
function checkStaleDomain(l: Row): Row {
  if (l.domain === null || JSON.parse(String(l.field_sources)).domain !== 'financedatabase-v1-2022') return l;
  const label = squeeze(String(l.domain).split('.')[0] ?? '');
  const name = squeeze(String(l.name));
  const firstWord = squeeze(String(l.name).split(/\s+/)[0] ?? '');
  const matches =
    label.length >= 2 &&
    (name.includes(label) ||
      (firstWord.length >= 3 && label.includes(firstWord)) ||
      // `IBM` ~ ibm.com (INTERNATIONAL BUSINESS MACHINES): the initials, or the ticker itself (`JNJ` ~ jnj.com).
      label === initials(String(l.name)) ||
      label === squeeze(String(l.ticker_norm)));
  return matches ? l : { ...l, domain: null };
}

/** Lower-case letters and digits, accents folded (`Eletrobrás` ~ eletrobras.com). */
const squeeze = (v: string) => compact(v.normalize('NFKD').replace(/[\u0300-\u036f]/g, ''));

function initials(name: string): string {
  return companyWords(name).map((w) => w[0]).join('');
}

/** A company name's words without legal forms and punctuation: `Sony Group Corp.` → [sony, group]. */
function companyWords(name: string): string[] {
  return name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0 && !LEGAL_WORDS.has(w));
}

const LEGAL_WORDS = new Set([
  'inc', 'corp', 'corporation', 'co', 'company', 'ltd', 'limited', 'plc', 'ag', 'se', 'sa', 'nv', 'bv', 'spa', 'ab',
  'asa', 'oyj', 'as', 'a', 's', 'the', 'holding', 'holdings', 'group', 'class', 'ord', 'shs', 'reg', 'cl', 'de', 'and',
]);

/** Curated sources: every listing they give a domain is kept, whatever its size class. */
const TRUSTED_DOMAIN_SOURCES = new Set(['mrchartist', 'brandbase-curated']);

/**
 * The sources give no size class for many home listings of large companies (Vodafone, Mercedes-Benz, Roche): a
 * primary listing on an exchange of the company's own country is kept when its size is unknown (rank 9), so the
 * well-known cases answer; small caps the sources do size (rank 4-6) stay out.
 */
function isHomeListingOfUnknownSize(l: Row): boolean {
  return Number(l.rank) === 9 && Number(l.is_primary) === 1 && l.country !== null && exchangeCountry(String(l.mic)) === String(l.country);
}

/**
 * One company is often two unlinked rows: its home listing without an ISIN (FinanceDatabase's ISIN was the ADR's and
 * was dropped) and a foreign venue's row with the home ISIN (Sony's JP ISIN on Berlin's SON1), or a home listing
 * without a website next to a foreign listing that has one. Rows whose names agree word for word (legal forms
 * aside) are linked: the home listing gets the ISIN of its own country, and a listing without a website takes the
 * website all the others agree on. Only unambiguous groups are linked (one home listing, one website).
 */
function linkByCompanyName(listings: Row[]): void {
  const groups = new Map<string, Row[]>();
  for (const l of listings) {
    const key = companyWords(String(l.name)).join(' ');
    if (key.length < 5) continue;
    groups.set(key, [...(groups.get(key) ?? []), l]);
  }
  for (const group of groups.values()) {
    if (group.length < 2 || group.length > 40) continue;
    for (const isin of new Set(group.map((l) => l.isin).filter((i): i is string => typeof i === 'string'))) {
      const homes = group.filter((l) => exchangeCountry(String(l.mic)) === isin.slice(0, 2) && !isSecondaryVenue(String(l.mic)));
      const alreadyHome = homes.some((l) => l.isin === isin);
      const candidates = homes.filter((l) => l.isin === null || String(l.isin).slice(0, 2) !== isin.slice(0, 2));
      if (!alreadyHome && candidates.length === 1 && candidates[0]) candidates[0].isin = isin;
    }
    const domains = new Set(group.map((l) => l.domain).filter((d) => d !== null));
    const [domain] = [...domains];
    if (domains.size === 1 && domain !== undefined) for (const l of group) if (l.domain === null) l.domain = domain;
  }
}

/**
 * Exchanges' own files shorten names (`BOC HONG KONG`, `HENDERSON LAND`, `NEW WORLD DEV`) where other sources write
 * them out with a website (`BOC Hong Kong (Holdings) Limited`, bochk.com, on its US and Frankfurt lines). A primary
 * listing without a website borrows one from listings of the same country whose name starts with its words (each
 * word a prefix: `DEV` ~ `Development`), when all of them agree on one website and that website's name matches the
 * company's (a word, or the initials: hld.com ~ Henderson Land Development).
 */
function borrowDomainByShortName(listings: Row[]): void {
  const byFirstWord = new Map<string, { words: string[]; row: Row }[]>();
  for (const l of listings) {
    const words = companyWords(String(l.name));
    if (l.domain === null || l.country === null || words.length < 2) continue;
    const key = `${String(l.country)}:${words[0]}`;
    byFirstWord.set(key, [...(byFirstWord.get(key) ?? []), { words, row: l }]);
  }
  for (const l of listings) {
    if (l.domain !== null || Number(l.is_primary) !== 1 || l.country === null) continue;
    const words = companyWords(String(l.name));
    if (words.length < 2 || words.join('').length < 6) continue;
    const matches = (byFirstWord.get(`${String(l.country)}:${words[0]}`) ?? []).filter((c) => startsWithWords(c.words, words));
    const domains = new Set(matches.map((m) => String(m.row.domain)));
    const [domain] = [...domains];
    if (domains.size === 1 && domain !== undefined && domainNamesCompany(domain, matches[0]?.words ?? [])) l.domain = domain;
  }
}

function startsWithWords(long: string[], short: string[]): boolean {
  return short.length <= long.length && short.every((w, i) => (long[i] ?? '').startsWith(w));
}

function domainNamesCompany(domain: string, words: string[]): boolean {
  const label = squeeze(domain.split('.')[0] ?? '');
  const initialsOf = words.map((w) => w[0]).join('');
  return words.some((w) => w.length >= 3 && label.includes(w)) || (initialsOf.length >= 2 && (label.startsWith(initialsOf) || initialsOf.startsWith(label)));
}

function venueOrder(mic: string | number | null): number {
  const i = ETF_VENUES.indexOf(String(mic));
  return i < 0 ? ETF_VENUES.length : i;
}

/**
 * Listings of one ISIN are one security: the home listing's domain (else the most trusted one's) and the best
 * size class apply to all of them (FinanceDatabase knows Apple's size only from its Berlin listing).
 */
function spreadAcrossIsin(listings: Row[]): void {
  const groups = new Map<string, Row[]>();
  // Only listings that can own the ISIN (issued in the exchange's or the company's country): sources attach an ISIN
  // to a foreign homonym (Hong Kong's 2388 ISIN on Tokyo's 2388), whose size class must not spread.
  const owns = (l: Row) => [exchangeCountry(String(l.mic)), l.country].includes(String(l.isin).slice(0, 2));
  for (const l of listings) if (l.isin && owns(l)) groups.set(String(l.isin), [...(groups.get(String(l.isin)) ?? []), l]);
  for (const group of groups.values()) {
    const rank = Math.min(...group.map((l) => Number(l.rank)));
    // The listing on an exchange of the ISIN's own country first: sources copy an ISIN onto homonyms abroad.
    const home = (l: Row) => (exchangeCountry(String(l.mic)) === String(l.isin).slice(0, 2) ? 1 : 0);
    const withDomain = group.filter((l) => l.domain !== null).sort((a, b) => home(b) - home(a) || Number(b.is_primary) - Number(a.is_primary));
    const domain = withDomain[0]?.domain ?? null;
    for (const l of group) {
      l.rank = rank;
      if (l.domain === null) l.domain = domain;
    }
  }
}

await main();
