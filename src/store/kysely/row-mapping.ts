/**
 * Row <-> port-type mapping for KyselyStore. Pure functions: no queries here.
 */
import type { Brand } from '../../domain/brand.js';
import type { StoredBrand } from '../store.js';
import { fromMillis, toMillis } from '../../db/column-codec.js';
import type { BrandsTable } from './schema.js';

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
