/**
 * The save-time writes of the products not yet moved out of the store (issue 30), as brand save hooks: each moves
 * to its product's store/ folder with the product.
 */
import type { Kysely } from 'kysely';
import type { BrandSaveHook } from '../../brands/brand-save-hooks.js';
import * as search from './search-rows.js';
import type { Database } from './schema.js';

const tables = (trx: Kysely<unknown>) => trx as Kysely<Database>;

/** The search-by-name index moves with the record and its status, in the same transaction (ADR 0033). */
export const searchSaveHook: BrandSaveHook = {
  async onBrandSaved(trx, { next }) {
    await search.indexBrandForSearch(tables(trx), next.brand, next.status);
  },
  async onBrandStatus(trx, id, status) {
    await search.reindexBrandStatus(tables(trx), id, status);
  },
  async onBrandsInserted(trx, brands) {
    await search.indexInsertedBrandsForSearch(tables(trx), brands);
  },
};
