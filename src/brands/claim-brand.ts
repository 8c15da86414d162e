/**
 * Operator marking of a claimed brand (`brandbase brands claim|unclaim <domain|id>`): spec 2.1 `claimed`, true when
 * the brand owner claimed the profile. The flag lives in the brand record; it is saved with `saveBrand`, so the
 * brand write log carries it to every API process's cache (ADR 0017), the quality score counts it (domain/
 * quality-score.ts, curation term) and re-crawls keep it (curated-fields.ts). Nothing is crawled: a brand not held
 * is an error.
 */
import { BRAND_ID_PATTERN } from '../domain/ids.js';
import { qualityScore } from '../domain/quality-score.js';
import type { BrandStore, StoredBrand } from './brand-store.js';
import { BrandNotHeldError } from './set-industry.js';

export interface ClaimInput {
  /** The brand's domain or its id (`brd_…`). */
  brand: string;
  claimed: boolean;
  now?: Date;
}

export interface ClaimOutcome {
  stored: StoredBrand;
  /** False when the brand already had that status (nothing was written). */
  changed: boolean;
}

type ClaimStore = Pick<BrandStore, 'getBrand' | 'findBrandByIdentifier' | 'saveBrand' | 'listIdentifiers'>;

export async function setBrandClaimed(store: ClaimStore, input: ClaimInput): Promise<ClaimOutcome> {
  const stored = BRAND_ID_PATTERN.test(input.brand) ? await store.getBrand(input.brand) : await store.findBrandByIdentifier({ kind: 'domain', value: input.brand });
  if (!stored || stored.status !== 'indexed') throw new BrandNotHeldError(input.brand);
  if (stored.brand.claimed === input.claimed) return { stored, changed: false };
  const now = input.now ?? new Date();
  const brand = { ...stored.brand, claimed: input.claimed };
  // The stored score is refreshed too; answers recompute it anyway (recency), see brands/refresh.ts.
  const updated: StoredBrand = { ...stored, brand: { ...brand, qualityScore: qualityScore({ ...brand, crawledAt: stored.crawledAt, now }) }, updatedAt: now };
  await store.saveBrand(updated, await store.listIdentifiers(brand.id));
  return { stored: updated, changed: true };
}
