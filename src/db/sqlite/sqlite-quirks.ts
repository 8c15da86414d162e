/**
 * SQLite's answers to the dialect quirks (src/db/dialect-quirks.ts): one writer at a time (`begin immediate`), so
 * no locks to take; FTS5 trigram tables for text search; `?` placeholders.
 */
import { sql } from 'kysely';
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { ClaimSpec, DialectQuirks, TrigramIndex, TrigramMatch } from '../dialect-quirks.js';

/**
 * Kysely's own transaction issues a deferred `begin`, and a deferred transaction that reads before it writes fails
 * with SQLITE_BUSY (no waiting) when another process wrote in between; `begin immediate` takes the write lock up
 * front, waiting up to busy_timeout.
 */
async function writeTransaction<DB, T>(db: Kysely<DB>, fn: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
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

/** One writer at a time: the fair pick and the update are one statement. */
function claimOne<T>(db: Kysely<unknown>, spec: ClaimSpec<T>): Promise<T | undefined> {
  return spec.take(db, sql<string>`(select f.id from (${spec.candidates(1)}) f)`);
}

/** External-content FTS5 with the trigram tokenizer: the triggers keep the index in step with every insert, update and delete. */
async function createTrigramIndex(db: Kysely<unknown>, { table, column }: TrigramIndex): Promise<void> {
  const fts = `${table}_fts`;
  await sql.raw(`create virtual table ${fts} using fts5(${column}, content='${table}', content_rowid='id', tokenize='trigram')`).execute(db);
  await sql.raw(`create trigger ${table}_ai after insert on ${table} begin
    insert into ${fts}(rowid, ${column}) values (new.id, new.${column}); end`).execute(db);
  await sql.raw(`create trigger ${table}_ad after delete on ${table} begin
    insert into ${fts}(${fts}, rowid, ${column}) values ('delete', old.id, old.${column}); end`).execute(db);
  await sql.raw(`create trigger ${table}_au after update of ${column} on ${table} begin
    insert into ${fts}(${fts}, rowid, ${column}) values ('delete', old.id, old.${column});
    insert into ${fts}(rowid, ${column}) values (new.id, new.${column}); end`).execute(db);
}

/** The FTS5 table joined to its content table: `match` reads the index, `rank` orders by relevance. */
function ftsMatch({ table }: TrigramIndex, alias: string, query: string, order: string): TrigramMatch {
  const fts = `${table}_fts`;
  return {
    from: sql.raw(`${fts} ${alias}_fts join ${table} ${alias} on ${alias}.id = ${alias}_fts.rowid`),
    where: sql`${sql.raw(fts)} match ${query}`,
    order: sql.raw(order),
  };
}

export const sqliteQuirks: DialectQuirks = {
  writeTransaction,
  transactionLock: async () => undefined,
  lockRows: <DB, TB extends keyof DB, O>(qb: SelectQueryBuilder<DB, TB, O>) => qb,
  claimOne,
  serialPrimaryKey: 'integer primary key',
  binaryOrder: (column) => column,
  createTrigramIndex,
  // A phrase of one string: rows containing it; the shorter texts first among equals.
  trigramContains: (index, alias, text) => ftsMatch(index, alias, `"${text}"`, `length(${alias}.${index.column})`),
  trigramSimilar: async (_db, index, alias, _text, grams) => ftsMatch(index, alias, grams.map((g) => `"${g}"`).join(' OR '), `${alias}_fts.rank`),
  // The default page cache (2 MB) thrashes once the indexes outgrow it: inserts at random places in a million-row
  // b-tree then read most pages from disk. A bulk writer gets 256 MB (this connection only).
  beforeBulkInsert: async (db) => void (await sql`pragma cache_size = -262144`.execute(db)),
  placeholder: () => '?',
  migrationTableSchema: undefined,
};
