/**
 * The one Store implementation, written against Kysely so SQLite and PostgreSQL share every query. The
 * backends (src/db/sqlite, src/db/postgres) open the kernel's Database: the handle, and the dialect quirks for what differs.
 */
import type { Kysely } from 'kysely';
import type { Store } from '../store.js';
import type { Database as Db } from '../../db/database.js';
import { migrateToLatest, type ProductMigrations } from '../../db/migrations.js';
import { MIGRATIONS } from './migrations.js';
import type { Database } from './schema.js';
import type { DialectQuirks } from '../../db/dialect-quirks.js';

export interface KyselyStoreOptions {
  migrations?: readonly ProductMigrations[];
}

export class KyselyStore implements Store {
  private readonly db: Kysely<Database>;
  private readonly quirks: DialectQuirks;
  private readonly migrations: readonly ProductMigrations[];

  /**
   * `migrations` are what `migrate()` runs (main/'s product list; the store's own migrations alone when absent).
   */
  constructor(private readonly database: Db, options: KyselyStoreOptions) {
    this.migrations = options.migrations ?? [MIGRATIONS];
    this.db = database.tables<Database>();
    this.quirks = database.quirks;
  }


  // ---- lifecycle ----

  /** The migrations the store was given (main/'s product list; tests migrate a store through this). */
  async migrate(): Promise<void> {
    await migrateToLatest(this.database, this.migrations);
  }

  /** The kernel's round trip (Database.ping); main/ pings through Backends, which needs no Store. */
  ping(): Promise<void> {
    return this.database.ping();
  }

  /** Closes the Database, which the queue may share: close the store last. Idempotent. */
  async close(): Promise<void> {
    await this.database.close();
  }
}
