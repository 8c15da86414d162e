/**
 * The operator's curation of held brands behind one service (issue 31: transports call services, never storage):
 * industries set by hand (set-industry.ts), the owner's claim (claim-brand.ts) and synthetic brands written in
 * bulk for load tests (`brandbase generate-brands`). `brandbase brands ...` calls it; so would a page.
 */
import type { BrandStore, IdentifierRef, StoredBrand } from './brand-store.js';
import { setBrandClaimed, type ClaimInput, type ClaimOutcome } from './claim-brand.js';
import { setBrandIndustries, type SetIndustryInput } from './set-industry.js';

export type { IdentifierRef, StoredBrand } from './brand-store.js';

export type BrandAdminStore = Pick<BrandStore, 'getBrand' | 'findBrandByIdentifier' | 'saveBrand' | 'listIdentifiers' | 'insertBrands'>;

export class BrandAdmin {
  constructor(private readonly store: BrandAdminStore) {}

  /** Sets industries of a held brand with score 1 (BrandNotHeldError, UnknownIndustryError otherwise). */
  setIndustries(input: SetIndustryInput): Promise<StoredBrand> {
    return setBrandIndustries(this.store, input);
  }

  /** Marks a held brand, by domain or id, claimed by its owner or not. */
  setClaimed(input: ClaimInput): Promise<ClaimOutcome> {
    return setBrandClaimed(this.store, input);
  }

  /** Writes new brands in one transaction (a brand already held is skipped); the number written. */
  insertBrands(brands: readonly { stored: StoredBrand; identifiers: IdentifierRef[] }[]): Promise<number> {
    return this.store.insertBrands(brands);
  }
}
