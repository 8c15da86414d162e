/**
 * Rendered CDN variants, by variant key: a bounded in-memory LRU in front of the asset store's variant area
 * (`VariantStore`), so a hot logo costs a Map lookup, a cold one a file (or bucket) read, and only a never-seen
 * variant costs sharp. Renders of one key run once at a time (single flight): a page of fifty identical `<img>`
 * tags renders once.
 */
import { createHash } from 'node:crypto';
import type { VariantStore } from '../assets/asset-store.js';
import { ByteLru } from '../platform/byte-lru.js';

export interface CachedVariant {
  bytes: Buffer;
  /** Strong ETag: a hash of the bytes, quoted. */
  etag: string;
}

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

export function strongEtag(bytes: Buffer): string {
  return `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 32)}"`;
}

export class VariantCache {
  /** Least recently used out, bounded by the variants' bytes plus their ETag and key (ADR 0042). */
  private readonly memory: ByteLru<string, CachedVariant>;
  private readonly inFlight = new Map<string, Promise<CachedVariant>>();
  /** Variants answered from memory, from the store, and rendered (tests and the bench read them). */
  readonly stats = { memory: 0, store: 0, rendered: 0 };

  constructor(
    private readonly store: VariantStore,
    maxMemoryBytes: number,
  ) {
    this.memory = new ByteLru(maxMemoryBytes, (variant, key) => variant.bytes.length + (variant.etag.length + key.length) * 2);
  }

  /** The variant under `key`: from memory, else the store, else `render()` (stored and kept for next time). */
  async get(key: string, render: () => Promise<Buffer>): Promise<CachedVariant> {
    const hit = this.memory.get(key);
    if (hit) {
      this.stats.memory += 1;
      return hit;
    }
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.load(key, render).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  private async load(key: string, render: () => Promise<Buffer>): Promise<CachedVariant> {
    const stored = await this.store.getVariant(key);
    let bytes = stored;
    if (bytes) this.stats.store += 1;
    else {
      bytes = await render();
      this.stats.rendered += 1;
      await this.store.putVariant(key, bytes);
    }
    const variant = { bytes, etag: strongEtag(bytes) };
    this.memory.set(key, variant);
    return variant;
  }
}
