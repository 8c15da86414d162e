/**
 * Streaming-import bench: generates a GLEIF-like `LEI,ISIN` CSV of N rows (1,000,000 by default) in a temp
 * folder, imports it in a child process into a temp SQLite store, and reports rows/s and the child's peak RSS
 * (`process.resourceUsage().maxRSS`, measured inside the child, which does nothing but the import).
 * Run alone: `node --import tsx bench/refdata-import.ts [rows]`; or call `benchRefdataImport()`.
 */
import { fork } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { isinCheckDigit } from '../src/domain/identifiers.js';

export interface RefdataImportResult {
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  peakRssMb: number;
  inserted: number;
}


async function generate(file: string, rows: number): Promise<void> {
  const out = createWriteStream(file);
  out.write('LEI,ISIN\n');
  for (let i = 0; i < rows; i++) {
    const body = `XS${String(i).padStart(9, '0')}`;
    const lei = `BENCH${String(i % 100_000).padStart(13, '0')}00`;
    if (!out.write(`${lei},${body}${isinCheckDigit(body)}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

async function child(file: string, dbFile: string): Promise<void> {
  const { openSqliteStore } = await import('../test/store/open-store.js');
  const { importReferenceFile } = await import('../src/refdata/import/import-file.js');
  const { migrate, close, stores } = await openSqliteStore({ file: dbFile });
  await migrate();
  const started = process.hrtime.bigint();
  const report = await importReferenceFile(stores.referenceData, { file, format: 'gleif-isin-lei', sourceDate: '2026-01-01', batchSize: 2000 });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await close();
  process.send?.({ seconds, inserted: report.inserted, rows: report.rowsRead, maxRssKb: process.resourceUsage().maxRSS });
}

export async function benchRefdataImport(rows = 1_000_000): Promise<RefdataImportResult> {
  const dir = await mkdtemp(path.join(tmpdir(), 'brandbase-refdata-bench-'));
  try {
    const file = path.join(dir, 'isin-lei.csv');
    await generate(file, rows);
    const proc = fork(import.meta.filename, ['--child', file, path.join(dir, 'bench.sqlite')], { execArgv: ['--import', 'tsx'] });
    const [message] = (await once(proc, 'message')) as [{ seconds: number; inserted: number; rows: number; maxRssKb: number }];
    await once(proc, 'exit');
    return { rows: message.rows, seconds: message.seconds, rowsPerSecond: Math.round(message.rows / message.seconds), peakRssMb: Math.round(message.maxRssKb / 1024), inserted: message.inserted };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') {
  await child(process.argv[3] ?? '', process.argv[4] ?? '');
} else if (import.meta.filename === path.resolve(process.argv[1] ?? '')) {
  const result = await benchRefdataImport(Number(process.argv[2] ?? 1_000_000));
  console.log(`refdata import (GLEIF-like CSV, streamed): ${result.rows} rows in ${result.seconds.toFixed(1)} s = ${result.rowsPerSecond} rows/s; peak RSS ${result.peakRssMb} MB`);
}
