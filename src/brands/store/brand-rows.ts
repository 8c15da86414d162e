/**
 * Brand rows <-> StoredBrand (moved out of store/kysely/row-mapping.ts), and the read of the record a save replaces.
 */
import type { Kysely } from 'kysely';
import type { Brand } from '../../domain/brand.js';
import type { StoredBrand } from '../brand-store.js';
import { fromMillis, toMillis } from '../../db/column-codec.js';
import { CURRENT_SCHEMA, type DialectQuirks } from '../../db/dialect-quirks.js';
import type { BrandsTable, BrandTables } from './brand-tables.js';

export function brandToRow(stored: StoredBrand): BrandsTable {
  // The palette is built per request (spec 2.8); it is never part of the stored record.
  const { palette: _palette, ...record } = stored.brand;
  return {
    id: stored.brand.id,
    domain: stored.brand.domain,
    status: stored.status,
    record: JSON.stringify(record),
    crawled_at: toMillis(stored.crawledAt),
    created_at: toMillis(stored.createdAt),
    updated_at: toMillis(stored.updatedAt),
  };
}

export function rowToBrand(row: BrandsTable): StoredBrand {
  return {
    brand: JSON.parse(row.record) as Brand,
    status: row.status,
    crawledAt: fromMillis(row.crawled_at),
    createdAt: fromMillis(row.created_at),
    updatedAt: fromMillis(row.updated_at),
  };
}

/**
 * The record a save replaces, read inside the save's write transaction. SQLite's `begin immediate` already
 * serializes writers; on PostgreSQL a transaction-scoped advisory lock per (schema, brand id) makes two concurrent
 * saves of one brand take turns, the brand not existing yet included (a row lock would not cover that case).
 * The lock's parts are those of the previous release (store/kysely/brand-event-log.ts), so both take turns during a
 * rolling upgrade.
 */
export async function previousBrandForSave(trx: Kysely<BrandTables>, quirks: DialectQuirks, brandId: string): Promise<StoredBrand | null> {
  await quirks.transactionLock(trx as Kysely<unknown>, { name: ['brandbase.brand.save'], subname: [CURRENT_SCHEMA, ':', brandId] });
  // The whole record: the decision reads its brand and crawl time, the save hooks the rest (one read per save).
  const row = await trx.selectFrom('brands').selectAll().where('id', '=', brandId).executeTakeFirst();
  return row === undefined ? null : rowToBrand(row);
}
