/**
 * GLEIF's ISIN→LEI relation file: a CSV with the header `LEI,ISIN`, about 9 million rows (unzip the download
 * first, or pass it gzipped). Streamed record by record; no per-file key set (9 million keys would not be
 * bounded memory): a repeated row is counted `unchanged` by the store instead.
 */
import { isValidIsin } from '../../domain/identifiers.js';
import { csvRows } from './csv-records.js';
import type { FormatParser, ParseContext, ReferenceRecord } from './reference-record.js';

const LEI = /^[A-Z0-9]{18}[0-9]{2}$/;

async function* parse(ctx: ParseContext): AsyncGenerator<ReferenceRecord> {
  for await (const { line, row, fields } of csvRows(ctx.open())) {
    ctx.report.rowsRead += 1;
    const lei = row?.LEI?.trim().toUpperCase() ?? '';
    const isin = row?.ISIN?.trim().toUpperCase() ?? '';
    if (row === null || !lei || !isin) {
      ctx.report.skip('malformed-row', `line ${line}: ${fields.join(',')}`);
    } else if (!LEI.test(lei)) {
      ctx.report.skip('malformed-lei', `line ${line}: ${lei}`);
    } else if (!isValidIsin(isin)) {
      ctx.report.skip('bad-isin-check-digit', `line ${line}: ${isin}`);
    } else {
      yield { table: 'isinLei', row: { isin, lei, source: 'gleif', sourceDate: ctx.sourceDate } };
    }
  }
}

export const gleifIsinLei: FormatParser = { name: 'gleif-isin-lei', source: 'gleif', description: 'GLEIF ISIN→LEI mapping CSV (LEI,ISIN)', parse };
