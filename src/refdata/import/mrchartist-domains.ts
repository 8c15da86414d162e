/**
 * MrChartist/global-stock-logos `domains-us` (MIT): `{"ticker_to_domain": {"AAPL": "apple.com", …}}`, curated US
 * ticker → domain pairs, the most trusted domains we have. There is no exchange: each pair sets the domain of the
 * ticker's US listings already imported (import it after the listings); a ticker with none is reported.
 */
import { exchangeCountry } from '../exchanges.js';
import { normalizeTicker } from '../tickers.js';
import { websiteDomain } from '../website-domain.js';
import type { FormatParser, ParseContext, ReferenceRecord } from './reference-record.js';

/** Reads `"ticker_to_domain": {...}` as one object: a small curated file (a few KB), so no streaming is needed. */
async function pairs(ctx: ParseContext): Promise<[string, unknown][]> {
  let text = '';
  const input = ctx.open();
  input.setEncoding('utf8');
  for await (const chunk of input as AsyncIterable<string>) text += chunk;
  const parsed = JSON.parse(text) as { ticker_to_domain?: Record<string, unknown> };
  return Object.entries(parsed.ticker_to_domain ?? {});
}

async function* parse(ctx: ParseContext): AsyncGenerator<ReferenceRecord> {
  for (const [ticker, value] of await pairs(ctx)) {
    ctx.report.rowsRead += 1;
    const domain = typeof value === 'string' ? websiteDomain(value) : null;
    if (domain === null) {
      ctx.report.skip('malformed-row', `${ticker}: ${String(value)}`);
      continue;
    }
    const listings = (await ctx.refdata.listingsByTicker(normalizeTicker(ticker))).filter((l) => exchangeCountry(l.mic) === 'US');
    if (listings.length === 0) {
      ctx.report.skip('no-us-listing', ticker);
      continue;
    }
    for (const listing of listings) yield { table: 'listings', row: { ...listing, domain, source: 'mrchartist', sourceDate: ctx.sourceDate } };
  }
}


export const mrchartistDomains: FormatParser = { name: 'mrchartist-domains', source: 'mrchartist', description: 'MrChartist curated US ticker→domain JSON', parse };
