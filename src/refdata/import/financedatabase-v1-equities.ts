/**
 * FinanceDatabase's 2022 snapshot (`equities_v1_2022.csv`, MIT): `symbol,long_name,exchange,market,country,
 * website`, with Yahoo exchange codes (NMS, NYQ, JPX, …). Stale: the least trusted source (source-trust.ts), so it
 * only fills fields the others leave empty. Same checks as the current equities file (copied websites, suffixes).
 */
import { countryCode } from '../countries.js';
import { YAHOO_EXCHANGE_MICS } from '../exchanges.js';
import { stripVendorSuffix } from '../tickers.js';
import { websiteDomain } from '../website-domain.js';
import { completeRows } from './complete-rows.js';
import { collectWebsites } from './financedatabase-equities.js';
import { makeListing, SeenKeys } from './listing-row.js';
import type { FormatParser, ParseContext, ReferenceRecord } from './reference-record.js';

async function* parse(ctx: ParseContext): AsyncGenerator<ReferenceRecord> {
  const copied = await collectWebsites(ctx, 'long_name');
  const seen = new SeenKeys();
  for await (const row of completeRows(ctx, ['symbol', 'long_name'])) {
    const mic = YAHOO_EXCHANGE_MICS[(row.exchange ?? '').trim()];
    if (mic === undefined) {
      ctx.report.skip('unknown-exchange', `${row.symbol} (${row.exchange})`);
      continue;
    }
    const domain = copied.check(websiteDomain(row.website), row.long_name, ctx.report, row.symbol);
    const ticker = stripVendorSuffix(row.symbol, mic);
    const listing = makeListing({ ticker, mic, name: row.long_name, isin: null, country: countryCode(row.country), domain, rank: 9, source: 'financedatabase-v1-2022', sourceDate: ctx.sourceDate });
    if (!seen.first(listing.tickerNorm, mic)) {
      ctx.report.skip('duplicate-in-file', row.symbol);
      continue;
    }
    yield { table: 'listings', row: listing };
  }
}

export const financeDatabaseV1Equities: FormatParser = {
  name: 'financedatabase-v1-equities',
  source: 'financedatabase-v1-2022',
  description: 'FinanceDatabase 2022 equities CSV (symbol,long_name,exchange,market,country,website)',
  parse,
};
