/**
 * A store on a Database opened through the kernel (src/db/), as main/open-backends.ts builds it, for tests that open
 * a database file or schema themselves. `db` is the same handle typed with the store's tables, for SQL a test reads.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/database.js';
import { openPostgresDatabase, type PostgresDatabaseOptions } from '../../src/db/postgres/open-postgres-database.js';
import { openSqliteDatabase, type SqliteDatabaseOptions } from '../../src/db/sqlite/open-sqlite-database.js';
import { openProductStores, PRODUCT_MIGRATIONS, type ProductStores } from '../../src/main/product-stores.js';
import { migrateToLatest } from '../../src/db/migrations.js';
import type { Database as Tables } from '../helpers/all-tables.js';

export interface OpenedStore {
  /** Every product's store, as main/ builds them. */
  stores: ProductStores;
  database: Database;
  db: Kysely<Tables>;
  /** Applies every product's pending migrations (main/'s list), as `brandbase migrate` does. */
  migrate(): Promise<void>;
  /** Closes the Database (idempotent). */
  close(): Promise<void>;
}

function storeOn(database: Database): OpenedStore {
  const stores = openProductStores(database);
  return { stores, database, db: database.tables<Tables>(), migrate: () => migrateToLatest(database, PRODUCT_MIGRATIONS), close: () => database.close() };
}

/** Opens (without migrating) a SQLite file; `close()` closes the database. */
export async function openSqliteStore(opts: SqliteDatabaseOptions): Promise<OpenedStore> {
  return storeOn(await openSqliteDatabase(opts));
}

/** Opens (without migrating) a PostgreSQL database or schema; `close()` ends the pool. */
export async function openPostgresStore(opts: PostgresDatabaseOptions): Promise<OpenedStore> {
  return storeOn(await openPostgresDatabase(opts));
}
