import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/config.js';
import type { Database } from '../db/database.js';
import { migrateToLatest } from '../db/migrations.js';
import type { JobQueue } from '../jobs/queue.js';
import { openProductStores, PRODUCT_MIGRATIONS, type ProductStores } from './product-stores.js';
import type { ReferenceData } from '../refdata/reference-data.js';

export interface Backends {
  /** Every product's store (product-stores.ts). */
  stores: ProductStores;
  queue: JobQueue;
  /** Where the store is, for people: the SQLite file's absolute path, or the PostgreSQL server without credentials. */
  location: string;
  /** True when this open created the store (a new SQLite file): the CLI says so, so a store made by mistake shows. */
  created: boolean;
  /** A round trip to the database, for readiness checks (/readyz, the metrics port). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** `postgres://user:secret@host:5432/db` as `postgres://host:5432/db`: a location to print, never a secret. */
export function printableDatabaseUrl(url: string): string {
  if (!URL.canParse(url)) return 'PostgreSQL';
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
}

/**
 * Migrates, then loads the embedded reference set (tickers, ETFs, crypto; refdata/embedded-reference-data.ts) into
 * a store that never had a reference import, and the brand knowledge set into one that holds no known brand: two
 * indexed reads on every later start, and the importer's code is loaded only when a set is loaded.
 */
async function migrateAndSeed(database: Database, referenceData: ReferenceData): Promise<void> {
  await migrateToLatest(database, PRODUCT_MIGRATIONS);
  if ((await referenceData.hasReferenceImports()) && (await referenceData.hasKnownBrands())) return;
  const { loadEmbeddedReferenceData } = await import('../refdata/embedded-reference-data.js');
  await loadEmbeddedReferenceData(referenceData);
}

/**
 * The embedded default is one SQLite file (WAL) in the data dir holding brands, accounts, the usage ledger and
 * the job queue. With BRANDBASE_DATABASE_URL set, the same tables live in PostgreSQL (scale-out).
 * Migrations are applied here, on every start; they are idempotent. Each driver is loaded only when chosen, so an
 * admin command on the embedded store never loads pg (and the reverse).
 */
export async function openBackends(config: Readonly<Config>): Promise<Backends> {
  if (config.databaseUrl) {
    const { openPostgresDatabase } = await import('../db/postgres/open-postgres-database.js');
    const database = await openPostgresDatabase({ url: config.databaseUrl });
    return backendsOn(database, printableDatabaseUrl(config.databaseUrl), false);
  }
  const file = path.join(config.dataDir, 'brandbase.sqlite');
  const created = !existsSync(file);
  const { openSqliteDatabase } = await import('../db/sqlite/open-sqlite-database.js');
  return backendsOn(await openSqliteDatabase({ file }), file, created);
}

/** The store and the queue over one migrated Database; closing them closes it. */
async function backendsOn(database: Database, location: string, created: boolean): Promise<Backends> {
  const stores = openProductStores(database);
  await migrateAndSeed(database, stores.referenceData);
  return { stores, queue: stores.queue, location, created, ping: () => database.ping(), close: () => database.close() };
}
