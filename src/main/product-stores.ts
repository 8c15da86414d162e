/**
 * The one place that lists every product's storage (issue 30): the migrations in the order their parts of one name
 * run, and the stores built from one kernel Database, with the brand save hooks in the order they run in a save.
 * Services (services.ts), the CLI and the tests take their stores from here.
 */
import type { Database } from '../db/database.js';
import type { ProductMigrations } from '../db/migrations.js';
import type { BrandSaveHook } from '../brands/brand-save-hooks.js';
import { KyselyStore } from '../store/kysely/kysely-store.js';
import { MIGRATIONS as STORE_MIGRATIONS } from '../store/kysely/migrations.js';
import { contextSaveHook, logoEvidenceSaveHook, paletteSaveHook, searchSaveHook } from '../store/kysely/brand-save-hook-rows.js';

/** Every product's migrations, in the order their parts of one name run (src/db/migrations.ts). */
export const PRODUCT_MIGRATIONS: readonly ProductMigrations[] = [STORE_MIGRATIONS];

export interface ProductStores {
  /** The storage of the products not yet moved out of the shared store. */
  store: KyselyStore;
}

/** What a brand save writes beside the record, in this order, in its transaction. */
function brandSaveHooks(): readonly BrandSaveHook[] {
  return [paletteSaveHook, contextSaveHook, logoEvidenceSaveHook, searchSaveHook];
}

/** Every product's store over one Database (not migrated: migrateToLatest with PRODUCT_MIGRATIONS does that). */
export function openProductStores(database: Database): ProductStores {
  const store = new KyselyStore(database, { saveHooks: brandSaveHooks(), migrations: PRODUCT_MIGRATIONS });
  return { store };
}
