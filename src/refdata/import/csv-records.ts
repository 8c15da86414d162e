/**
 * A streaming CSV reader (RFC 4180: quoted fields, doubled quotes, newlines inside quotes, CRLF). It holds one
 * record at a time, so a 9-million-row file is read in bounded memory.
 */
import type { Readable } from 'node:stream';

/** Yields each record's fields; `line` is the 1-based line number where the record starts. */
export async function* csvRecords(input: Readable): AsyncGenerator<{ line: number; fields: string[] }> {
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let afterQuote = false;
  let line = 1;
  let start = 1;
  let pendingCr = false;
  input.setEncoding('utf8');
  for await (const chunk of input as AsyncIterable<string>) {
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i] as string;
      if (quoted) {
        if (c === '"') {
          quoted = false;
          afterQuote = true;
        } else {
          if (c === '\n') line += 1;
          field += c;
        }
        continue;
      }
      if (pendingCr && c !== '\n') pendingCr = false;
      if (c === '"') {
        // A quote re-opened right after a closing quote is an escaped quote ("").
        if (afterQuote) field += '"';
        quoted = true;
        afterQuote = false;
      } else if (c === ',') {
        fields.push(field);
        field = '';
        afterQuote = false;
      } else if (c === '\n' || c === '\r') {
        if (c === '\n' && pendingCr) {
          pendingCr = false;
          continue;
        }
        pendingCr = c === '\r';
        fields.push(field);
        yield { line: start, fields };
        fields = [];
        field = '';
        afterQuote = false;
        line += 1;
        start = line;
      } else {
        field += c;
        afterQuote = false;
      }
    }
  }
  if (field !== '' || fields.length > 0) {
    fields.push(field);
    yield { line: start, fields };
  }
}

/**
 * Records as objects keyed by the header row. A record whose field count differs from the header's is passed
 * with `fields` only (`row` null) so the caller can report it as malformed; blank lines are dropped.
 */
export async function* csvRows(input: Readable): AsyncGenerator<{ line: number; row: Record<string, string> | null; fields: string[] }> {
  let header: string[] | null = null;
  for await (const { line, fields } of csvRecords(input)) {
    if (fields.length === 1 && fields[0] === '') continue;
    if (header === null) {
      header = fields.map((h) => h.trim().replace(/^\uFEFF/, ''));
      continue;
    }
    if (fields.length !== header.length) {
      yield { line, row: null, fields };
      continue;
    }
    const row: Record<string, string> = {};
    header.forEach((name, i) => (row[name] = fields[i] ?? ''));
    yield { line, row, fields };
  }
}
