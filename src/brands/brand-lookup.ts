import type { CrawlFailureReason } from '../domain/crawl-failures.js';
import type { Identifier, Readings } from '../domain/identifiers.js';
import type { BrandStore, IdentifierRef, StoredBrand } from './brand-store.js';
import { identifierCacheKey, type BrandCache, type CachedBrand } from './brand-cache.js';
import type { BrandIndexer } from './brand-indexer.js';
import { identifierKeys, type FinancialResolver, type Resolution } from './financial-resolver.js';
import type { PopularityCounter } from './popularity-counter.js';

export interface LookupOptions {
  /** Answer from the store only; never crawl or queue (spec 4.1). */
  cachedOnly: boolean;
  /** unset: NSFW brands are returned flagged; false: they answer 404; true: returned (docs/identifiers.md). */
  allowNsfw: boolean | undefined;
  /** Who a live crawl is for (fair turns for crawl workers, ADR 0015); null or unset for the operator's own. */
  owner?: string | null;
  /** The API request a live crawl is for: named in the indexer's log lines as `reqId` (ADR 0039). */
  requestId?: string;
}

export type LookupResult =
  | { status: 'found'; brand: CachedBrand; domain: string | null }
  | { status: 'not_indexed'; domain: string | null }
  /** `reason`: set only when a crawl failed (now, or within the failure memory); absent for any other 404. */
  | { status: 'not_found'; message: string; domain: string | null; reason?: CrawlFailureReason };

/** What the store holds for readings (`state`); `resolution`: the ticker, ISIN or crypto reading that resolved. */
export type KnownState =
  | { state: 'held'; brand: CachedBrand; resolution: Resolution | null }
  | { state: 'removed' | 'absent'; resolution: Resolution | null };

export interface StateOptions {
  /**
   * Resolve a ticker, ISIN or crypto symbol through the reference data when no brand is attached to it (reads
   * only; never a crawl). False under cachedOnly: "a ticker, ISIN or crypto symbol not yet indexed is not resolved".
   */
  resolve: boolean;
}

export const NOT_FOUND_MESSAGE = 'No brand found for this identifier.';
export const UNMATCHED_MESSAGE = 'This identifier cannot be matched to a company website.';

/**
 * Resolves parsed identifiers to a brand: cache, then store, then (a ticker, ISIN or crypto symbol) the reference
 * data to a website, then a live crawl of that website (rule 7); the identifiers are then attached to the brand.
 */
export class BrandLookup {
  constructor(
    private readonly store: BrandStore,
    private readonly cache: BrandCache,
    private readonly indexer: BrandIndexer,
    private readonly resolver: FinancialResolver | null = null,
    /** Counts brands answered, in memory (brands/popularity-counter.ts): the refresh order and search read it. */
    private readonly popularity: Pick<PopularityCounter, 'count'> | null = null,
  ) {}

  async lookup(readings: Readings, options: LookupOptions): Promise<LookupResult> {
    const result = await this.resolveLookup(readings, options);
    if (result.status === 'found') this.popularity?.count(result.brand.stored.brand.id);
    return result;
  }

  private async resolveLookup(readings: Readings, options: LookupOptions): Promise<LookupResult> {
    const primaryDomain = readings.primary.kind === 'domain' ? readings.primary.domain : null;
    // Rule 6: every reading is tried against the store before anything is crawled.
    const known = await this.state(readings, { resolve: !options.cachedOnly });
    if (known.state === 'held') return this.filtered(await this.attached(known.brand, known.resolution), options, primaryDomain);
    // A removed brand stays removed: it is not crawled back into existence by a lookup.
    if (known.state === 'removed') return { status: 'not_found', message: NOT_FOUND_MESSAGE, domain: primaryDomain };
    if (options.cachedOnly) return { status: 'not_indexed', domain: primaryDomain };
    return this.live(readings, known.resolution, options);
  }

  /**
   * Crawls the readings in order until one gives a brand (rule 6: the other reading is tried when the first finds
   * nothing). A domain is crawled as it is; a ticker, ISIN or crypto symbol through its resolved website.
   */
  private async live(readings: Readings, resolution: Resolution | null, options: LookupOptions): Promise<LookupResult> {
    let failed: LookupResult | null = null;
    for (const reading of [readings.primary, ...readings.fallbacks]) {
      const target = reading.kind === 'domain' ? reading.domain : resolution?.reading === reading ? resolution.domain : null;
      if (!target) continue;
      const outcome = await this.indexer.index(target, { owner: options.owner ?? null, ...(options.requestId === undefined ? {} : { requestId: options.requestId }) });
      if (!outcome.ok) {
        failed ??= { status: 'not_found', message: NOT_FOUND_MESSAGE, domain: target, reason: outcome.reason };
        continue;
      }
      const cached = this.cache.getById(outcome.stored.brand.id) ?? this.cache.put(outcome.stored, [target]);
      const brand = reading.kind === 'domain' ? cached : await this.attached(cached, resolution);
      return this.filtered(brand, options, target);
    }
    return failed ?? { status: 'not_found', message: readings.primary.kind === 'brandId' ? NOT_FOUND_MESSAGE : UNMATCHED_MESSAGE, domain: null };
  }

  /**
   * What the store knows of the readings, without crawling: held, removed, or absent (HEAD, batch, industries).
   * With `resolve`, a ticker, ISIN or crypto reading no brand is attached to is resolved to its website and that
   * website's brand is looked up (`resolution` is set when one resolved, held or not).
   */
  async state(readings: Readings, options: StateOptions = { resolve: false }): Promise<KnownState> {
    let removed = false;
    const all = [readings.primary, ...readings.fallbacks];
    for (const reading of all) {
      const found = await this.find(reading);
      if (found?.stored.status === 'indexed') return { state: 'held', brand: found, resolution: null };
      if (found) removed = true;
    }
    const resolution = options.resolve && !removed ? await this.resolve(all) : null;
    if (resolution) {
      const found = await this.find({ kind: 'domain', domain: resolution.domain, source: 'domain' });
      if (found?.stored.status === 'indexed') return { state: 'held', brand: found, resolution };
      if (found) removed = true;
    }
    return { state: removed ? 'removed' : 'absent', resolution };
  }

  /**
   * Attaches a resolution's identifiers to the brand it resolved to (rule 7: "both ticker and ISIN are attached"),
   * so the next lookup by them is a cache hit. One write per identifier form, the first time only.
   */
  async attached(brand: CachedBrand, resolution: Resolution | null): Promise<CachedBrand> {
    if (!resolution) return brand;
    const saved = await this.indexer.attach(brand.stored.brand.id, resolution.refs, resolution.financial);
    if (!saved) return brand;
    return this.cache.put(saved, [saved.brand.domain], undefined, resolution.refs.map(identifierCacheKey));
  }

  private async resolve(readings: Identifier[]): Promise<Resolution | null> {
    if (!this.resolver) return null;
    for (const reading of readings) {
      if (reading.kind === 'domain' || reading.kind === 'brandId') continue;
      const resolution = await this.resolver.resolve(reading);
      if (resolution) return resolution;
    }
    return null;
  }

  /**
   * Why a crawl of `domain` failed, when it failed within the failure memory: nothing can be fetched for it right
   * now. One primary-key read; call it only when the brand is not held.
   */
  async recentFailure(domain: string): Promise<CrawlFailureReason | null> {
    return (await this.indexer.recentFailure(domain))?.reason ?? null;
  }

  /** Applies the allowNsfw rule (spec 4.1) to a held brand. */
  visible(brand: CachedBrand, allowNsfw: boolean | undefined): boolean {
    return !(brand.stored.brand.isNsfw && allowNsfw === false);
  }

  private async find(reading: Identifier): Promise<CachedBrand | null> {
    if (reading.kind === 'brandId') return this.byId(reading.id);
    if (reading.kind === 'domain') return this.cache.getByDomain(reading.domain) ?? this.fromStore({ kind: 'domain', value: reading.domain }, [reading.domain], []);
    const refs = identifierKeys(reading);
    // A cached ticker, ISIN or crypto symbol costs Map lookups only, like a domain.
    for (const ref of refs) {
      const hit = this.cache.getByKey(identifierCacheKey(ref));
      if (hit) return hit;
    }
    for (const ref of refs) {
      const stored = await this.fromStore(ref, [], [identifierCacheKey(ref)]);
      if (stored) return stored;
    }
    return null;
  }

  private async byId(id: string): Promise<CachedBrand | null> {
    const hit = this.cache.getById(id);
    if (hit) return hit;
    const fence = this.cache.fence();
    const stored = await this.store.getBrand(id);
    return stored ? this.cache.put(stored, [], fence) : null;
  }

  private async fromStore(ref: IdentifierRef, domains: string[], keys: string[]): Promise<CachedBrand | null> {
    // Taken before the read: a record another process replaces meanwhile is answered but not cached (ADR 0017).
    const fence = this.cache.fence();
    const stored: StoredBrand | null = await this.store.findBrandByIdentifier(ref);
    return stored ? this.cache.put(stored, domains, fence, keys) : null;
  }

  private filtered(brand: CachedBrand, options: LookupOptions, domain: string | null): LookupResult {
    if (!this.visible(brand, options.allowNsfw)) return { status: 'not_found', message: NOT_FOUND_MESSAGE, domain };
    return { status: 'found', brand, domain: domain ?? brand.stored.brand.domain };
  }
}
