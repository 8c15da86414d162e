/**
 * A store on a Database opened through the kernel (src/db/), as main/open-backends.ts builds it, for tests that open
 * a database file or schema themselves. `db` is the same handle typed with the store's tables, for SQL a test reads.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/database.js';
import { openPostgresDatabase, type PostgresDatabaseOptions } from '../../src/db/postgres/open-postgres-database.js';
import { openSqliteDatabase, type SqliteDatabaseOptions } from '../../src/db/sqlite/open-sqlite-database.js';
import type { KyselyStore } from '../../src/store/kysely/kysely-store.js';
import { openProductStores, PRODUCT_MIGRATIONS, type ProductStores } from '../../src/main/product-stores.js';
import { migrateToLatest } from '../../src/db/migrations.js';
import type { Database as Tables } from '../../src/store/kysely/schema.js';

export interface OpenedStore {
  store: KyselyStore;
  /** Every product's store, as main/ builds them (`store` among them). */
  stores: ProductStores;
  database: Database;
  db: Kysely<Tables>;
  /** Applies every product's pending migrations (main/'s list), as `brandbase migrate` does; what `store.migrate()` did. */
  migrate(): Promise<void>;
}

function storeOn(database: Database): OpenedStore {
  const stores = openProductStores(database);
  return { store: stores.store, stores, database, db: database.tables<Tables>(), migrate: () => migrateToLatest(database, PRODUCT_MIGRATIONS) };
}

/** Opens (without migrating) a SQLite file; `store.close()` closes the database. */
export async function openSqliteStore(opts: SqliteDatabaseOptions): Promise<OpenedStore> {
  return storeOn(await openSqliteDatabase(opts));
}

/** Opens (without migrating) a PostgreSQL database or schema; `store.close()` ends the pool. */
export async function openPostgresStore(opts: PostgresDatabaseOptions): Promise<OpenedStore> {
  return storeOn(await openPostgresDatabase(opts));
}
