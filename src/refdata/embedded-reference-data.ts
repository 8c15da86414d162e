/**
 * The embedded reference set shipped in refdata/embedded/ (built by scripts/build-refdata.ts and, for the brand
 * knowledge set, scripts/build-nsi.ts; sources and licences in refdata/embedded/ATTRIBUTION.md): loaded into a store
 * that has no reference import yet, so a fresh install answers the well-known tickers, ETFs and crypto symbols with no
 * import; the knowledge set into a store that holds no known brand yet (a new store, or one made before the set
 * shipped). Every later start costs two indexed reads (`hasReferenceImports`, `hasKnownBrands`).
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

/** The brand knowledge set (name-suggestion-index brands with their websites). */
const BRANDS = { file: 'brands-nsi.csv.gz', format: 'brandbase-brands' } as const;

export function embeddedFile(name: string): string {
  return fileURLToPath(new URL(`../../refdata/embedded/${name}`, import.meta.url));
}

/**
 * Loads the embedded set when no reference data was ever imported, and the knowledge set when no known brand is held;
 * returns the reports (empty when both were skipped).
 */
export async function loadEmbeddedReferenceData(refdata: ReferenceData): Promise<ImportReportJson[]> {
  const reports: ImportReportJson[] = [];
  const needsBrands = !(await refdata.hasKnownBrands());
  const needsReference = !(await refdata.hasReferenceImports());
  for (const { file, format } of [...(needsReference ? EMBEDDED : []), ...(needsBrands ? [BRANDS] : [])]) {
    const path = embeddedFile(file);
    // A build without the data folder (a stripped package) still starts; status shows nothing was loaded.
    if (!existsSync(path)) continue;
    // The tables are empty: one multi-row insert transaction per table, no per-row merge (well under a second).
    reports.push(await importReferenceFile(refdata, { file: path, format, intoEmpty: true }));
  }
  return reports;
}
