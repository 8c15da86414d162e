/**
 * The two store backends an HTTP or end-to-end suite runs on (issue 32 item 7): the embedded SQLite file and a
 * PostgreSQL schema of its own per file. `describeEachBackend` runs a suite once per backend; `openBackendDatabase`
 * gives the database a stack (`startTestStack(env, { backend })`) or a `brandbase` process is pointed at.
 */
import type { Kysely } from 'kysely';
import type { Database } from './all-tables.js';
import { openPostgresStore, openSqliteStore, type OpenedStore } from '../store/open-store.js';
import { PG_URL, tempPostgres, tempSqlite, type TempDatabase } from '../store/temp-database.js';
import { always, needsPostgres } from './optional.js';
import { sharedPostgres, sharedSqlite, type SharedDatabase } from './shared-database.js';

export type Backend = 'sqlite' | 'postgres';
export const BACKENDS: readonly Backend[] = ['sqlite', 'postgres'];

/** A fresh database on `backend`: a temp data folder on SQLite; a fresh, migrated schema (and a data folder) on PostgreSQL. */
export function openBackendDatabase(backend: Backend): Promise<SharedDatabase> {
  return backend === 'sqlite' ? sharedSqlite() : sharedPostgres(postgresUrl());
}

/** A throw-away store of `backend` for a suite that wires the services itself: a SQLite file, or a fresh PostgreSQL schema. */
export function tempDatabase(backend: Backend): Promise<TempDatabase> {
  return backend === 'sqlite' ? tempSqlite() : tempPostgres(postgresUrl());
}

function postgresUrl(): string {
  if (PG_URL === undefined) throw new Error('no PostgreSQL to run on: the suite should have been skipped (describeEachBackend)');
  return PG_URL;
}

/** Another connection to `database` from this process (its own pool or SQLite handle): the stores, and Kysely below them. */
export function connectTo(database: SharedDatabase): Promise<OpenedStore> {
  const spec = database.peerSpec;
  return spec.kind === 'sqlite' ? openSqliteStore({ file: spec.file }) : openPostgresStore({ url: spec.url, schema: spec.schema });
}

/**
 * Runs `read` on another connection to `database` (closed after), for checks below the store port; `Tables` types the
 * handle with a product's own tables (e.g. webhooks/store/webhook-tables.ts).
 */
export async function queryDatabase<T, Tables = Database>(database: SharedDatabase, read: (db: Kysely<Tables>) => Promise<T>): Promise<T> {
  const { database: kernel } = await connectTo(database);
  try {
    return await read(kernel.tables<Tables>());
  } finally {
    await kernel.close();
  }
}

/**
 * Declares `suite` once per backend, as `<title> [sqlite]` and `<title> [postgres]`. The PostgreSQL variant carries the
 * `postgres` tag and is skipped when no PostgreSQL answers, so the end-of-run report counts every test it did not run.
 * This is the one place the backends' conditional skip is decided.
 */
export function describeEachBackend(title: string, suite: (backend: Backend) => void): void {
  for (const backend of BACKENDS) {
    (backend === 'postgres' ? needsPostgres : always).describe(`${title} [${backend}]`, () => suite(backend));
  }
}
