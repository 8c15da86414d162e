/**
 * What a format parser yields, and what it is given. One parser per format (one file each); import-file.ts picks
 * it by name, batches the records per table and writes them through the ReferenceData port.
 */
import type { Readable } from 'node:stream';
import type { CryptoAsset, Etf, IsinLei, KnownBrand, LeiDomain, Listing, ReferenceData } from '../reference-data.js';
import type { ImportReport } from './import-report.js';

export type ReferenceRecord =
  | { table: 'listings'; row: Listing }
  | { table: 'etfs'; row: Etf }
  | { table: 'crypto'; row: CryptoAsset }
  | { table: 'isinLei'; row: IsinLei }
  | { table: 'leiDomains'; row: LeiDomain }
  /** A brand of the knowledge set: the file is its source's whole snapshot (written with `replaceKnownBrands` at the end). */
  | { table: 'brands'; row: KnownBrand };

export interface ParseContext {
  /** Opens the file (decompressed) from the start; formats that need two passes call it twice. */
  open(): Readable;
  /** The path given to the import (a folder for formats that read one, such as `nsi`). */
  path: string;
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
  /** The date the source itself states (YYYY-MM-DD), used when none is given; else the file's modification date. */
  statedDate?(path: string): Promise<string | null>;
}
