/**
 * What a format parser yields, and what it is given. One parser per format (one file each); import-file.ts picks
 * it by name, batches the records per table and writes them through the ReferenceData port.
 */
import type { Readable } from 'node:stream';
import type { CryptoAsset, Etf, IsinLei, LeiDomain, Listing, ReferenceData } from '../reference-data.js';
import type { ImportReport } from './import-report.js';

export type ReferenceRecord =
  | { table: 'listings'; row: Listing }
  | { table: 'etfs'; row: Etf }
  | { table: 'crypto'; row: CryptoAsset }
  | { table: 'isinLei'; row: IsinLei }
  | { table: 'leiDomains'; row: LeiDomain };

export interface ParseContext {
  /** Opens the file (decompressed) from the start; formats that need two passes call it twice. */
  open(): Readable;
  report: ImportReport;
  /** The file's date (YYYY-MM-DD) for rows that carry none. */
  sourceDate: string;
  /** Reads the store, for formats that cross-check against what is already imported. */
  refdata: ReferenceData;
}

export interface FormatParser {
  /** `--format` name. */
  name: string;
  /** The source recorded on every row (provenance), unless the rows carry their own. */
  source: string;
  description: string;
  parse(ctx: ParseContext): AsyncIterable<ReferenceRecord>;
}
