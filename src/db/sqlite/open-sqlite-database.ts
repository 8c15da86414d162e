/**
 * The embedded backend: one SQLite file (better-sqlite3) through Kysely's SqliteDialect.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { createDatabase, type Database } from '../database.js';
import { sqliteQuirks } from './sqlite-quirks.js';

export interface SqliteDatabaseOptions {
  /** Path of the database file (its folder is created), or `:memory:`. */
  file: string;
}

/**
 * Opens (without migrating) the database. Open it once per process and share it between the store and the SQL job
 * queue: better-sqlite3 is synchronous, so a second handle in the same thread waiting for the write lock would block
 * the very thread that holds it (until busy_timeout). Other processes are fine.
 */
export async function openSqliteDatabase(opts: SqliteDatabaseOptions): Promise<Database> {
  if (opts.file !== ':memory:') await mkdir(dirname(opts.file), { recursive: true });
  const sqlite = new BetterSqlite3(opts.file);
  // WAL lets readers (API processes) run while a writer (a worker) commits; NORMAL is durable under WAL
  // except for the last transactions on power loss, never corrupting. busy_timeout makes a second process
  // wait for the write lock instead of failing at once.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  return createDatabase(new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) }), sqliteQuirks);
}
