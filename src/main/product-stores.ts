/**
 * The one place that lists every product's storage (issue 30): the migrations in the order their parts of one name
 * run, and the stores built from one kernel Database, with the brand save hooks in the order they run in a save.
 * Services (services.ts), the CLI and the tests take their stores from here.
 */
import type { Database } from '../db/database.js';
import type { ProductMigrations } from '../db/migrations.js';
import type { BrandSaveHook } from '../brands/brand-save-hooks.js';
import type { PaletteStore } from '../palette/palette-store.js';
import { KyselyPaletteStore } from '../palette/store/kysely-palette-store.js';
import { paletteMigrations } from '../palette/store/palette-migrations.js';
import { paletteSaveHook } from '../palette/store/palette-save-hook.js';
import type { ContextStore } from '../context/context-store.js';
import { KyselyContextStore } from '../context/store/kysely-context-store.js';
import { contextMigrations } from '../context/store/context-migrations.js';
import { contextSaveHook } from '../context/store/context-save-hook.js';
import type { LogoEvidenceStore } from '../brands/logo-evidence/logo-evidence-store.js';
import { KyselyLogoEvidenceStore } from '../brands/logo-evidence/store/kysely-logo-evidence-store.js';
import { logoEvidenceMigrations } from '../brands/logo-evidence/store/logo-evidence-migrations.js';
import { logoEvidenceSaveHook } from '../brands/logo-evidence/store/logo-evidence-save-hook.js';
import { KyselyStore } from '../store/kysely/kysely-store.js';
import { MIGRATIONS as STORE_MIGRATIONS } from '../store/kysely/migrations.js';
import { searchSaveHook } from '../store/kysely/brand-save-hook-rows.js';
import type { BrandEventStore } from '../events/brand-event-store.js';
import { KyselyBrandEventStore } from '../events/store/kysely-brand-event-store.js';
import { BrandEventSaveHook } from '../events/store/brand-event-save-hook.js';
import { eventMigrations } from '../events/store/event-migrations.js';
import type { JobQueue } from '../jobs/queue.js';
import { SqlJobQueue } from '../jobs/sql/sql-job-queue.js';

/** Every product's migrations, in the order their parts of one name run (src/db/migrations.ts). */
export const PRODUCT_MIGRATIONS: readonly ProductMigrations[] = [STORE_MIGRATIONS, paletteMigrations, contextMigrations, logoEvidenceMigrations, eventMigrations];

export interface ProductStores {
  /** The storage of the products not yet moved out of the shared store. */
  store: KyselyStore;
  /**
   * The brand save hooks, in the order they run; the brand store keeps this list by reference, so services append
   * the hooks that need what is built after the stores (the palette render job needs the queue) before the first save.
   */
  saveHooks: BrandSaveHook[];
  palette: PaletteStore;
  context: ContextStore;
  logoEvidence: LogoEvidenceStore;
  /** The one job queue (ADR 0049), on the same Database: hooks and stores enqueue in their callers' transactions. */
  queue: JobQueue;
  events: BrandEventStore;
}

/** What a brand save writes beside the record, in this order, in its transaction. */
function brandSaveHooks(queue: JobQueue): BrandSaveHook[] {
  return [paletteSaveHook, contextSaveHook, logoEvidenceSaveHook, searchSaveHook, new BrandEventSaveHook(queue)];
}

/** Every product's store over one Database (not migrated: migrateToLatest with PRODUCT_MIGRATIONS does that). */
export function openProductStores(database: Database): ProductStores {
  const queue = new SqlJobQueue(database);
  const saveHooks = brandSaveHooks(queue);
  const store = new KyselyStore(database, { saveHooks, migrations: PRODUCT_MIGRATIONS, jobs: queue });
  return {
    store,
    saveHooks,
    palette: new KyselyPaletteStore(database),
    context: new KyselyContextStore(database),
    logoEvidence: new KyselyLogoEvidenceStore(database),
    queue,
    events: new KyselyBrandEventStore(database),
  };
}
