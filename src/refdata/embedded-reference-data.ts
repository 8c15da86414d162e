/**
 * The embedded reference set shipped in refdata/embedded/ (built by scripts/build-refdata.ts; sources and
 * licences in refdata/embedded/ATTRIBUTION.md): loaded into a store that has no reference import yet, so a fresh
 * install answers the well-known tickers, ETFs and crypto symbols with no import. Every later start costs one
 * indexed read (`hasReferenceImports`).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ReferenceData } from './reference-data.js';
import { importReferenceFile } from './import/import-file.js';
import type { ImportReportJson } from './import/import-report.js';

/** Two levels below the repo root from src/refdata/ and from dist/chunks/ alike (scripts/build.mjs). */
const EMBEDDED = [
  { file: 'listings.csv.gz', format: 'brandbase-listings' },
  { file: 'etfs.csv.gz', format: 'brandbase-etfs' },
  { file: 'crypto.csv.gz', format: 'brandbase-crypto' },
] as const;

export function embeddedFile(name: string): string {
  return fileURLToPath(new URL(`../../refdata/embedded/${name}`, import.meta.url));
}

/** Loads the embedded set when no reference data was ever imported; returns the reports (empty when skipped). */
export async function loadEmbeddedReferenceData(refdata: ReferenceData): Promise<ImportReportJson[]> {
  if (await refdata.hasReferenceImports()) return [];
  const reports: ImportReportJson[] = [];
  for (const { file, format } of EMBEDDED) {
    const path = embeddedFile(file);
    // A build without the data folder (a stripped package) still starts; status shows nothing was loaded.
    if (!existsSync(path)) continue;
    // The tables are empty: one multi-row insert transaction per table, no per-row merge (well under a second).
    reports.push(await importReferenceFile(refdata, { file: path, format, intoEmpty: true }));
  }
  return reports;
}
