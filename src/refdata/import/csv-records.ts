/**
 * A streaming CSV reader (RFC 4180: quoted fields, doubled quotes, newlines inside quotes, CRLF). It holds one
 * record at a time, so a 9-million-row file is read in bounded memory.
 */
import type { Readable } from 'node:stream';

/** The characters the reader acts on outside quotes; everything between them is copied as one slice. */
const SPECIAL = /[",\r\n]/g;

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
    let i = 0;
    while (i < chunk.length) {
      if (quoted) {
        // Up to the next quote in one slice (a field's text, newlines included).
        const q = chunk.indexOf('"', i);
        const end = q < 0 ? chunk.length : q;
        for (let n = chunk.indexOf('\n', i); n >= 0 && n < end; n = chunk.indexOf('\n', n + 1)) line += 1;
        field += chunk.slice(i, end);
        i = end;
        if (q >= 0) {
          quoted = false;
          afterQuote = true;
          i += 1;
        }
        continue;
      }
      // Ordinary characters up to the next quote, comma or line break in one slice, not one string per character.
      SPECIAL.lastIndex = i;
      const found = SPECIAL.exec(chunk);
      const end = found === null ? chunk.length : found.index;
      if (end > i) {
        pendingCr = false;
        field += chunk.slice(i, end);
        afterQuote = false;
        i = end;
        continue;
      }
      const c = chunk[i] as string;
      i += 1;
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
      } else {
        // A line break: \n, \r, or \r\n (one break).
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
