/**
 * Builds the embedded brand knowledge set, refdata/embedded/brands-nsi.csv.gz, from an unpacked name-suggestion-index
 * npm package (BSD-3-Clause; its Wikidata extract is CC0), with the same reader as `brandbase refdata import --format
 * nsi` (src/refdata/import/nsi-brands.ts), and prints what was kept and what was dropped, per reason.
 *
 *   cd /tmp && npm pack name-suggestion-index@8.0.20260918 && tar xzf name-suggestion-index-8.0.20260918.tgz
 *   npm run build:nsi -- /tmp/package [out.csv.gz]
 *
 * docs/reference-data.md "Brand knowledge set" records the figures of the shipped file.
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { ImportReport } from '../src/refdata/import/import-report.js';
import { BRAND_COLUMNS, brandCsvRow } from '../src/refdata/import/embedded-tables.js';
import { nsiBrands, nsiGeneratedDate } from '../src/refdata/import/nsi-brands.js';
import { NotAnNsiPackageError, nsiPackageFiles } from '../src/refdata/import/nsi-package.js';

const DEFAULT_OUT = path.join(import.meta.dirname, '../refdata/embedded/brands-nsi.csv.gz');

function cell(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Reads the package in `dir`, writes the gzipped CSV to `out`; returns the report and the figures printed. */
export async function buildNsi(dir: string, out: string): Promise<{ report: ReturnType<ImportReport['toJSON']>; brands: number; bytes: number }> {
  const files = nsiPackageFiles(dir);
  if (files === null) throw new NotAnNsiPackageError(dir);
  const nsi: unknown = JSON.parse(await readFile(files.nsi, 'utf8'));
  const wikidata: unknown = JSON.parse(await readFile(files.wikidata, 'utf8'));
  const sourceDate = nsiGeneratedDate(nsi) ?? (await stat(files.nsi)).mtime.toISOString().slice(0, 10);
  const report = new ImportReport({ format: 'nsi', source: 'nsi', file: path.basename(dir), sourceDate });
  const brands = nsiBrands({ nsi, wikidata }, report, { source: 'nsi', sourceDate });
  const lines = [BRAND_COLUMNS.join(','), ...brands.map((b) => BRAND_COLUMNS.map((c) => cell(brandCsvRow(b)[c])).join(','))];
  const gz = gzipSync(`${lines.join('\n')}\n`, { level: 9 });
  await writeFile(out, gz);
  return { report: report.toJSON(), brands: brands.length, bytes: gz.length };
}

async function main(): Promise<void> {
  const dir = process.argv[2];
  if (!dir) {
    process.stderr.write('usage: npm run build:nsi -- <unpacked name-suggestion-index package folder> [out.csv.gz]\n');
    process.exitCode = 2;
    return;
  }
  const out = path.resolve(process.argv[3] ?? DEFAULT_OUT);
  const { report, brands, bytes } = await buildNsi(path.resolve(dir), out);
  const lines = [`name-suggestion-index ${report.sourceDate}: ${report.rowsRead} items of the brands/ tree read, ${brands} brands kept`];
  for (const [reason, t] of Object.entries(report.skipped).sort((a, b) => b[1].count - a[1].count)) lines.push(`  dropped ${reason}: ${t.count} (e.g. ${t.examples.slice(0, 2).join('; ')})`);
  for (const [reason, t] of Object.entries(report.corrected).sort((a, b) => b[1].count - a[1].count)) lines.push(`  corrected ${reason}: ${t.count} (e.g. ${t.examples.slice(0, 2).join('; ')})`);
  lines.push(`wrote ${out}: ${bytes} bytes`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

if (import.meta.filename === path.resolve(process.argv[1] ?? '')) await main();
