/**
 * free-ticker-database `identifiers.csv` (MIT): `ticker,isin,wkn`, no exchange. Used as a second source for
 * ISINs already imported: a listing of the ticker that holds the same ISIN is confirmed; a listing of the ticker
 * in the ISIN's country without an ISIN gets it; a listing holding a different ISIN is a contradiction, settled
 * by the store's merge (the ISIN of the listing's own country wins). Import it after the listings.
 */
import { exchangeCountry } from '../exchanges.js';
import { normalizeTicker } from '../tickers.js';
import { csvRows } from './csv-records.js';
import { checkedIsin } from './listing-checks.js';
import type { FormatParser, ParseContext, ReferenceRecord } from './reference-record.js';

async function* parse(ctx: ParseContext): AsyncGenerator<ReferenceRecord> {
  for await (const { line, row, fields } of csvRows(ctx.open())) {
    ctx.report.rowsRead += 1;
    if (row === null || !row.ticker?.trim()) {
      ctx.report.skip('malformed-row', `line ${line}: ${fields.join(',')}`);
      continue;
    }
    const isin = checkedIsin(row.isin, ctx.report, row.ticker);
    if (isin === null) {
      ctx.report.skip('no-valid-isin', row.ticker);
      continue;
    }
    const listings = (await ctx.refdata.listingsByTicker(normalizeTicker(row.ticker))).filter((l) => exchangeCountry(l.mic) === isin.slice(0, 2));
    if (listings.length === 0) {
      ctx.report.skip('no-listing-in-the-isin-country', `${row.ticker}: ${isin}`);
      continue;
    }
    for (const listing of listings) {
      yield { table: 'listings', row: { ...listing, isin, source: 'free-ticker-database', sourceDate: ctx.sourceDate } };
    }
  }
}

export const freeTickerIdentifiers: FormatParser = {
  name: 'free-ticker-identifiers',
  source: 'free-ticker-database',
  description: 'free-ticker-database identifiers.csv (ticker,isin,wkn), cross-checks imported listings',
  parse,
};
