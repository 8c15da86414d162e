/**
 * Re-crawls (`brandbase crawl --refresh`) and record age. A stored brand older than the refresh age is stale:
 * the scheduler or the crawl command re-crawls it; `force` re-crawls whatever its age. The quality score's data
 * recency term is computed from the record's age at read time (currentQualityScore), so an old record loses
 * score until it is refreshed.
 */
import type { Brand } from '../domain/brand.js';
import { qualityScore } from '../domain/quality-score.js';
import type { BrandStore, StoredBrand } from '../store/store.js';
import { keepCuratedFields } from './curated-fields.js';
import type { IndexOutcome } from './brand-indexer.js';

/** Default refresh age: the quality score's recency term starts to decay after 30 days too. */
export const DEFAULT_REFRESH_AGE_DAYS = 30;
const DAY_MS = 86_400_000;

export function refreshAgeMs(days: number = DEFAULT_REFRESH_AGE_DAYS): number {
  return Math.max(0, days) * DAY_MS;
}

export function isStale(stored: StoredBrand, now: Date, maxAgeMs: number): boolean {
  return now.getTime() - stored.crawledAt.getTime() >= maxAgeMs;
}

/** The quality score of a stored record as of `now` (recency from its crawl time). */
export function currentQualityScore(stored: StoredBrand, now: Date): number {
  return qualityScore({ ...stored.brand, crawledAt: stored.crawledAt, now });
}

export interface RefreshDeps {
  store: Pick<BrandStore, 'findBrandByIdentifier' | 'saveBrand' | 'listIdentifiers'>;
  indexer: { index(domain: string, options?: { retry?: boolean }): Promise<IndexOutcome> };
  now?: () => Date;
}

export interface RefreshOptions {
  /** Re-crawl even when the record is younger than the refresh age. */
  force?: boolean;
  maxAgeMs?: number;
}

export type RefreshOutcome =
  | { domain: string; status: 'fresh'; brand: Brand; crawledAt: Date }
  | { domain: string; status: 'indexed'; brand: Brand; crawledAt: Date }
  | { domain: string; status: 'failed'; reason: string; message: string };

/**
 * Crawls `domain` unless its record is fresh (and `force` is off); keeps the curated facts of the previous
 * record (claimed, set industries) on the new one.
 */
export async function refreshBrand(domain: string, deps: RefreshDeps, options: RefreshOptions = {}): Promise<RefreshOutcome> {
  const now = (deps.now ?? (() => new Date()))();
  const previous = await deps.store.findBrandByIdentifier({ kind: 'domain', value: domain });
  if (previous && !options.force && !isStale(previous, now, options.maxAgeMs ?? refreshAgeMs())) {
    return { domain, status: 'fresh', brand: previous.brand, crawledAt: previous.crawledAt };
  }
  const outcome = await deps.indexer.index(domain, { retry: true });
  if (!outcome.ok) return { domain, status: 'failed', reason: outcome.reason, message: outcome.message };
  const stored = await restoreCurated(previous, outcome.stored, deps);
  return { domain, status: 'indexed', brand: stored.brand, crawledAt: stored.crawledAt };
}

async function restoreCurated(previous: StoredBrand | null, fresh: StoredBrand, deps: RefreshDeps): Promise<StoredBrand> {
  if (!previous || previous.brand.id !== fresh.brand.id) return fresh;
  const brand = keepCuratedFields(previous.brand, fresh.brand, fresh.crawledAt);
  if (JSON.stringify(brand) === JSON.stringify(fresh.brand)) return fresh;
  const stored = { ...fresh, brand };
  await deps.store.saveBrand(stored, await deps.store.listIdentifiers(brand.id));
  return stored;
}
