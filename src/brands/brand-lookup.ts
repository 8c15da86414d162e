import type { Identifier, Readings } from '../domain/identifiers.js';
import type { BrandStore, IdentifierRef, StoredBrand } from '../store/store.js';
import type { BrandCache, CachedBrand } from './brand-cache.js';
import type { BrandIndexer } from './brand-indexer.js';

export interface LookupOptions {
  /** Answer from the store only; never crawl or queue (spec 4.1). */
  cachedOnly: boolean;
  /** unset: NSFW brands are returned flagged; false: they answer 404; true: returned (docs/identifiers.md). */
  allowNsfw: boolean | undefined;
  /** Who a live crawl is for (fair turns for crawl workers, ADR 0015); null or unset for the operator's own. */
  owner?: string | null;
}

export type LookupResult =
  | { status: 'found'; brand: CachedBrand; domain: string | null }
  | { status: 'not_indexed'; domain: string | null }
  | { status: 'not_found'; message: string; domain: string | null };

export const NOT_FOUND_MESSAGE = 'No brand found for this identifier.';
export const UNMATCHED_MESSAGE = 'This identifier cannot be matched to a company website.';

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
    const primaryDomain = readings.primary.kind === 'domain' ? readings.primary.domain : null;
    // Rule 6: every reading is tried against the store before anything is crawled.
    const known = await this.state(readings);
    if (known.state === 'held') return this.filtered(known.brand, options, primaryDomain);
    // A removed brand stays removed: it is not crawled back into existence by a lookup.
    if (known.state === 'removed') return { status: 'not_found', message: NOT_FOUND_MESSAGE, domain: primaryDomain };
    if (options.cachedOnly) return { status: 'not_indexed', domain: primaryDomain };
    const all = [readings.primary, ...readings.fallbacks];
    const crawlable = all.find((r): r is Extract<Identifier, { kind: 'domain' }> => r.kind === 'domain');
    if (!crawlable) return { status: 'not_found', message: readings.primary.kind === 'brandId' ? NOT_FOUND_MESSAGE : UNMATCHED_MESSAGE, domain: null };
    const outcome = await this.indexer.index(crawlable.domain, { owner: options.owner ?? null });
    if (!outcome.ok) return { status: 'not_found', message: NOT_FOUND_MESSAGE, domain: crawlable.domain };
    const cached = this.cache.getById(outcome.stored.brand.id) ?? this.cache.put(outcome.stored, [crawlable.domain]);
    return this.filtered(cached, options, crawlable.domain);
  }

  /** What the store knows of the readings, without crawling: held, removed, or absent (HEAD, batch). */
  async state(readings: Readings): Promise<{ state: 'held'; brand: CachedBrand } | { state: 'removed' | 'absent' }> {
    let removed = false;
    for (const reading of [readings.primary, ...readings.fallbacks]) {
      const found = await this.find(reading);
      if (found?.stored.status === 'indexed') return { state: 'held', brand: found };
      if (found) removed = true;
    }
    return { state: removed ? 'removed' : 'absent' };
  }

  /** True when a crawl of `domain` failed recently: nothing can be fetched for it right now. */
  recentFailure(domain: string): boolean {
    return this.indexer.recentFailure(domain) !== null;
  }

  /** Applies the allowNsfw rule (spec 4.1) to a held brand. */
  visible(brand: CachedBrand, allowNsfw: boolean | undefined): boolean {
    return !(brand.stored.brand.isNsfw && allowNsfw === false);
  }

  private async find(reading: Identifier): Promise<CachedBrand | null> {
    const hit = reading.kind === 'brandId' ? this.cache.getById(reading.id) : reading.kind === 'domain' ? this.cache.getByDomain(reading.domain) : null;
    if (hit) return hit;
    const ref = identifierRef(reading);
    const stored: StoredBrand | null = ref ? await this.store.findBrandByIdentifier(ref) : reading.kind === 'brandId' ? await this.store.getBrand(reading.id) : null;
    if (!stored) return null;
    return this.cache.put(stored, reading.kind === 'domain' ? [reading.domain] : []);
  }

  private filtered(brand: CachedBrand, options: LookupOptions, domain: string | null): LookupResult {
    if (!this.visible(brand, options.allowNsfw)) return { status: 'not_found', message: NOT_FOUND_MESSAGE, domain };
    return { status: 'found', brand, domain: domain ?? brand.stored.brand.domain };
  }
}
