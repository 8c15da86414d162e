/**
 * The brand write log of the brands store (both dialects; docs/adr/0017-brand-cache-coherence.md): one row per brand
 * save or status change, appended inside that write's transaction and numbered 1, 2, 3, ... in commit order. API
 * processes poll it (brands/brand-cache-sync.ts) and drop the cached brands written by any other process.
 *
 * Commit order is what makes a cursor safe: a poller that has read write n must never see write n - 1 appear
 * later. SQLite's `begin immediate` already lets one writer at a time through. On PostgreSQL several saves run at
 * once, so the number is taken under a transaction-scoped advisory lock held until commit: the next writer can
 * only read max(seq) after the previous one committed (its row is visible before its locks are released).
 */
import type { Kysely } from 'kysely';
import type { BrandWrite } from '../brand-store.js';
import { fromMillis, toSafeInteger } from '../../db/column-codec.js';
import type { BrandTables as Database } from './brand-tables.js';
import { CURRENT_SCHEMA, type DialectQuirks } from '../../db/dialect-quirks.js';

/** Rows older than this are pruned by later writes. A poller that falls further behind clears its whole cache. */
export const BRAND_WRITE_RETENTION_MS = 60 * 60_000;

/** The newest seq in `db` (or `trx`), 0 when the log is empty. */
export async function latestBrandWrite(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('brand_writes')
    .select((eb) => eb.fn.max<number | string | bigint | null>('seq').as('latest'))
    .executeTakeFirstOrThrow();
  return row.latest === null ? 0 : toSafeInteger(row.latest);
}

/**
 * Appends one write inside the caller's write transaction, as its last statement: on PostgreSQL the advisory lock
 * serializes writers from here to their commit, so this section is kept short. Prunes old rows, never the newest.
 */
export async function appendBrandWrite(trx: Kysely<Database>, quirks: DialectQuirks, brandId: string, domains: readonly string[], at: number): Promise<number> {
  await quirks.transactionLock(trx as Kysely<unknown>, { name: ['brandbase.brand.writes'], subname: [CURRENT_SCHEMA] });
  const seq = (await latestBrandWrite(trx)) + 1;
  await trx.insertInto('brand_writes').values({ seq, brand_id: brandId, domains: JSON.stringify(domains), created_at: at }).execute();
  await trx.deleteFrom('brand_writes').where('created_at', '<', at - BRAND_WRITE_RETENTION_MS).where('seq', '<', seq).execute();
  return seq;
}

export async function brandWritesAfter(db: Kysely<Database>, after: number, limit: number): Promise<BrandWrite[]> {
  if (!Number.isSafeInteger(limit) || limit <= 0) throw new RangeError(`limit must be a positive integer, got ${limit}`);
  const rows = await db.selectFrom('brand_writes').selectAll().where('seq', '>', after).orderBy('seq').limit(limit).execute();
  return rows.map((row) => ({
    seq: toSafeInteger(row.seq),
    brandId: row.brand_id,
    domains: JSON.parse(row.domains) as string[],
    at: fromMillis(row.created_at),
  }));
}
