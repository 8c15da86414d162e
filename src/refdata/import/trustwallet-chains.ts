/**
 * Trust Wallet `blockchains/<chain>/info/info.json` extracts (MIT): a JSON array of `{name, website, symbol, type, status}`.
 * Chains' native coins are the most prominent assets: rank by file order (1, 2, …), ahead of FinanceDatabase's.
 */
import { websiteDomain } from '../website-domain.js';
import { jsonArrayItems } from './json-array-items.js';
import type { FormatParser, ParseContext, ReferenceRecord } from './reference-record.js';
import { Readable } from 'node:stream';

/** The extract is a bare top-level array; wrapping it gives the streaming reader a key to find. */
function wrapped(ctx: ParseContext): Readable {
  async function* chunks(): AsyncGenerator<string> {
    yield '{"items":';
    const input = ctx.open();
    input.setEncoding('utf8');
    for await (const chunk of input as AsyncIterable<string>) yield chunk;
    yield '}';
  }
  return Readable.from(chunks());
}

async function* parse(ctx: ParseContext): AsyncGenerator<ReferenceRecord> {
  let rank = 0;
  for await (const item of jsonArrayItems(wrapped(ctx), 'items')) {
    ctx.report.rowsRead += 1;
    const entry = item as { name?: unknown; website?: unknown; symbol?: unknown; status?: unknown };
    if (typeof entry.symbol !== 'string' || typeof entry.name !== 'string' || !entry.symbol.trim()) {
      ctx.report.skip('malformed-row', JSON.stringify(item).slice(0, 120));
      continue;
    }
    if (entry.status !== undefined && entry.status !== 'active') {
      ctx.report.skip('inactive', entry.symbol);
      continue;
    }
    rank += 1;
    const domain = typeof entry.website === 'string' ? websiteDomain(entry.website) : null;
    yield { table: 'crypto', row: { symbol: entry.symbol.trim().toUpperCase(), name: entry.name.trim(), domain, rank, source: 'trustwallet', sourceDate: ctx.sourceDate } };
  }
}

export const trustwalletChains: FormatParser = { name: 'trustwallet-chains', source: 'trustwallet', description: 'Trust Wallet chain info extracts (JSON array)', parse };
