import { csvRows } from './csv-records.js';
import type { ParseContext } from './reference-record.js';

/**
 * The CSV rows of the file being imported that have every `required` column filled; each row read is counted, and
 * a row with the wrong field count or an empty required column is reported as `malformed-row`.
 */
export async function* completeRows<K extends string>(ctx: ParseContext, required: readonly K[]): AsyncGenerator<Record<string, string> & Record<K, string>> {
  for await (const { line, row, fields } of csvRows(ctx.open())) {
    ctx.report.rowsRead += 1;
    if (row !== null && hasColumns(row, required)) yield row;
    else ctx.report.skip('malformed-row', `line ${line}: ${fields.slice(0, 3).join(',')}`);
  }
}

function hasColumns<K extends string>(row: Record<string, string>, required: readonly K[]): row is Record<string, string> & Record<K, string> {
  return required.every((column) => row[column]?.trim());
}
