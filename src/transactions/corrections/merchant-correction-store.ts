/**
 * The merchant corrections' storage port (issue 34, ADR 0053): one table, `merchant_corrections` (migration 0026),
 * read on every transaction by every process, so a correction made through any process applies in all of them at
 * once. A removal keeps the row (who removed it, when): the audit trail. Implemented over the kernel's Database in
 * store/kysely-merchant-correction-store.ts.
 */
import type { MerchantCorrection } from './merchant-correction.js';

/** Bounds of one scope's writes, checked in the adding transaction (absent for the operator's aliases). */
export interface CorrectionLimits {
  /** Corrections that apply at once: adding past it is refused (`too_many`). */
  maxActive: number;
  /** Corrections added (replacements included) within `windowMs`: past it refused (`rate`). */
  maxAdded: number;
  windowMs: number;
}

export type AddCorrectionResult =
  | {
      added: MerchantCorrection;
      /** The correction of the same scope, key and country that applied until now, removed by this one. */
      replaced: MerchantCorrection | null;
    }
  | { refused: 'too_many' }
  /** `oldestAt`: when the oldest addition counted in the window was made. */
  | { refused: 'rate'; oldestAt: Date };

/** A page's position: the last correction of the previous page (newest first: created_at desc, id desc). */
export interface CorrectionPosition {
  createdAt: Date;
  id: string;
}

export interface CorrectionListQuery {
  /** Removed corrections too (the audit trail). */
  includeRemoved: boolean;
  after: CorrectionPosition | null;
  limit: number;
}

export interface MerchantCorrectionStore {
  /**
   * Adds `correction` (its removal fields unset). The correction of the same scope, key and country that applies is
   * removed in the same transaction (by the same actor, at the same time). Writes of one scope take turns, so two
   * concurrent adds never both apply and never both pass the last place of `limits`.
   */
  addMerchantCorrection(correction: MerchantCorrection, limits: CorrectionLimits | null): Promise<AddCorrectionResult>;
  /** Marks the scope's applying correction `id` removed; null when there is none (missing, another scope's, removed). */
  removeMerchantCorrection(scope: string, id: string, removedBy: string, at: Date): Promise<MerchantCorrection | null>;
  /** The scope's corrections, newest first (created_at desc, id desc), at most `limit`. */
  listMerchantCorrections(scope: string, query: CorrectionListQuery): Promise<MerchantCorrection[]>;
  /** The applying corrections of `scopes` filed under one of `keys`, for `countryCode` or for every country. */
  findMerchantCorrections(scopes: readonly string[], keys: readonly string[], countryCode: string): Promise<MerchantCorrection[]>;
}
