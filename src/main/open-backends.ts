import path from 'node:path';
import type { Config } from '../config/config.js';
import type { JobQueue } from '../jobs/queue.js';
import { SqlJobQueue } from '../jobs/sql/sql-job-queue.js';
import type { Store } from '../store/store.js';
import { openPostgresStore } from '../store/postgres/postgres-store.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';

export interface Backends {
  store: Store;
  queue: JobQueue;
  close(): Promise<void>;
}

/**
 * The embedded default is one SQLite file (WAL) in the data dir holding brands, accounts, the usage ledger and
 * the job queue. With BRANDBASE_DATABASE_URL set, the same tables live in PostgreSQL (scale-out).
 * Migrations are applied here, on every start; they are idempotent.
 */
export async function openBackends(config: Readonly<Config>): Promise<Backends> {
  if (config.databaseUrl) {
    const { store, db } = await openPostgresStore({ url: config.databaseUrl });
    await store.migrate();
    return { store, queue: new SqlJobQueue(db, 'postgres'), close: () => store.close() };
  }
  const { store, db } = await openSqliteStore({ file: path.join(config.dataDir, 'brandbase.sqlite') });
  await store.migrate();
  return { store, queue: new SqlJobQueue(db, 'sqlite'), close: () => store.close() };
}
