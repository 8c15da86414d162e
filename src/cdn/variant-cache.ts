/**
 * Rendered CDN variants, by variant key: a bounded in-memory LRU in front of the asset store's variant area
 * (`VariantStore`), so a hot logo costs a Map lookup, a cold one a file (or bucket) read, and only a never-seen
 * variant costs sharp. Renders of one key run once at a time (single flight): a page of fifty identical `<img>`
 * tags renders once. The variant area is held under a byte budget and a number of variants per brand
 * (variant-budget.ts, issue 33); fallbacks are kept in memory only (they are cheap to draw and belong to no brand).
 */
import { createHash } from 'node:crypto';
import type { VariantStore } from '../assets/asset-store.js';
import { ByteLru } from '../platform/byte-lru.js';
import type { VariantBudget } from './variant-budget.js';
import type { VariantGeometry } from './variant-geometry.js';

export interface CachedVariant {
  bytes: Buffer;
  /** Strong ETag: a hash of the bytes, quoted. */
  etag: string;
  /** Drawn by `render(true)`: the brand was at its variant limit (not stored, scaled from a stored raster). */
  scaled: boolean;
  /** In the variant area (counted by the budget). */
  stored: boolean;
}

/** Whose variant it is: its brand (the per-brand limit), and whether it is kept in the variant area at all. */
export interface VariantScope {
  brand: string | null;
  persist: boolean;
}

const MEMORY_ONLY: VariantScope = { brand: null, persist: false };

/** Bumped when rendering changes, so variants rendered by an older version are not served again. */
const RENDER_VERSION = 'v1';

/** Recent variant keys: each entry is the joined parts (about 100 characters) and a 69-character key. */
const keys = new ByteLru<string, string>(2 * 1024 * 1024, (key, text) => (text.length + key.length) * 2);

/**
 * The key of a variant: a hash of everything its bytes are made from, with the output's extension. Recent keys are
 * remembered (bounded), so a cached variant costs no hashing.
 */
export function variantKey(parts: readonly (string | number | boolean | null)[], ext: 'webp' | 'png' | 'jpeg' | 'svg'): string {
  const text = `${[RENDER_VERSION, ...parts].join('|')}|${ext}`;
  let key = keys.get(text);
  if (!key) {
    key = `${createHash('sha256').update([RENDER_VERSION, ...parts].join('|')).digest('hex')}.${ext}`;
    keys.set(text, key);
  }
  return key;
}

/**
 * The key of a brand logo's variant: the original's asset key, the geometry and the format. The crawl pre-renders
 * the common ones under the same keys (prerender-variants.ts).
 */
export function logoVariantKey(assetKey: string, geometry: VariantGeometry | null, format: 'webp' | 'png' | 'jpeg' | 'svg'): string {
  const parts = [assetKey, geometry?.width ?? null, geometry?.height ?? null, geometry?.contentWidth ?? null, geometry?.contentHeight ?? null];
  return variantKey(parts, format);
}

export function strongEtag(bytes: Buffer): string {
  return `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 32)}"`;
}

export class VariantCache {
  /** Least recently used out, bounded by the variants' bytes plus their ETag and key (ADR 0042). */
  private readonly memory: ByteLru<string, CachedVariant>;
  private readonly inFlight = new Map<string, Promise<CachedVariant>>();
  /** Variants answered from memory, from the store, rendered, and scaled past a brand's limit (tests and the bench read them). */
  readonly stats = { memory: 0, store: 0, rendered: 0, scaled: 0 };

  constructor(
    private readonly store: VariantStore,
    maxMemoryBytes: number,
    readonly budget: VariantBudget,
  ) {
    this.memory = new ByteLru(maxMemoryBytes, (variant, key) => variant.bytes.length + (variant.etag.length + key.length) * 2);
  }

  /**
   * The variant under `key`: from memory, else the store, else `render(limited)` (stored and kept for next time).
   * `limited`: the brand has its number of variants already; the render should not draw from an SVG, and its
   * result is kept in memory only.
   */
  async get(key: string, render: (limited: boolean) => Promise<Buffer>, scope: VariantScope = MEMORY_ONLY): Promise<CachedVariant> {
    const hit = this.memory.get(key);
    if (hit) {
      this.stats.memory += 1;
      if (hit.stored) this.budget.touch(key);
      return hit;
    }
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.load(key, render, scope).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  private async load(key: string, render: (limited: boolean) => Promise<Buffer>, scope: VariantScope): Promise<CachedVariant> {
    const stored = scope.persist ? await this.store.getVariant(key) : null;
    let variant: CachedVariant;
    if (stored) {
      this.stats.store += 1;
      variant = { bytes: stored, etag: strongEtag(stored), scaled: false, stored: this.budget.use(key, stored.length, scope.brand) };
    } else {
      const limited = scope.persist && !this.budget.admits(scope.brand, key);
      const bytes = await render(limited);
      if (limited) this.stats.scaled += 1;
      else this.stats.rendered += 1;
      const keep = scope.persist && !limited && this.budget.use(key, bytes.length, scope.brand);
      if (keep) await this.store.putVariant(key, bytes);
      variant = { bytes, etag: strongEtag(bytes), scaled: limited, stored: keep };
    }
    this.memory.set(key, variant);
    return variant;
  }
}
