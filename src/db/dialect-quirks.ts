/**
 * What differs between SQLite and PostgreSQL, as one object per backend (src/db/sqlite, src/db/postgres), in the
 * shape of Kysely's own `DialectAdapter`: methods that take a query or a handle and do the backend's thing. Shared
 * code calls these and never asks which database it runs on (a test in test/architecture/ keeps it so).
 *
 * Everything else is the same on both through Kysely: upserts (`onConflict`), `returning`, `update … from`, epoch
 * millisecond `bigint`s and `text` documents.
 */
import type { Expression, Kysely, RawBuilder, SelectQueryBuilder, SqlBool } from 'kysely';

/**
 * A handle bound to one open transaction: pass it, never the database, to code that must write in that
 * transaction. (On SQLite it is the one connection in `begin immediate`, not a Kysely `Transaction`.)
 */
export type DbTransaction<DB> = Kysely<DB>;

/** One part of a transaction lock's name: a text, or the current schema (installs sharing a PostgreSQL database never meet). */
export const CURRENT_SCHEMA: unique symbol = Symbol('current schema');
export type LockNamePart = string | typeof CURRENT_SCHEMA;

/**
 * A lock that writers of one thing take in turn, held until their transaction ends. PostgreSQL takes
 * `pg_advisory_xact_lock(hashtext(name))` or, with `subname`, `pg_advisory_xact_lock(hashtext(name), hashtext(subname))`,
 * each the concatenation of its parts. The resulting lock ids are shared with processes of the previous release during a
 * rolling upgrade (docs/deployment.md): never change the parts of an existing lock.
 */
export interface TransactionLock {
  name: readonly LockNamePart[];
  subname?: readonly LockNamePart[];
}

/** Row locks of a SELECT inside a write transaction. */
export interface RowLock {
  /** `update`: other writers of the row wait; `no key update`: as `update`, but rows referencing it by foreign key may still be inserted. */
  mode: 'update' | 'no key update';
  /** Pass over rows another transaction holds instead of waiting for them (claims of leased work). */
  skipLocked?: boolean;
}

/** Claiming one row of leased work in a fair order that only a window function can compute. */
export interface ClaimSpec<T> {
  /** The table claimed from. */
  table: string;
  /** The claimable rows' ids in claiming order, at most `limit` of them: a query with columns `id` and `pos` (1 first). */
  candidates(limit: number): RawBuilder<{ id: string; pos: number }>;
  /** The condition that the row aliased `alias` is still claimable, checked again once it is locked. */
  stillClaimable(alias: string): RawBuilder<SqlBool>;
  /** Takes the claim of the row whose id is `id` (a subquery or a value); undefined when no row matched. */
  take(trx: Kysely<unknown>, id: Expression<string>): Promise<T | undefined>;
  /**
   * Taken before the candidates are read, so that claims whose candidates depend on other claims (a bound on running
   * rows) take turns: PostgreSQL holds it until the claim commits; SQLite's claim is one write, already alone.
   */
  lock?: TransactionLock;
}

/** A text column searchable by trigrams; `table` has an integer primary key `id` (see `serialPrimaryKey`). */
export interface TrigramIndex {
  table: string;
  column: string;
  /** Name of the index (PostgreSQL); SQLite's index is the table `<table>_fts` with its triggers `<table>_ai|ad|au`. */
  name: string;
}

/** How a query reads a trigram index: its FROM clause, its condition and the ORDER BY terms that go with them. */
export interface TrigramMatch {
  /** The table as the alias the caller gave, joined to its index where the database needs that. */
  from: RawBuilder<unknown>;
  /** The condition that selects through the index; null when the order alone reads it. */
  where: RawBuilder<SqlBool> | null;
  /** ORDER BY terms: nearest first (similar), or the tie-break of rows as the index returns them (contains); null for none. */
  order: RawBuilder<unknown> | null;
}

export interface DialectQuirks {
  /**
   * Runs `fn` in a transaction meant to write. SQLite: `begin immediate` takes the write lock up front, so a
   * read-then-write never fails with SQLITE_BUSY; PostgreSQL: a read-committed transaction, callers add the locks below.
   */
  writeTransaction<DB, T>(db: Kysely<DB>, fn: (trx: DbTransaction<DB>) => Promise<T>): Promise<T>;
  /** Takes `lock` until the transaction of `trx` ends. SQLite: nothing to do, its write transaction already excludes every other writer. */
  transactionLock(trx: Kysely<unknown>, lock: TransactionLock): Promise<void>;
  /** `qb` with its row lock (PostgreSQL `FOR UPDATE [SKIP LOCKED]` …); unchanged on SQLite, which has no row locks. */
  lockRows<DB, TB extends keyof DB, O>(qb: SelectQueryBuilder<DB, TB, O>, lock: RowLock): SelectQueryBuilder<DB, TB, O>;
  /**
   * Claims the first row of `spec`'s fair order no other worker holds. SQLite: one UPDATE of the first candidate (one
   * writer at a time); PostgreSQL: a few candidates, the first one not locked by another worker (SKIP LOCKED), in a transaction.
   */
  claimOne<T>(db: Kysely<unknown>, spec: ClaimSpec<T>): Promise<T | undefined>;
  /** Column definition of an integer primary key the database numbers (SQLite's rowid alias, usable as an FTS5 rowid; PostgreSQL's bigserial). */
  readonly serialPrimaryKey: string;
  /** `column` (raw SQL text) compared in byte order, for prefix ranges read through an index; the same text in index definitions. */
  binaryOrder(column: string): string;
  /** Creates the trigram index of `index.column` (SQLite: external-content FTS5 table kept by triggers; PostgreSQL: pg_trgm GiST). */
  createTrigramIndex(db: Kysely<unknown>, index: TrigramIndex): Promise<void>;
  /** Rows of `index.table` as `alias` whose column contains `text` (4 characters or more), through the index. */
  trigramContains(index: TrigramIndex, alias: string, text: string): TrigramMatch;
  /** Rows of `index.table` as `alias` sharing trigrams (`grams`, of `text`) with `text`, most similar first. */
  trigramSimilar(db: Kysely<unknown>, index: TrigramIndex, alias: string, text: string, grams: readonly string[]): Promise<TrigramMatch>;
  /** Tunes the connection of `db` before a bulk insert of many rows (SQLite: a larger page cache); nothing on PostgreSQL. */
  beforeBulkInsert(db: Kysely<unknown>): Promise<void>;
  /** The bound-parameter placeholder of the `n`th parameter (1-based) in SQL text compiled by hand. */
  placeholder(n: number): string;
  /** PostgreSQL schema that holds Kysely's migration tables (per-schema isolation); undefined for the connection's default. */
  readonly migrationTableSchema: string | undefined;
}
