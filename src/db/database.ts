/**
 * The database kernel's port (src/db/): one handle on the database every product stores its tables in, the dialect
 * quirks that go with it, and its lifecycle. It knows no product: each product narrows the handle to its own table
 * types (`db.tables<MyTables>()`) and contributes its migrations (migrations.ts). The backends (src/db/sqlite,
 * src/db/postgres) open one; main/ opens it once per process and hands it to every product's storage.
 */
import { sql, type Kysely } from 'kysely';
import type { DialectQuirks } from './dialect-quirks.js';

export type { DbTransaction, DialectQuirks } from './dialect-quirks.js';

export interface Database {
  /** What differs between SQLite and PostgreSQL, as methods (dialect-quirks.ts). */
  readonly quirks: DialectQuirks;
  /**
   * The Kysely handle typed with the caller's tables. The kernel knows no table: a product passes its own table
   * types (the handle is one, whichever product's types it is seen through).
   */
  tables<Tables>(): Kysely<Tables>;
  /** A cheap round trip (`select 1`), for readiness checks: it fails while the database cannot be reached. */
  ping(): Promise<void>;
  /** Destroys the handle (the pool, or the SQLite connection) once; every product sharing it is closed with it. */
  close(): Promise<void>;
}

/** A Database over `kysely`; `close()` destroys it once, however often it is called. */
export function createDatabase<Tables>(kysely: Kysely<Tables>, quirks: DialectQuirks): Database {
  let closed: Promise<void> | undefined;
  return {
    quirks,
    // One instance seen through other table types: Kysely's table types exist at compile time only.
    tables: <T>() => kysely as unknown as Kysely<T>,
    ping: async () => void (await sql`select 1`.execute(kysely)),
    close: () => (closed ??= kysely.destroy()),
  };
}
