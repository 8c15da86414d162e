/**
 * FinanceDatabase equities (`equities_slim.csv`, MIT): `symbol,name,exchange,mic,market,country,website,isin,…,
 * market_cap,…,delisted`. Known errors caught here: Tokyo's `XJPX` stored as `XTKS`; vendor suffixes stripped
 * (`7203.T` → `7203`); ADR ISINs dropped from foreign listings; IR subdomains reduced to the registrable domain;
 * websites copied onto unrelated companies dropped (first pass collects domains per name).
 */
import { countryCode } from '../countries.js';
import { exchangeCountry, micOfVendorSuffix, operatingMic, YAHOO_EXCHANGE_MICS } from '../exchanges.js';
import { stripVendorSuffix } from '../tickers.js';
import { websiteDomain } from '../website-domain.js';
import { completeRows } from './complete-rows.js';
import { csvRows } from './csv-records.js';
import { capRank, checkedIsin, CopiedWebsites, withoutAdrIsin } from './listing-checks.js';
import { makeListing, SeenKeys } from './listing-row.js';
import type { FormatParser, ParseContext, ReferenceRecord } from './reference-record.js';

/** MIC of a FinanceDatabase row (its `mic`, else its exchange code), reporting the XJPX fix. */
export function financeDatabaseMic(row: Record<string, string>, ctx: ParseContext): string | null {
  const raw = (row.mic ?? '').trim().toUpperCase();
  const mic = (raw ? operatingMic(raw) : null) ?? YAHOO_EXCHANGE_MICS[(row.exchange ?? '').trim()] ?? null;
  if (mic !== null && raw && raw !== mic) ctx.report.correct(`mic-${raw}-to-${mic}`, row.symbol ?? '');
  if (mic !== null || raw || row.exchange?.trim()) return mic;
  // No exchange at all (the snapshot's NAN.csv rows: `UMG.AS`): the vendor suffix names it.
  const fromSuffix = micOfVendorSuffix(row.symbol ?? '');
  if (fromSuffix !== null) ctx.report.correct('mic-from-symbol-suffix', row.symbol ?? '');
  return fromSuffix;
}

async function collectWebsites(ctx: ParseContext, nameColumn: string): Promise<CopiedWebsites> {
  const copied = new CopiedWebsites();
  for await (const { row } of csvRows(ctx.open())) {
    const domain = row ? websiteDomain(row.website) : null;
    if (row && domain) copied.observe(domain, row[nameColumn] ?? '');
  }
  return copied;
}

async function* parse(ctx: ParseContext): AsyncGenerator<ReferenceRecord> {
  const copied = await collectWebsites(ctx, 'name');
  const seen = new SeenKeys();
  for await (const row of completeRows(ctx, ['symbol', 'name'])) {
    if (row.delisted === 'True') {
      ctx.report.skip('delisted', row.symbol);
      continue;
    }
    const mic = financeDatabaseMic(row, ctx);
    if (mic === null) {
      ctx.report.skip('unknown-exchange', `${row.symbol} (${row.exchange})`);
      continue;
    }
    // A copied website comes with the copied company's labels (country, size class): drop those too.
    const copiedRow = copied.isCopied(websiteDomain(row.website), row.name);
    const country = copiedRow ? null : countryCode(row.country);
    const isin = withoutAdrIsin(checkedIsin(row.isin, ctx.report, row.symbol), country, exchangeCountry(mic), ctx.report, row.symbol);
    const domain = copied.check(websiteDomain(row.website), row.name, ctx.report, row.symbol);
    const ticker = stripVendorSuffix(row.symbol, mic);
    const rank = copiedRow ? 9 : capRank(row.market_cap);
    const listing = makeListing({ ticker, mic, name: row.name, isin, country, domain, rank, source: 'financedatabase', sourceDate: ctx.sourceDate });
    if (!seen.first(listing.tickerNorm, mic)) {
      ctx.report.skip('duplicate-in-file', row.symbol);
      continue;
    }
    yield { table: 'listings', row: listing };
  }
}

export const financeDatabaseEquities: FormatParser = {
  name: 'financedatabase-equities',
  source: 'financedatabase',
  description: 'FinanceDatabase equities CSV (equities_slim.csv or the upstream per-exchange files)',
  parse,
};

export { collectWebsites };
