/**
 * What products subscribe to a saved brand with (issue 30): a hook runs inside the transaction that saves the brand,
 * with that transaction's handle, so whatever it writes (evidence, index rows, work it enqueues with `{ tx }`) commits
 * or rolls back with the brand record itself.
 */
import type { DbTransaction } from '../db/database.js';
import type { IdentifierRef, SaveBrandOptions, StoredBrand } from './brand-store.js';

/** One save, as the hooks see it. */
export interface BrandSave {
  /** The record replaced, read under the save's lock; null for a new brand. */
  previous: StoredBrand | null;
  next: StoredBrand;
  identifiers: IdentifierRef[];
  options: SaveBrandOptions;
  at: Date;
}

export interface BrandSaveHook {
  /** Runs inside the saving transaction (`trx`); a throw rolls the save back. */
  onBrandSaved(trx: DbTransaction<unknown>, save: BrandSave): Promise<void>;
}
