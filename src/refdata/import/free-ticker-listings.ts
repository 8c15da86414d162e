/**
 * free-ticker-database `core_listings.csv` (MIT): `listing_key,ticker,exchange,name,asset_type,…,country_code,isin`.
 * Stocks become listings, ETFs become ETFs (issuer from the fund's name). Known error caught: the same ISIN on
 * homonymous listings of different companies (first pass groups ISINs by company name); the ISIN is kept only
 * where its country prefix is the listing's country, and dropped (reported) elsewhere. ADR ISINs are dropped too.
 */
import { countryCode } from '../countries.js';
import { etfIssuerDomain } from '../etf-issuers.js';
import { euronextMic, exchangeCountry, FREE_TICKER_EXCHANGE_MICS } from '../exchanges.js';
import { completeRows } from './complete-rows.js';
import { csvRows } from './csv-records.js';
import { checkedIsin, nameKey, withoutAdrIsin } from './listing-checks.js';
import { makeEtf, makeListing, SeenKeys } from './listing-row.js';
import type { FormatParser, ParseContext, ReferenceRecord } from './reference-record.js';

/** ISIN → distinct company-name keys (capped at 2: two is enough to know it is shared). */
async function isinNames(ctx: ParseContext): Promise<Map<string, Set<string>>> {
  const names = new Map<string, Set<string>>();
  for await (const { row } of csvRows(ctx.open())) {
    const isin = row?.isin?.trim().toUpperCase();
    if (!row || !isin) continue;
    const set = names.get(isin) ?? new Set<string>();
    if (set.size < 2) set.add(nameKey(row.name ?? ''));
    names.set(isin, set);
  }
  return names;
}

function micOf(exchange: string, country: string | null): string | null {
  if (exchange === 'Euronext') return euronextMic(country);
  return FREE_TICKER_EXCHANGE_MICS[exchange] ?? null;
}

async function* parse(ctx: ParseContext): AsyncGenerator<ReferenceRecord> {
  const shared = await isinNames(ctx);
  const seen = new SeenKeys();
  const meta = { source: 'free-ticker-database', sourceDate: ctx.sourceDate };
  for await (const row of completeRows(ctx, ['ticker', 'name'])) {
    const country = countryCode(row.country_code) ?? countryCode(row.country);
    const mic = micOf((row.exchange ?? '').trim(), country);
    const example = row.listing_key ?? row.ticker;
    if (mic === null) {
      ctx.report.skip('unknown-exchange', example);
      continue;
    }
    let isin = withoutAdrIsin(checkedIsin(row.isin, ctx.report, example), country, exchangeCountry(mic), ctx.report, example);
    if (isin !== null && (shared.get(isin)?.size ?? 0) > 1 && isin.slice(0, 2) !== exchangeCountry(mic)) {
      ctx.report.correct('isin-on-homonym', `${example}: ${isin}`);
      isin = null;
    }
    if (!seen.first(row.asset_type ?? '', row.ticker.trim().toUpperCase(), mic)) {
      ctx.report.skip('duplicate-in-file', example);
      continue;
    }
    if (row.asset_type === 'ETF') {
      yield { table: 'etfs', row: makeEtf({ ticker: row.ticker, mic, name: row.name, isin, issuer: null, issuerDomain: etfIssuerDomain(null, row.name), ...meta }) };
    } else {
      yield { table: 'listings', row: makeListing({ ticker: row.ticker, mic, name: row.name, isin, country, domain: null, rank: 9, ...meta }) };
    }
  }
}

export const freeTickerListings: FormatParser = { name: 'free-ticker-listings', source: 'free-ticker-database', description: 'free-ticker-database core_listings.csv', parse };
