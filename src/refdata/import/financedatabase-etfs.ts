/**
 * FinanceDatabase ETFs (`etfs_slim.csv`, MIT): `symbol,name,family,…,exchange,mic,isin,currency`. `family` names
 * the issuer (SPY → State Street Global Advisors); its domain comes from the curated table (etf-issuers.ts).
 */
import { etfIssuerDomain } from '../etf-issuers.js';
import { stripVendorSuffix } from '../tickers.js';
import { completeRows } from './complete-rows.js';
import { financeDatabaseMic } from './financedatabase-equities.js';
import { checkedIsin } from './listing-checks.js';
import { makeEtf, SeenKeys } from './listing-row.js';
import type { FormatParser, ParseContext, ReferenceRecord } from './reference-record.js';

async function* parse(ctx: ParseContext): AsyncGenerator<ReferenceRecord> {
  const seen = new SeenKeys();
  for await (const row of completeRows(ctx, ['symbol', 'name'])) {
    const mic = financeDatabaseMic(row, ctx);
    if (mic === null) {
      ctx.report.skip('unknown-exchange', `${row.symbol} (${row.exchange})`);
      continue;
    }
    const issuer = row.family?.trim() || null;
    const etf = makeEtf({
      ticker: stripVendorSuffix(row.symbol, mic),
      mic,
      name: row.name,
      isin: checkedIsin(row.isin, ctx.report, row.symbol),
      issuer,
      issuerDomain: etfIssuerDomain(issuer, row.name),
      source: 'financedatabase',
      sourceDate: ctx.sourceDate,
    });
    if (!seen.first(etf.tickerNorm, mic)) {
      ctx.report.skip('duplicate-in-file', row.symbol);
      continue;
    }
    yield { table: 'etfs', row: etf };
  }
}

export const financeDatabaseEtfs: FormatParser = { name: 'financedatabase-etfs', source: 'financedatabase', description: 'FinanceDatabase ETFs CSV (etfs_slim.csv)', parse };
