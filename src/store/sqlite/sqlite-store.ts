/**
 * The embedded backend: one SQLite file (better-sqlite3) through Kysely's SqliteDialect.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Store } from '../store.js';
import { KyselyStore } from '../kysely/kysely-store.js';
import type { Database } from '../kysely/schema.js';

export interface SqliteStoreOptions {
  /** Path of the database file (its folder is created), or `:memory:`. */
  file: string;
}

/**
 * Opens (without migrating) the database; `store.close()` closes `db` too. Open it once per process and share
 * `db` with the SQL job queue: better-sqlite3 is synchronous, so a second handle in the same thread waiting for
 * the write lock would block the very thread that holds it (until busy_timeout). Other processes are fine.
 */
export async function openSqliteStore(opts: SqliteStoreOptions): Promise<{ store: Store; db: Kysely<Database> }> {
  if (opts.file !== ':memory:') await mkdir(dirname(opts.file), { recursive: true });
  const sqlite = new BetterSqlite3(opts.file);
  // WAL lets readers (API processes) run while a writer (a worker) commits; NORMAL is durable under WAL
  // except for the last transactions on power loss, never corrupting. busy_timeout makes a second process
  // wait for the write lock instead of failing at once.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { store: new KyselyStore(db, { dialect: 'sqlite' }), db };
}
