import type { AssetUrls } from '../assets/asset-urls.js';
import { ByteLru, ENTRY_OVERHEAD_BYTES, stringBytes } from '../platform/byte-lru.js';
import type { BoundCounter } from '../platform/metrics.js';
import type { StoredBrand } from './brand-store.js';
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

/** Default budget of the brand cache (BRANDBASE_BRAND_CACHE_MB): about 17,000 records of a well-filled brand. */
export const DEFAULT_BRAND_CACHE_BYTES = 256 * 1024 * 1024;

/**
 * The heap an entry holds, estimated from its JSON length: the JSON string (counted at 2 bytes a character), its
 * UTF-8 bytes (1), the parsed stored record (objects, arrays and strings: 3.5), plus the domain and identifier keys
 * that point at it. Calibrated on generated records (2,240 JSON characters on average): the estimate is 15.5 KB an
 * entry, the measured heap and external memory 15.6 KB (docs/performance.md "A million brands").
 */
function entryBytes(entry: CachedBrand, domains: readonly string[], keys: readonly string[]): number {
  let index = 0;
  for (const key of [...domains, ...keys]) index += stringBytes(key) + ENTRY_OVERHEAD_BYTES;
  return Math.ceil(entry.json.length * 3.5) + stringBytes(entry.json) + entry.bytes.length + index;
}

/**
 * Serialized brands and the domain → brand index, in memory. Saves in this process replace entries at once;
 * writes by other processes (`brandbase crawl`, a worker, another API process) are dropped by `invalidate`, called
 * off the request path by brand-cache-sync.ts within BRANDBASE_CACHE_SYNC_MS (ADR 0017). The TTL is a backstop
 * only. Asset URLs are rendered here, once per record put, so a cached answer costs nothing more than before
 * records held keys.
 */
export class BrandCache {
  /** Least recently used out, bounded by the entries' estimated bytes (ADR 0042); the indexes below follow it. */
  private readonly byId: ByteLru<string, CachedBrand>;
  /** The domains cached per brand, so an evicted brand takes its domain entries with it. */
  private readonly domainsById = new Map<string, string[]>();
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
    maxBytes = DEFAULT_BRAND_CACHE_BYTES,
    private readonly clock: () => number = Date.now,
    private readonly counters: CacheCounters = UNCOUNTED,
  ) {
    this.byId = new ByteLru(maxBytes, (entry, id) => entryBytes(entry, this.domainsById.get(id) ?? [], this.keysById.get(id) ?? []), (id) => this.dropIndexes(id));
  }

  /** Estimated bytes held, and entries (tests, the bench). */
  get usage(): { bytes: number; entries: number; maxBytes: number } {
    return { bytes: this.byId.bytes, entries: this.byId.size, maxBytes: this.byId.maxBytes };
  }

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
    const id = stored.brand.id;
    // The indexes first: the entry's size counts the domains and keys that point at it.
    for (const domain of domains) this.idByDomain.set(domain, id);
    this.domainsById.set(id, [...new Set([...(this.domainsById.get(id) ?? []), ...domains])]);
    if (keys.length > 0) this.addKeys(id, keys);
    // Larger than the whole budget (or a budget of 0): answered, not kept.
    if (!this.byId.set(id, entry)) this.dropIndexes(id);
    return entry;
  }

  /** Drops the brands, their identifier keys and the domain entries (a domain may have moved to another brand), so the next lookup reads the store. */
  invalidate(brandIds: Iterable<string>, domains: Iterable<string>): void {
    this.generation++;
    for (const id of brandIds) {
      this.byId.delete(id);
      for (const key of this.keysById.get(id) ?? []) this.idByKey.delete(key);
      this.keysById.delete(id);
      this.domainsById.delete(id);
    }
    for (const domain of domains) this.idByDomain.delete(domain);
  }

  /** An evicted brand's domain and identifier entries (only those still pointing at it). */
  private dropIndexes(id: string): void {
    for (const domain of this.domainsById.get(id) ?? []) if (this.idByDomain.get(domain) === id) this.idByDomain.delete(domain);
    for (const key of this.keysById.get(id) ?? []) if (this.idByKey.get(key) === id) this.idByKey.delete(key);
    this.domainsById.delete(id);
    this.keysById.delete(id);
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
    this.domainsById.clear();
    this.idByDomain.clear();
    this.idByKey.clear();
    this.keysById.clear();
  }
}

/** The cache key of an identifier row other than a domain: `ticker:XTKS:7203`, `isin:US0378331005`, `crypto:BTC`. */
export function identifierCacheKey(ref: { kind: string; value: string }): string {
  return `${ref.kind}:${ref.value}`;
}
