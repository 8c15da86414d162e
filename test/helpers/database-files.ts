/**
 * The SQLite files of a data folder, read for a byte scan ("this secret is stored nowhere"). A scan that read no
 * file, or an empty one, would pass whatever is stored: this helper fails unless the database file is there and
 * holds bytes, and reads its write-ahead log too when there is one (recent writes live there until a checkpoint).
 * On PostgreSQL the scan reads every row of every table of the schema, as text (`readStoredData`).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { expect } from 'vitest';
import type { Database } from './all-tables.js';
import { queryDatabase } from './backends.js';
import type { SharedDatabase } from './shared-database.js';

export const SQLITE_FILE = 'brandbase.sqlite';

export interface DatabaseFile {
  file: string;
  bytes: Buffer;
}

export async function readDatabaseFiles(dataDir: string, name = SQLITE_FILE): Promise<DatabaseFile[]> {
  const present = await readdir(dataDir);
  expect(present, `the database file ${name} in ${dataDir}`).toContain(name);
  const names = [name, `${name}-wal`].filter((file) => present.includes(file));
  const files = await Promise.all(names.map(async (file) => ({ file, bytes: await readFile(path.join(dataDir, file)) })));
  expect(files[0]?.bytes.length, `bytes in ${name}`).toBeGreaterThan(0);
  return files;
}

/** The files (of those read) whose bytes contain `needle`. */
export function filesContaining(files: DatabaseFile[], needle: string): string[] {
  return files.filter(({ bytes }) => bytes.includes(Buffer.from(needle))).map(({ file }) => file);
}

/**
 * What `database` holds, for a byte scan, on either backend: its SQLite files, or on PostgreSQL one entry per table
 * of its schema holding every row as text. Fails unless something was read.
 */
export async function readStoredData(database: SharedDatabase): Promise<DatabaseFile[]> {
  if (database.backend === 'sqlite') return readDatabaseFiles(database.dataDir);
  const tables = await queryDatabase(database, (db) => rowsAsText(db));
  expect(tables.some(({ bytes }) => bytes.length > 0), 'rows in the PostgreSQL schema').toBe(true);
  return tables;
}

async function rowsAsText(db: Kysely<Database>): Promise<DatabaseFile[]> {
  const { rows: names } = await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(db);
  return Promise.all(
    names.map(async ({ name }) => {
      const { rows } = await sql<{ row: string }>`select t::text as row from ${sql.table(name)} t`.execute(db);
      return { file: name, bytes: Buffer.from(rows.map((r) => r.row).join('\n')) };
    }),
  );
}
