/**
 * What saveBrand reads before it writes: the record it replaces, under a per-brand lock, so the `brand.saved` event
 * it decides diffs against the record it really replaces. The event itself, and its deliveries, are written by the
 * events' save hook (src/events/store/brand-event-save-hook.ts; ADR 0049); see docs/adr/0010-brand-events-outbox.md.
 */
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import { CURRENT_SCHEMA, type DialectQuirks } from '../../db/dialect-quirks.js';
import type { StoredBrand } from '../../brands/brand-store.js';
import { rowToBrand } from './row-mapping.js';

/**
 * The record a save replaces, read inside the save's write transaction. SQLite's `begin immediate` already
 * serializes writers; on PostgreSQL a transaction-scoped advisory lock per (schema, brand id) makes two concurrent
 * saves of one brand take turns, the brand not existing yet included (a row lock would not cover that case).
 */
export async function previousBrandForSave(trx: Kysely<Database>, quirks: DialectQuirks, brandId: string): Promise<StoredBrand | null> {
  await quirks.transactionLock(trx as Kysely<unknown>, { name: ['brandbase.brand.save'], subname: [CURRENT_SCHEMA, ':', brandId] });
  // The whole record: the decision reads its brand and crawl time, the save hooks the rest (one read per save).
  const row = await trx.selectFrom('brands').selectAll().where('id', '=', brandId).executeTakeFirst();
  return row === undefined ? null : rowToBrand(row);
}
