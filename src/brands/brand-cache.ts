import type { AssetUrls } from '../assets/asset-urls.js';
import type { BoundCounter } from '../platform/metrics.js';
import type { StoredBrand } from '../store/store.js';
import { currentQualityScore } from './refresh.js';

/** Hit and miss counters of the cache's lookups (`/metrics`, ADR 0039): two increments, nothing allocated per lookup. */
export interface CacheCounters {
  hit: BoundCounter;
  miss: BoundCounter;
}

const UNCOUNTED: CacheCounters = { hit: { inc() {} }, miss: { inc() {} } };

export interface CachedBrand {
  /** As held in the store: every asset `src` is a key. Never serialized for users as it is. */
  stored: StoredBrand;
  /** The Brand serialized once (without `palette`), every asset key rendered as a URL (asset-urls.ts). */
  json: string;
  /** `json` as UTF-8 bytes: the hot path sends these as they are (a string is re-encoded on every write). */
  bytes: Buffer;
  expires: number;
}

/**
 * Serialized brands and the domain → brand index, in memory. Saves in this process replace entries at once;
 * writes by other processes (`brandbase crawl`, a worker, another API process) are dropped by `invalidate`, called
 * off the request path by brand-cache-sync.ts within BRANDBASE_CACHE_SYNC_MS (ADR 0017). The TTL is a backstop
 * only. Asset URLs are rendered here, once per record put, so a cached answer costs nothing more than before
 * records held keys.
 */
export class BrandCache {
  private readonly byId = new Map<string, CachedBrand>();
  private readonly idByDomain = new Map<string, string>();
  /** `ticker:XTKS:7203`, `isin:…`, `crypto:BTC` → brand id: a cached ticker lookup costs one Map lookup, like a domain. */
  private readonly idByKey = new Map<string, string>();
  /** The identifier keys cached per brand, so an invalidated brand takes its ticker keys with it. */
  private readonly keysById = new Map<string, string[]>();
  /** Bumped by every invalidation: a record read from the store before one may be older than it (see `fence`). */
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly assetUrls: AssetUrls,
    private readonly maxEntries = 50_000,
    private readonly clock: () => number = Date.now,
    private readonly counters: CacheCounters = UNCOUNTED,
  ) {}

  getById(id: string): CachedBrand | null {
    return this.counted(this.live(id));
  }

  getByDomain(domain: string): CachedBrand | null {
    const id = this.idByDomain.get(domain);
    return this.counted(id ? this.live(id) : null);
  }

  /** The brand cached under an identifier key (`identifierCacheKey`). */
  getByKey(key: string): CachedBrand | null {
    const id = this.idByKey.get(key);
    return this.counted(id ? this.live(id) : null);
  }

  private live(id: string): CachedBrand | null {
    const hit = this.byId.get(id);
    if (!hit) return null;
    if (hit.expires <= this.clock()) {
      this.byId.delete(id);
      return null;
    }
    return hit;
  }

  private counted(entry: CachedBrand | null): CachedBrand | null {
    (entry ? this.counters.hit : this.counters.miss).inc();
    return entry;
  }

  /**
   * Take one before reading a record from the store and pass it to `put`. A store read can return a record that
   * was replaced while the read was in flight; if the replacement's invalidation ran in between, that record
   * would otherwise be cached after it and served until the TTL. With the fence it is answered, not kept.
   */
  fence(): number {
    return this.generation;
  }

  /**
   * Caches the record under its id and `domains`. With a `fence` from before the store read, a record that an
   * invalidation may have overtaken is returned without being cached.
   */
  put(stored: StoredBrand, domains: string[], fence?: number, keys: readonly string[] = []): CachedBrand {
    // The quality score is served as of now: recency is one of its factors (docs/extraction.md).
    const brand = this.assetUrls.renderBrand({ ...stored.brand, qualityScore: currentQualityScore(stored, new Date(this.clock())) });
    const json = JSON.stringify(brand);
    const entry = { stored, json, bytes: Buffer.from(json), expires: this.clock() + this.ttlMs };
    if (fence !== undefined && fence !== this.generation) return entry;
    if (this.byId.size >= this.maxEntries) this.clear();
    this.byId.set(stored.brand.id, entry);
    for (const domain of domains) this.idByDomain.set(domain, stored.brand.id);
    if (keys.length > 0) this.addKeys(stored.brand.id, keys);
    return entry;
  }

  /** Drops the brands, their identifier keys and the domain entries (a domain may have moved to another brand), so the next lookup reads the store. */
  invalidate(brandIds: Iterable<string>, domains: Iterable<string>): void {
    this.generation++;
    for (const id of brandIds) {
      this.byId.delete(id);
      for (const key of this.keysById.get(id) ?? []) this.idByKey.delete(key);
      this.keysById.delete(id);
    }
    for (const domain of domains) this.idByDomain.delete(domain);
  }

  private addKeys(id: string, keys: readonly string[]): void {
    const mine = this.keysById.get(id) ?? [];
    for (const key of keys) {
      const previous = this.idByKey.get(key);
      // A key that moved here from another brand is no longer that brand's.
      if (previous && previous !== id) this.keysById.set(previous, (this.keysById.get(previous) ?? []).filter((k) => k !== key));
      this.idByKey.set(key, id);
      if (!mine.includes(key)) mine.push(key);
    }
    this.keysById.set(id, mine);
  }

  /** Drops everything (the brand write log cannot say what changed). */
  clear(): void {
    this.generation++;
    this.byId.clear();
    this.idByDomain.clear();
    this.idByKey.clear();
    this.keysById.clear();
  }
}

/** The cache key of an identifier row other than a domain: `ticker:XTKS:7203`, `isin:US0378331005`, `crypto:BTC`. */
export function identifierCacheKey(ref: { kind: string; value: string }): string {
  return `${ref.kind}:${ref.value}`;
}
