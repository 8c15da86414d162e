/**
 * PostgreSQL's answers to the dialect quirks (src/db/dialect-quirks.ts): read-committed transactions with advisory and
 * row locks where writers must take turns, SKIP LOCKED claims, pg_trgm for text search, `$n` placeholders.
 */
import { sql } from 'kysely';
import type { Kysely, RawBuilder, SelectQueryBuilder } from 'kysely';
import { CURRENT_SCHEMA, type ClaimSpec, type DialectQuirks, type LockNamePart, type RowLock, type TransactionLock, type TrigramIndex } from '../dialect-quirks.js';

/** Fairly ordered candidates a claim tries to lock, past those other workers hold. */
const CLAIM_CANDIDATES = 16;

/** Schema that holds pg_trgm, or null when it is not installed. */
export async function trgmSchema(db: Kysely<unknown>): Promise<string | null> {
  const { rows } = await sql<{ nspname: string }>`select n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
  return rows[0]?.nspname ?? null;
}

/**
 * pg_trgm goes into the schema it is already in, else into `brandbase_ext` (not the store's schema: several
 * installs or test runs may share a database, and dropping one schema must not drop the extension for the others).
 * It is a trusted extension (PostgreSQL 13+): a database owner may create it without superuser rights.
 */
async function ensurePgTrgm(db: Kysely<unknown>): Promise<string> {
  const existing = await trgmSchema(db);
  if (existing !== null) return existing;
  try {
    await sql.raw('create schema if not exists brandbase_ext').execute(db);
    await sql.raw('create extension if not exists pg_trgm with schema brandbase_ext').execute(db);
  } catch (error) {
    // Another process created it at the same moment: use what it created.
    const raced = await trgmSchema(db);
    if (raced !== null) return raced;
    throw new Error('the PostgreSQL extension pg_trgm is required for search (docs/search.md)', { cause: error });
  }
  const created = await trgmSchema(db);
  if (created === null) throw new Error('pg_trgm was not created');
  return created;
}

/** The parts of a lock name as one text expression: adjacent texts joined first, the schema as `current_schema()`. */
function lockText(parts: readonly LockNamePart[]): RawBuilder<string> {
  const merged: LockNamePart[] = [];
  for (const part of parts) {
    const last = merged[merged.length - 1];
    if (typeof part === 'string' && typeof last === 'string') merged[merged.length - 1] = last + part;
    else merged.push(part);
  }
  return sql<string>`${sql.join(
    merged.map((part) => (part === CURRENT_SCHEMA ? sql`current_schema()` : sql`${part}`)),
    sql` || `,
  )}`;
}

async function transactionLock(trx: Kysely<unknown>, lock: TransactionLock): Promise<void> {
  if (lock.subname === undefined) await sql`select pg_advisory_xact_lock(hashtext(${lockText(lock.name)}))`.execute(trx);
  else await sql`select pg_advisory_xact_lock(hashtext(${lockText(lock.name)}), hashtext(${lockText(lock.subname)}))`.execute(trx);
}

function lockRows<DB, TB extends keyof DB, O>(qb: SelectQueryBuilder<DB, TB, O>, lock: RowLock): SelectQueryBuilder<DB, TB, O> {
  const locked = lock.mode === 'update' ? qb.forUpdate() : qb.forNoKeyUpdate();
  return lock.skipLocked === true ? locked.skipLocked() : locked;
}

/**
 * The window function of a fair order cannot sit under FOR UPDATE, so the order is computed for a few candidates and
 * the first one no other worker holds is locked (SKIP LOCKED) and checked again as still claimable.
 */
function claimOne<T>(db: Kysely<unknown>, spec: ClaimSpec<T>): Promise<T | undefined> {
  return db.transaction().execute(async (trx) => {
    if (spec.lock !== undefined) await transactionLock(trx, spec.lock);
    const { rows } = await sql<{ id: string }>`select j.id from ${sql.table(spec.table)} j
        join (${spec.candidates(CLAIM_CANDIDATES)}) f on f.id = j.id
        where ${spec.stillClaimable('j')}
        order by f.pos limit 1 for update of j skip locked`.execute(trx);
    const id = rows[0]?.id;
    return id === undefined ? undefined : spec.take(trx, sql<string>`${id}`);
  });
}

export interface PostgresQuirksOptions {
  /** The schema the connections use (`search_path`), which also holds Kysely's migration tables. */
  schema?: string;
}

/** The quirks of one PostgreSQL database (the pg_trgm schema is read once per database). */
export function postgresQuirks(opts: PostgresQuirksOptions = {}): DialectQuirks {
  let trgm: Promise<string | null> | undefined;
  return {
    writeTransaction: (db, fn) => db.transaction().execute(fn),
    transactionLock,
    lockRows,
    claimOne,
    serialPrimaryKey: 'bigserial primary key',
    binaryOrder: (column) => `${column} collate "C"`,
    async createTrigramIndex(db, { table, column, name }: TrigramIndex) {
      const ext = await ensurePgTrgm(db);
      await sql.raw(`create index ${name} on ${table} using gist (${column} "${ext}".gist_trgm_ops)`).execute(db);
    },
    // pg_trgm's GiST index answers LIKE '%…%' itself.
    trigramContains: (index, alias, text) => ({
      from: sql.raw(`${index.table} ${alias}`),
      where: sql`${sql.ref(`${alias}.${index.column}`)} like ${`%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`,
      order: null,
    }),
    // GiST nearest neighbours by trigram distance: no similarity threshold to miss a typo by.
    async trigramSimilar(db, index, alias, text) {
      trgm ??= trgmSchema(db);
      const distance = sql.raw(`OPERATOR("${(await trgm) ?? 'public'}".<->)`);
      return { from: sql.raw(`${index.table} ${alias}`), where: null, order: sql`${sql.ref(`${alias}.${index.column}`)} ${distance} ${text}` };
    },
    beforeBulkInsert: async () => undefined,
    placeholder: (n) => `$${n}`,
    migrationTableSchema: opts.schema,
  };
}
