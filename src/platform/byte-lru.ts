/**
 * A least-recently-used map bounded by bytes, not entries (issue 22: "the in-memory caches are bounded by bytes").
 * Every in-memory cache of the service is one of these (ADR 0042): serialized brands, verified API keys, parsed
 * identifiers, CDN variants. Each entry's size is what the caller says it costs (`sizeOf`), an estimate of the
 * heap it holds; the cache keeps the sum at or under `maxBytes` by dropping the least recently used entries. A
 * value larger than the whole budget is not cached at all (it would evict everything for one entry), and a budget
 * of 0 caches nothing.
 *
 * Map order is the recency order: `get` moves a hit to the back, so eviction walks from the front. O(1) per get
 * and set, amortized.
 */

/** Bytes per character of a JavaScript string (UTF-16), the usual estimate for strings held in the heap. */
export const BYTES_PER_CHAR = 2;

/** Overhead of one Map entry and its bookkeeping, added to every entry's own size (an estimate, V8 on 64 bits). */
export const ENTRY_OVERHEAD_BYTES = 64;

/** The estimated heap bytes of a string held in memory. */
export function stringBytes(text: string): number {
  return text.length * BYTES_PER_CHAR;
}

export class ByteLru<K, V> {
  readonly #entries = new Map<K, { value: V; bytes: number }>();
  #bytes = 0;

  constructor(
    readonly maxBytes: number,
    private readonly sizeOf: (value: V, key: K) => number,
    /** Called for every entry dropped to make room (not for `delete` or `clear`): caches with side indexes use it. */
    private readonly onEvict: (key: K, value: V) => void = () => {},
  ) {
    if (!Number.isFinite(maxBytes) || maxBytes < 0) throw new RangeError(`maxBytes must be a finite number >= 0, got ${maxBytes}`);
  }

  /** Bytes held now (the sum of the entries' sizes and overheads). */
  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The value under `key`, now the most recently used; undefined when absent. */
  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  /** The value under `key` without touching its recency. */
  peek(key: K): V | undefined {
    return this.#entries.get(key)?.value;
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  /**
   * Stores `value` as the most recently used and evicts the oldest entries until the budget holds. Returns false
   * (and drops any older value under `key`) when the value alone is larger than the budget.
   */
  set(key: K, value: V): boolean {
    this.delete(key);
    const bytes = this.sizeOf(value, key) + ENTRY_OVERHEAD_BYTES;
    if (bytes > this.maxBytes) return false;
    this.#entries.set(key, { value, bytes });
    this.#bytes += bytes;
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= entry.bytes;
      this.onEvict(oldest, entry.value);
    }
    return true;
  }

  delete(key: K): boolean {
    const entry = this.#entries.get(key);
    if (!entry) return false;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
    return true;
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  /** Entries from least to most recently used. */
  entries(): IterableIterator<[K, V]> {
    return (function* (map: Map<K, { value: V }>) {
      for (const [key, entry] of map) yield [key, entry.value] as [K, V];
    })(this.#entries);
  }
}
