/** The search index's brand save hook (brands/brand-save-hooks.ts). */
import type { Kysely } from 'kysely';
import type { BrandSaveHook } from '../../brands/brand-save-hooks.js';
import * as search from './search-rows.js';
import type { SearchQueryTables } from './search-tables.js';

const tables = (trx: Kysely<unknown>) => trx as Kysely<SearchQueryTables>;

/** The search-by-name index moves with the record and its status, in the same transaction (ADR 0033). */
export const searchSaveHook: BrandSaveHook = {
  async onBrandSaved(trx, { next }) {
    await search.indexBrandForSearch(tables(trx), next.brand, next.status);
  },
  async onBrandStatus(trx, id, status) {
    await search.reindexBrandStatus(tables(trx), id, status);
  },
  async onBrandsInserted(trx, brands) {
    await search.indexNewBrandsForSearch(tables(trx), brands.map((b) => b.stored));
  },
};
