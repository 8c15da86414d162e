import type { Identifier, Readings } from '../domain/identifiers.js';
import type { BrandStore, IdentifierRef, StoredBrand } from '../store/store.js';
import type { BrandCache, CachedBrand } from './brand-cache.js';
import type { BrandIndexer } from './brand-indexer.js';

export interface LookupOptions {
  /** Answer from the store only; never crawl or queue (spec 4.1). */
  cachedOnly: boolean;
  /** unset: NSFW brands are returned flagged; false: they answer 404; true: returned (docs/identifiers.md). */
  allowNsfw: boolean | undefined;
}

export type LookupResult =
  | { status: 'found'; brand: CachedBrand; domain: string | null }
  | { status: 'not_indexed'; domain: string | null }
  | { status: 'not_found'; message: string; domain: string | null };

export const NOT_FOUND_MESSAGE = 'No brand found for this identifier.';
const UNMATCHED_MESSAGE = 'This identifier cannot be matched to a company website.';

function identifierRef(identifier: Identifier): IdentifierRef | null {
  switch (identifier.kind) {
    case 'domain':
      return { kind: 'domain', value: identifier.domain };
    case 'ticker':
      return { kind: 'ticker', value: identifier.symbol };
    case 'crypto':
      return { kind: 'crypto', value: identifier.symbol };
    case 'isin':
      return { kind: 'isin', value: identifier.isin };
    case 'brandId':
      return null;
  }
}

/** Resolves parsed identifiers to a brand: cache, then store, then (for domains) a live crawl. */
export class BrandLookup {
  constructor(
    private readonly store: BrandStore,
    private readonly cache: BrandCache,
    private readonly indexer: BrandIndexer,
  ) {}

  async lookup(readings: Readings, options: LookupOptions): Promise<LookupResult> {
    const all = [readings.primary, ...readings.fallbacks];
    const primaryDomain = readings.primary.kind === 'domain' ? readings.primary.domain : null;
    // Rule 6: every reading is tried against the store before anything is crawled.
    for (const reading of all) {
      const held = await this.held(reading);
      if (held) return this.filtered(held, options, reading.kind === 'domain' ? reading.domain : null);
    }
    if (options.cachedOnly) return { status: 'not_indexed', domain: primaryDomain };
    const crawlable = all.find((r): r is Extract<Identifier, { kind: 'domain' }> => r.kind === 'domain');
    if (!crawlable) return { status: 'not_found', message: readings.primary.kind === 'brandId' ? NOT_FOUND_MESSAGE : UNMATCHED_MESSAGE, domain: null };
    const outcome = await this.indexer.index(crawlable.domain);
    if (!outcome.ok) return { status: 'not_found', message: NOT_FOUND_MESSAGE, domain: crawlable.domain };
    const cached = this.cache.getById(outcome.stored.brand.id) ?? this.cache.put(outcome.stored, [crawlable.domain]);
    return this.filtered(cached, options, crawlable.domain);
  }

  /** The brand held for one reading, or null. Removed brands count as not held. */
  async held(reading: Identifier): Promise<CachedBrand | null> {
    const hit = reading.kind === 'brandId' ? this.cache.getById(reading.id) : reading.kind === 'domain' ? this.cache.getByDomain(reading.domain) : null;
    if (hit) return hit.stored.status === 'indexed' ? hit : null;
    const ref = identifierRef(reading);
    const stored: StoredBrand | null = ref ? await this.store.findBrandByIdentifier(ref) : reading.kind === 'brandId' ? await this.store.getBrand(reading.id) : null;
    if (!stored || stored.status !== 'indexed') return null;
    return this.cache.put(stored, reading.kind === 'domain' ? [reading.domain] : []);
  }

  private filtered(brand: CachedBrand, options: LookupOptions, domain: string | null): LookupResult {
    if (brand.stored.brand.isNsfw && options.allowNsfw === false) return { status: 'not_found', message: NOT_FOUND_MESSAGE, domain };
    return { status: 'found', brand, domain: domain ?? brand.stored.brand.domain };
  }
}
