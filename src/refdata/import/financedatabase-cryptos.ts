/**
 * FinanceDatabase cryptos (`cryptos.csv`, MIT): one row per trading pair (`AAVE-CAD`), `cryptocurrency` is the
 * asset's symbol. One asset per symbol; with no market data, an asset traded in more pairs ranks higher (first
 * pass counts pairs). The name drops the quote currency ("Aave CAD" → "Aave").
 */
import { websiteDomain } from '../website-domain.js';
import { csvRows } from './csv-records.js';
import type { FormatParser, ParseContext, ReferenceRecord } from './reference-record.js';

async function countPairs(ctx: ParseContext): Promise<Map<string, number>> {
  const pairs = new Map<string, number>();
  for await (const { row } of csvRows(ctx.open())) {
    const symbol = row?.cryptocurrency?.trim().toUpperCase();
    if (symbol) pairs.set(symbol, (pairs.get(symbol) ?? 0) + 1);
  }
  return pairs;
}

function assetName(row: Record<string, string>): string {
  const name = (row.name ?? '').trim();
  const currency = (row.currency ?? '').trim();
  return currency && name.endsWith(` ${currency}`) ? name.slice(0, -currency.length - 1) : name;
}

async function* parse(ctx: ParseContext): AsyncGenerator<ReferenceRecord> {
  const pairs = await countPairs(ctx);
  const done = new Set<string>();
  for await (const { line, row, fields } of csvRows(ctx.open())) {
    ctx.report.rowsRead += 1;
    const symbol = row?.cryptocurrency?.trim().toUpperCase();
    if (row === null || !symbol || !assetName(row)) {
      ctx.report.skip('malformed-row', `line ${line}: ${fields.slice(0, 3).join(',')}`);
      continue;
    }
    if (done.has(symbol)) {
      ctx.report.skip('another-pair-of-the-asset', row.symbol ?? symbol);
      continue;
    }
    done.add(symbol);
    const rank = 1000 - Math.min(pairs.get(symbol) ?? 0, 900);
    yield { table: 'crypto', row: { symbol, name: assetName(row), domain: websiteDomain(row.website), rank, source: 'financedatabase', sourceDate: ctx.sourceDate } };
  }
}

export const financeDatabaseCryptos: FormatParser = { name: 'financedatabase-cryptos', source: 'financedatabase', description: 'FinanceDatabase cryptos CSV (one row per pair)', parse };
