/**
 * The dialect quirks the shared Kysely code needs, kept in one place.
 */
import { sql } from 'kysely';
import type { Kysely } from 'kysely';

export type SqlDialect = 'sqlite' | 'postgres';

/**
 * Runs `fn` in a transaction meant to write.
 *
 * SQLite: `begin immediate` takes the write lock up front (waiting up to busy_timeout). Kysely's own
 * transaction issues a deferred `begin`, and a deferred transaction that reads before it writes fails with
 * SQLITE_BUSY (no waiting) when another process wrote in between; every read-then-write here would be exposed.
 * PostgreSQL: an ordinary read-committed transaction; callers add row or advisory locks where they need them.
 */
export async function writeTransaction<DB, T>(db: Kysely<DB>, dialect: SqlDialect, fn: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  if (dialect === 'postgres') return db.transaction().execute(fn);
  return db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    try {
      const result = await fn(conn);
      await sql`commit`.execute(conn);
      return result;
    } catch (error) {
      // SQLite has already rolled back after some errors (SQLITE_FULL, ...); never hide the original error.
      await sql`rollback`.execute(conn).catch(() => undefined);
      throw error;
    }
  });
}
