/**
 * Brand save hooks: how other products keep their rows in step with a saved brand (issue 30). The brand store runs
 * every hook main/ registered, in the registered order, inside the transaction that saves the brand, so a hook's
 * rows (palette, context and logo evidence, the search index) commit or roll back with the record. Each product
 * implements its hook in its own store/ folder; the brand store knows none of them.
 */
import type { DbTransaction } from '../db/database.js';
import type { BrandStatus, IdentifierRef, SaveBrandOptions, StoredBrand } from './brand-store.js';

/** One brand save, as the hooks see it. */
export interface BrandSave {
  /** The record before this save, or null for a new brand. */
  previous: StoredBrand | null;
  next: StoredBrand;
  identifiers: IdentifierRef[];
  /** What the crawl that built `next` kept beside it (palette, context and logo evidence). */
  options: SaveBrandOptions;
  at: Date;
}

/** A brand a bulk insert wrote (BrandStore.insertBrands): always new, with no crawl evidence beside it. */
export interface InsertedBrand {
  stored: StoredBrand;
  /** As given to the insert; the brand's own domain is attached whether listed or not. */
  identifiers: IdentifierRef[];
}

export interface BrandSaveHook {
  /** Runs in the saving transaction: a throw rolls the save back. */
  onBrandSaved(trx: DbTransaction<unknown>, save: BrandSave): Promise<void>;
  /** Runs in the transaction of a status change (removal or restore) of brand `id`, when that brand exists. */
  onBrandStatus?(trx: DbTransaction<unknown>, id: string, status: BrandStatus): Promise<void>;
  /** Runs in the transaction of a bulk insert (`brandbase generate-brands`) with the brands it inserted. */
  onBrandsInserted?(trx: DbTransaction<unknown>, brands: readonly InsertedBrand[]): Promise<void>;
}
