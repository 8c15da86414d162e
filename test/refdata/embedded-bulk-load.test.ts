/**
 * The fast load of the embedded set into empty tables (`insertIntoEmpty`) stores exactly what the field-merging
 * upserts store: the same rows, values, sources, dates and per-field provenance. Real SQLite files.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { embeddedFile } from '../../src/refdata/embedded-reference-data.js';
import { importReferenceFile } from '../../src/refdata/import/import-file.js';
import type { ReferenceDataTables } from '../../src/refdata/store/refdata-tables.js';
import { openSqliteStore } from '../store/open-store.js';

const FILES = [
  { file: 'listings.csv.gz', format: 'brandbase-listings', table: 'ref_listings' },
  { file: 'etfs.csv.gz', format: 'brandbase-etfs', table: 'ref_etfs' },
  { file: 'crypto.csv.gz', format: 'brandbase-crypto', table: 'ref_crypto_assets' },
] as const;

async function load(dir: string, intoEmpty: boolean): Promise<Record<string, unknown[]>> {
  const { migrate, close, stores, database } = await openSqliteStore({ file: path.join(dir, `${intoEmpty ? 'bulk' : 'upsert'}.sqlite`) });
  try {
    await migrate();
    const db = database.tables<ReferenceDataTables>();
    const tables: Record<string, unknown[]> = {};
    for (const { file, format, table } of FILES) {
      const report = await importReferenceFile(stores.referenceData, { file: embeddedFile(file), format, intoEmpty });
      expect(report.inserted).toBeGreaterThan(0);
      tables[table] = await db.selectFrom(table).selectAll().orderBy(table === 'ref_crypto_assets' ? 'symbol' : 'ticker_norm').orderBy(table === 'ref_crypto_assets' ? 'name' : 'mic').execute();
    }
    return tables;
  } finally {
    await close();
  }
}

describe('the embedded set loaded into empty tables', () => {
  it('holds exactly what the upserts would have written', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'brandbase-bulk-'));
    try {
      const bulk = await load(dir, true);
      const upserted = await load(dir, false);
      for (const { table } of FILES) {
        expect(bulk[table]?.length, table).toBe(upserted[table]?.length);
        expect(bulk[table], table).toEqual(upserted[table]);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
