/**
 * Re-crawls (`brandbase crawl --refresh`) and record age. A stored brand older than the refresh age is stale:
 * the scheduler or the crawl command re-crawls it; `force` re-crawls whatever its age. The quality score's data
 * recency term is computed from the record's age at read time (currentQualityScore), so an old record loses
 * score until it is refreshed.
 */
import type { Brand } from '../domain/brand.js';
import { qualityScore } from '../domain/quality-score.js';
import type { BrandStore, StoredBrand } from './brand-store.js';
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

/** Crawls `domain` unless its record is fresh (and `force` is off). */
export async function refreshBrand(domain: string, deps: RefreshDeps, options: RefreshOptions = {}): Promise<RefreshOutcome> {
  const now = (deps.now ?? (() => new Date()))();
  const previous = await deps.store.findBrandByIdentifier({ kind: 'domain', value: domain });
  if (previous && !options.force && !isStale(previous, now, options.maxAgeMs ?? refreshAgeMs())) {
    return { domain, status: 'fresh', brand: previous.brand, crawledAt: previous.crawledAt };
  }
  // The indexer keeps the curated facts of the previous record (claimed, set industries) in the same write.
  const outcome = await deps.indexer.index(domain, { retry: true });
  if (!outcome.ok) return { domain, status: 'failed', reason: outcome.reason, message: outcome.message };
  return { domain, status: 'indexed', brand: outcome.stored.brand, crawledAt: outcome.stored.crawledAt };
}
