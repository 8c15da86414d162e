/**
 * Brandbase's own reference CSVs (the embedded set in refdata/embedded/, written by scripts/build-refdata.ts):
 * rows already cleaned, each with its original source and source date (provenance survives the round trip).
 *   listings: ticker,mic,name,isin,country,domain,primary,rank,source,source_date
 *   etfs:     ticker,mic,name,isin,issuer,issuer_domain,source,source_date
 *   crypto:   symbol,name,domain,rank,source,source_date
 *   brands:   id,name,match_names,domain,country_sites,countries,category,wikidata,source,source_date
 *             (the knowledge set, scripts/build-nsi.ts: match names joined by `|`, countries by spaces, country sites
 *             as `DE=lidl.de ES=lidl.es`)
 */
import { registrableDomain } from '../../domain/identifiers.js';
import { normalizeName } from '../../domain/search-text.js';
import { MAX_MATCH_NAMES, type KnownBrand } from '../reference-data.js';
import { operatingMic } from '../exchanges.js';
import { completeRows } from './complete-rows.js';
import { checkedIsin } from './listing-checks.js';
import { makeEtf, makeListing } from './listing-row.js';
import type { FormatParser, ParseContext, ReferenceRecord } from './reference-record.js';

export const LISTING_COLUMNS = ['ticker', 'mic', 'name', 'isin', 'country', 'domain', 'primary', 'rank', 'source', 'source_date'] as const;
export const ETF_COLUMNS = ['ticker', 'mic', 'name', 'isin', 'issuer', 'issuer_domain', 'source', 'source_date'] as const;
export const CRYPTO_COLUMNS = ['symbol', 'name', 'domain', 'rank', 'source', 'source_date'] as const;
export const BRAND_COLUMNS = ['id', 'name', 'match_names', 'domain', 'country_sites', 'countries', 'category', 'wikidata', 'source', 'source_date'] as const;

/** A known brand as a row of the brands CSV (the inverse of parseBrands). */
export function brandCsvRow(b: KnownBrand): Record<(typeof BRAND_COLUMNS)[number], string> {
  return {
    id: b.id,
    name: b.name,
    match_names: b.matchNames.join('|'),
    domain: b.domain,
    country_sites: Object.entries(b.countrySites)
      .sort(([a], [c]) => a.localeCompare(c))
      .map(([country, domain]) => `${country}=${domain}`)
      .join(' '),
    countries: b.countries.join(' '),
    category: b.category,
    wikidata: b.wikidata,
    source: b.source,
    source_date: b.sourceDate,
  };
}

const orNull = (value: string | undefined): string | null => (value?.trim() ? value.trim() : null);

function provenance(row: Record<string, string>, ctx: ParseContext) {
  return { source: row.source?.trim() || 'brandbase', sourceDate: row.source_date?.trim() || ctx.sourceDate };
}

async function* parseListings(ctx: ParseContext): AsyncGenerator<ReferenceRecord> {
  for await (const row of completeRows(ctx, ['ticker', 'mic', 'name'])) {
    const mic = operatingMic(row.mic ?? '');
    if (mic === null) {
      ctx.report.skip('unknown-exchange', `${row.ticker} (${row.mic})`);
      continue;
    }
    const listing = makeListing({
      ticker: row.ticker ?? '',
      mic,
      name: row.name ?? '',
      isin: checkedIsin(row.isin, ctx.report, row.ticker ?? ''),
      country: orNull(row.country),
      domain: orNull(row.domain),
      primary: row.primary === '1' || row.primary === 'true',
      rank: Number(row.rank) || 9,
      ...provenance(row, ctx),
    });
    yield { table: 'listings', row: listing };
  }
}

async function* parseEtfs(ctx: ParseContext): AsyncGenerator<ReferenceRecord> {
  for await (const row of completeRows(ctx, ['ticker', 'mic', 'name'])) {
    const mic = operatingMic(row.mic ?? '');
    if (mic === null) {
      ctx.report.skip('unknown-exchange', `${row.ticker} (${row.mic})`);
      continue;
    }
    const isin = checkedIsin(row.isin, ctx.report, row.ticker ?? '');
    yield { table: 'etfs', row: makeEtf({ ticker: row.ticker ?? '', mic, name: row.name ?? '', isin, issuer: orNull(row.issuer), issuerDomain: orNull(row.issuer_domain), ...provenance(row, ctx) }) };
  }
}

async function* parseCrypto(ctx: ParseContext): AsyncGenerator<ReferenceRecord> {
  for await (const row of completeRows(ctx, ['symbol', 'name'])) {
    const symbol = (row.symbol ?? '').trim().toUpperCase();
    yield { table: 'crypto', row: { symbol, name: (row.name ?? '').trim(), domain: orNull(row.domain), rank: Number(row.rank) || 1000, ...provenance(row, ctx) } };
  }
}

const words = (value: string | undefined): string[] => (value ?? '').split(/\s+/).filter(Boolean);

/** Already normalized (what scripts/build-nsi.ts writes for Latin names): normalizeName would return it unchanged. */
const NORMALIZED_ASCII = /^[a-z0-9]+(?: [a-z0-9]+)*$/;
const normalized = (name: string): string => (NORMALIZED_ASCII.test(name) ? name : normalizeName(name));

async function* parseBrands(ctx: ParseContext): AsyncGenerator<ReferenceRecord> {
  for await (const row of completeRows(ctx, ['id', 'name', 'domain', 'category', 'wikidata'])) {
    const domain = registrableDomain(row.domain);
    if (domain === null) {
      ctx.report.skip('bad-domain', `${row.id} (${row.domain})`);
      continue;
    }
    const countrySites: Record<string, string> = {};
    for (const pair of words(row.country_sites)) {
      const [country, site] = pair.split('=');
      const siteDomain = registrableDomain(site ?? '');
      if (country && /^[A-Z]{2}$/.test(country) && siteDomain !== null) countrySites[country] = siteDomain;
    }
    const display = normalizeName(row.name);
    const matchNames = [...new Set((row.match_names ?? '').split('|').map(normalized))].filter((n) => n !== '' && n !== display).slice(0, MAX_MATCH_NAMES);
    const brand: KnownBrand = {
      id: row.id.trim(),
      name: row.name.trim(),
      matchNames,
      domain,
      countrySites,
      countries: words(row.countries).map((c) => c.toUpperCase()),
      category: row.category.trim(),
      wikidata: row.wikidata.trim(),
      ...provenance(row, ctx),
    };
    yield { table: 'brands', row: brand };
  }
}

export const brandbaseListings: FormatParser = { name: 'brandbase-listings', source: 'brandbase', description: "Brandbase's listings CSV (the embedded set)", parse: parseListings };
export const brandbaseEtfs: FormatParser = { name: 'brandbase-etfs', source: 'brandbase', description: "Brandbase's ETFs CSV (the embedded set)", parse: parseEtfs };
export const brandbaseCrypto: FormatParser = { name: 'brandbase-crypto', source: 'brandbase', description: "Brandbase's crypto assets CSV (the embedded set)", parse: parseCrypto };
export const brandbaseBrands: FormatParser = { name: 'brandbase-brands', source: 'brandbase', description: "Brandbase's brand knowledge set CSV (the embedded set)", parse: parseBrands };
