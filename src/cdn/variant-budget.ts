/**
 * The logo CDN's variant area under a byte budget (issue 33: variants were rendered and stored without end, about
 * 8.6 GB per address per client ID per day at the rate limit). Every variant this process writes or reads is
 * counted here by its bytes and its brand, least recently used first; past `maxBytes` the oldest are deleted from
 * the store. A brand keeps at most `perBrand` variants: past it, `admits` says no and the CDN scales a stored
 * raster instead of drawing and storing another size (logo-cdn.ts), so one brand's flood of sizes cannot push
 * every other brand's variants out.
 *
 * The count is this process's: on the local store it starts from the files found at start; a bucket
 * (no listing) starts empty, and variants written by other processes are counted once this one reads them.
 */
import type { VariantStore } from '../assets/asset-store.js';
import { ByteLru } from '../platform/byte-lru.js';

export interface VariantBudgetOptions {
  /** Bytes of variants in the store at most. */
  maxBytes: number;
  /** Variants of one brand at most. */
  perBrand: number;
}

export class VariantBudget {
  private readonly entries: ByteLru<string, { size: number; brand: string | null }>;
  private readonly byBrand = new Map<string, Set<string>>();
  private readonly deleting = new Set<Promise<void>>();
  /** Variants deleted past the budget (tests and the bench read it). */
  evicted = 0;

  constructor(
    private readonly store: VariantStore,
    private readonly options: VariantBudgetOptions,
  ) {
    this.entries = new ByteLru(options.maxBytes, (entry) => entry.size, (key, entry) => {
      this.forget(key, entry.brand);
      this.evicted += 1;
      const deleting = this.store.deleteVariant(key).catch(() => undefined);
      this.deleting.add(deleting);
      void deleting.finally(() => this.deleting.delete(deleting));
    });
  }

  private loading: Promise<void> | null = null;

  /** Counts the variants already in the store (oldest first), deleting the oldest past the budget; once per process. */
  loadOnce(): Promise<void> {
    return (this.loading ??= (async () => {
      for (const { key, size } of (await this.store.listVariants?.()) ?? []) if (!this.entries.has(key)) this.entries.set(key, { size, brand: null });
    })());
  }

  /** Whether `brand` may store one more variant (always, for a variant it already has or no brand). */
  admits(brand: string | null, key: string): boolean {
    if (brand === null || this.entries.has(key)) return true;
    return (this.byBrand.get(brand)?.size ?? 0) < this.options.perBrand;
  }

  /**
   * The variant under `key` (of `size` bytes, of `brand`) was just read or written: now the most recently used.
   * False when it alone is larger than the budget (the caller does not store it).
   */
  use(key: string, size: number, brand: string | null): boolean {
    const known = this.entries.get(key);
    if (known && known.size === size && (known.brand === brand || brand === null)) return true;
    if (known) this.forget(key, known.brand);
    const kept = this.entries.set(key, { size, brand: brand ?? known?.brand ?? null });
    const owner = brand ?? known?.brand ?? null;
    if (kept && owner !== null) {
      let keys = this.byBrand.get(owner);
      if (!keys) this.byBrand.set(owner, (keys = new Set()));
      keys.add(key);
    }
    return kept;
  }

  /** A variant served from memory: the most recently used, when it is still counted (not evicted since). */
  touch(key: string): void {
    this.entries.get(key);
  }

  /** Variants counted now, and their bytes. */
  get usage(): { variants: number; bytes: number } {
    let bytes = 0;
    for (const [, entry] of this.entries.entries()) bytes += entry.size;
    return { variants: this.entries.size, bytes };
  }

  variantsOf(brand: string): number {
    return this.byBrand.get(brand)?.size ?? 0;
  }

  /** Resolves once every deletion started so far has finished (tests). */
  async settled(): Promise<void> {
    await Promise.all([...this.deleting]);
  }

  private forget(key: string, brand: string | null): void {
    if (brand === null) return;
    const keys = this.byBrand.get(brand);
    keys?.delete(key);
    if (keys?.size === 0) this.byBrand.delete(brand);
  }
}
