/**
 * Brandbase's own reference CSVs (the embedded set in refdata/embedded/, written by scripts/build-refdata.ts):
 * rows already cleaned, each with its original source and source date (provenance survives the round trip).
 *   listings: ticker,mic,name,isin,country,domain,primary,rank,source,source_date
 *   etfs:     ticker,mic,name,isin,issuer,issuer_domain,source,source_date
 *   crypto:   symbol,name,domain,rank,source,source_date
 */
import { operatingMic } from '../exchanges.js';
import { completeRows } from './complete-rows.js';
import { checkedIsin } from './listing-checks.js';
import { makeEtf, makeListing } from './listing-row.js';
import type { FormatParser, ParseContext, ReferenceRecord } from './reference-record.js';

export const LISTING_COLUMNS = ['ticker', 'mic', 'name', 'isin', 'country', 'domain', 'primary', 'rank', 'source', 'source_date'] as const;
export const ETF_COLUMNS = ['ticker', 'mic', 'name', 'isin', 'issuer', 'issuer_domain', 'source', 'source_date'] as const;
export const CRYPTO_COLUMNS = ['symbol', 'name', 'domain', 'rank', 'source', 'source_date'] as const;

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

export const brandbaseListings: FormatParser = { name: 'brandbase-listings', source: 'brandbase', description: "Brandbase's listings CSV (the embedded set)", parse: parseListings };
export const brandbaseEtfs: FormatParser = { name: 'brandbase-etfs', source: 'brandbase', description: "Brandbase's ETFs CSV (the embedded set)", parse: parseEtfs };
export const brandbaseCrypto: FormatParser = { name: 'brandbase-crypto', source: 'brandbase', description: "Brandbase's crypto assets CSV (the embedded set)", parse: parseCrypto };
