/**
 * Throw-away real databases for the contract suites: a SQLite file in a fresh temp folder, or a fresh
 * PostgreSQL schema (`t_<random>`) dropped on cleanup. No mocks.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import pg from 'pg';
import type { Database as KernelDatabase } from '../../src/db/database.js';
import { POSTGRES_URL } from '../helpers/optional.js';
import type { Database } from '../helpers/all-tables.js';
import { openPostgresStore, openSqliteStore, type OpenedStore } from './open-store.js';
import type { ProductStores } from '../../src/main/product-stores.js';

/** Which backend a suite runs on: for the few assertions that read each backend's own catalog (query plans). */
export type TestDialect = 'sqlite' | 'postgres';

export interface TempDatabase {
  /** Every product's store over `database`, as main/ builds them (main/product-stores.ts). */
  stores: ProductStores;
  /** The kernel's handle the store runs on: give it to the job queue (`new SqlJobQueue(temp.database)`). */
  database: KernelDatabase;
  db: Kysely<Database>;
  /** Applies every product's pending migrations (main/'s list) to `database`. */
  migrate(): Promise<void>;
  dialect: TestDialect;
  /** Another, independent connection (pool / better-sqlite3 handle) to the same database; closed by cleanup. */
  openPeer(): Promise<OpenedStore>;
  cleanup(): Promise<void>;
}

/**
 * The PostgreSQL the suites may create and drop schemas in, as probed once per run by test/setup/global-setup.ts:
 * BRANDBASE_TEST_PG_URL, or the default local server when one answers; undefined (suites skipped, and the run says
 * so) when none does or BRANDBASE_TEST_PG_URL=off. Suites gate on it with needsPostgres (test/helpers/optional.ts).
 */
export const PG_URL: string | undefined = POSTGRES_URL ?? undefined;

export async function tempSqlite(): Promise<TempDatabase & { file: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'brandbase-store-'));
  const file = join(dir, 'nested', 'brandbase.db');
  const peers: KernelDatabase[] = [];
  const { stores, database, db, migrate } = await openSqliteStore({ file });
  return {
    stores,
    database,
    db,
    migrate,
    file,
    dialect: 'sqlite',
    async openPeer() {
      const peer = await openSqliteStore({ file });
      peers.push(peer.database);
      return peer;
    },
    async cleanup() {
      for (const peer of peers) await peer.close();
      await database.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}

export async function tempPostgres(url: string): Promise<TempDatabase & { schema: string }> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const peers: KernelDatabase[] = [];
  const { stores, database, db, migrate } = await openPostgresStore({ url, schema });
  return {
    stores,
    database,
    db,
    migrate,
    schema,
    dialect: 'postgres',
    async openPeer() {
      const peer = await openPostgresStore({ url, schema });
      peers.push(peer.database);
      return peer;
    },
    async cleanup() {
      for (const peer of peers) await peer.close();
      await database.close();
      await dropSchema(url, schema);
    },
  };
}
