/**
 * SEC EDGAR `company_tickers_exchange.json`: `{"fields":["cik","name","ticker","exchange"],"data":[[...],...]}`,
 * about 10,000 US tickers (share classes with a dash: BRK-B). Streamed element by element like every format,
 * though at ~1 MB a whole-file JSON.parse would also be acceptable. No country, no website: the SEC lists foreign
 * private issuers' ADRs too, so a row is not marked primary; other sources' rows for the same ticker add that.
 */
import { SEC_EXCHANGE_MICS } from '../exchanges.js';
import { jsonArrayItems } from './json-array-items.js';
import { makeListing, SeenKeys } from './listing-row.js';
import type { FormatParser, ParseContext, ReferenceRecord } from './reference-record.js';

async function* parse(ctx: ParseContext): AsyncGenerator<ReferenceRecord> {
  const seen = new SeenKeys();
  for await (const item of jsonArrayItems(ctx.open(), 'data')) {
    ctx.report.rowsRead += 1;
    const [cik, name, ticker, exchange] = Array.isArray(item) ? (item as unknown[]) : [];
    const example = JSON.stringify(item);
    if (typeof name !== 'string' || typeof ticker !== 'string' || !ticker.trim() || !name.trim() || typeof cik !== 'number') {
      ctx.report.skip('malformed-row', example);
      continue;
    }
    const mic = typeof exchange === 'string' ? SEC_EXCHANGE_MICS[exchange] : undefined;
    if (mic === undefined) {
      ctx.report.skip('unknown-exchange', example);
      continue;
    }
    const row = makeListing({ ticker, mic, name, isin: null, country: null, domain: null, primary: false, rank: 9, source: 'sec', sourceDate: ctx.sourceDate });
    if (!seen.first(row.tickerNorm, mic)) {
      ctx.report.skip('duplicate-in-file', example);
      continue;
    }
    yield { table: 'listings', row };
  }
}

export const secTickersExchange: FormatParser = {
  name: 'sec-company-tickers-exchange',
  source: 'sec',
  description: 'SEC EDGAR company_tickers_exchange.json (US listings)',
  parse,
};
