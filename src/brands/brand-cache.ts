import type { AssetUrls } from '../assets/asset-urls.js';
import type { StoredBrand } from '../store/store.js';
import { currentQualityScore } from './refresh.js';

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
 * the TTL bounds how long a change made by another process (a scale-out worker) can go unseen. Asset URLs are
 * rendered here, once per record put, so a cached answer costs nothing more than before records held keys.
 */
export class BrandCache {
  private readonly byId = new Map<string, CachedBrand>();
  private readonly idByDomain = new Map<string, string>();

  constructor(
    private readonly ttlMs: number,
    private readonly assetUrls: AssetUrls,
    private readonly maxEntries = 50_000,
    private readonly clock: () => number = Date.now,
  ) {}

  getById(id: string): CachedBrand | null {
    const hit = this.byId.get(id);
    if (!hit) return null;
    if (hit.expires <= this.clock()) {
      this.byId.delete(id);
      return null;
    }
    return hit;
  }

  getByDomain(domain: string): CachedBrand | null {
    const id = this.idByDomain.get(domain);
    return id ? this.getById(id) : null;
  }

  put(stored: StoredBrand, domains: string[]): CachedBrand {
    if (this.byId.size >= this.maxEntries) {
      this.byId.clear();
      this.idByDomain.clear();
    }
    // The quality score is served as of now: recency is one of its factors (docs/extraction.md).
    const brand = this.assetUrls.renderBrand({ ...stored.brand, qualityScore: currentQualityScore(stored, new Date(this.clock())) });
    const json = JSON.stringify(brand);
    const entry = { stored, json, bytes: Buffer.from(json), expires: this.clock() + this.ttlMs };
    this.byId.set(stored.brand.id, entry);
    for (const domain of domains) this.idByDomain.set(domain, stored.brand.id);
    return entry;
  }
}
