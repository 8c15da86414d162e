/**
 * Imports one file: opens it as a stream (gunzipped when it ends in .gz), runs the format's parser, writes its
 * records through the ReferenceData port in batches (one transaction each), records the import, and returns the
 * report. Memory stays bounded: at most one batch per table is held; the brand knowledge set, a snapshot replaced
 * as a whole, is the exception (some 13,000 short rows, written once at the end).
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { ReferenceData } from '../reference-data.js';
import { formatByName, FORMATS } from './formats.js';
import { ImportReport, type ImportReportJson } from './import-report.js';
import type { ReferenceRecord } from './reference-record.js';

export interface ImportOptions {
  file: string;
  format: string;
  /** YYYY-MM-DD; defaults to the file's modification date. */
  sourceDate?: string;
  /** Rows per transaction. */
  batchSize?: number;
  /**
   * Load into empty tables (the embedded set on a fresh store): all records of the file are collected and written
   * with `insertIntoEmpty` (one transaction per table, no merge). Only for small, clean, single-table files.
   */
  intoEmpty?: boolean;
  /** Called as the file is read: bytes read in the current pass, the file's size, and the pass (1 or 2). */
  onProgress?: (bytesRead: number, totalBytes: number) => void;
}

export class UnknownFormatError extends Error {
  constructor(format: string) {
    super(`unknown format "${format}"; one of: ${FORMATS.map((f) => f.name).join(', ')}`);
  }
}

function openFile(file: string, size: number, onProgress: ImportOptions['onProgress']): Readable {
  let read = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      read += chunk.length;
      onProgress?.(read, size);
      callback(null, chunk);
    },
  });
  const raw = createReadStream(file).pipe(counter);
  if (!file.endsWith('.gz')) return raw;
  return raw.pipe(createGunzip());
}

type Batches = { [K in ReferenceRecord['table']]: Extract<ReferenceRecord, { table: K }>['row'][] };

async function flush(refdata: ReferenceData, batches: Batches, report: ImportReport): Promise<void> {
  // Sequential on purpose: SQLite has one writer, and order keeps a later row of the file winning.
  if (batches.listings.length) report.addStoreCounts(await refdata.upsertListings(batches.listings.splice(0)));
  if (batches.etfs.length) report.addStoreCounts(await refdata.upsertEtfs(batches.etfs.splice(0)));
  if (batches.crypto.length) report.addStoreCounts(await refdata.upsertCryptoAssets(batches.crypto.splice(0)));
  if (batches.isinLei.length) report.addStoreCounts(await refdata.upsertIsinLeis(batches.isinLei.splice(0)));
  if (batches.leiDomains.length) report.addStoreCounts(await refdata.upsertLeiDomains(batches.leiDomains.splice(0)));
}

/** The brand knowledge set is a snapshot of its source: written once, whole, when the file is read (never per batch). */
async function flushBrands(refdata: ReferenceData, batches: Batches, report: ImportReport): Promise<void> {
  if (batches.brands.length) report.addStoreCounts(await refdata.replaceKnownBrands(batches.brands.splice(0)));
}

async function flushIntoEmpty(refdata: ReferenceData, batches: Batches, report: ImportReport): Promise<void> {
  if (batches.listings.length) report.addStoreCounts(await refdata.insertIntoEmpty({ table: 'listings', rows: batches.listings.splice(0) }));
  if (batches.etfs.length) report.addStoreCounts(await refdata.insertIntoEmpty({ table: 'etfs', rows: batches.etfs.splice(0) }));
  if (batches.crypto.length) report.addStoreCounts(await refdata.insertIntoEmpty({ table: 'crypto', rows: batches.crypto.splice(0) }));
  // The embedded formats yield no ISIN→LEI or LEI→website rows; any other table goes through the upsert.
  await flush(refdata, batches, report);
}

export async function importReferenceFile(refdata: ReferenceData, opts: ImportOptions): Promise<ImportReportJson> {
  const parser = formatByName(opts.format);
  if (parser === undefined) throw new UnknownFormatError(opts.format);
  const info = await stat(opts.file);
  const sourceDate = opts.sourceDate ?? (await parser.statedDate?.(opts.file)) ?? info.mtime.toISOString().slice(0, 10);
  const report = new ImportReport({ format: parser.name, source: parser.source, file: basename(opts.file), sourceDate });
  const ctx = { open: () => openFile(opts.file, info.size, opts.onProgress), path: opts.file, report, sourceDate, refdata };
  // Into empty tables the whole file is one batch: collected, then written by insertIntoEmpty.
  const batchSize = opts.intoEmpty ? Number.POSITIVE_INFINITY : (opts.batchSize ?? 1000);
  const batches: Batches = { listings: [], etfs: [], crypto: [], isinLei: [], leiDomains: [], brands: [] };
  let pending = 0;
  for await (const record of parser.parse(ctx)) {
    (batches[record.table] as ReferenceRecord['row'][]).push(record.row);
    if (record.table !== 'brands' && ++pending >= batchSize) {
      await flush(refdata, batches, report);
      pending = 0;
    }
  }
  await (opts.intoEmpty ? flushIntoEmpty(refdata, batches, report) : flush(refdata, batches, report));
  await flushBrands(refdata, batches, report);
  const json = report.toJSON();
  await refdata.recordReferenceImport({ source: parser.source, format: parser.name, file: json.file, sourceDate, importedAt: new Date(), report: JSON.stringify(json) });
  return json;
}
