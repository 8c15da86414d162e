/**
 * Brand popularity (docs/refresh.md "Order", ADR 0030): how often each brand is looked up, counted in memory on the
 * lookup path and added to `brand_popularity` in one batch per flush, off the request path, like the usage meter
 * does for credits (billing/usage-meter.ts). A cached lookup costs a Map update, never a query. The scheduler
 * refreshes often-looked-up brands first; search ranks by the same counts (ADR 0033).
 *
 * Counts are a ranking signal, not a ledger: a batch that cannot be written is kept and retried with the next flush
 * (up to MAX_PENDING brands; beyond that new brands are not counted until a flush succeeds), and what a process
 * killed outright had not flushed is lost.
 */
import type { BrandLookupCount, RefreshStore } from './brand-store.js';

/** Default flush interval (BRANDBASE_POPULARITY_FLUSH_MS). */
export const DEFAULT_POPULARITY_FLUSH_MS = 5_000;
/** Distinct brands held in memory between flushes at most. */
const MAX_PENDING = 100_000;

export interface PopularityOptions {
  flushMs?: number;
  now?: () => Date;
  onFlushError?: (error: unknown) => void;
}

export class PopularityCounter {
  private pending = new Map<string, BrandLookupCount>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private readonly now: () => Date;

  constructor(
    private readonly store: Pick<RefreshStore, 'addBrandLookups'>,
    private readonly options: PopularityOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
  }

  /** Counts one lookup of `brandId`; the write happens later, in a batch. */
  count(brandId: string): void {
    const entry = this.pending.get(brandId);
    const at = this.now();
    if (entry) {
      entry.lookups += 1;
      entry.lastLookupAt = at;
    } else if (this.pending.size < MAX_PENDING) {
      this.pending.set(brandId, { brandId, lookups: 1, lastLookupAt: at });
    }
    this.schedule();
  }

  /** Brands counted and not written yet. */
  get pendingBrands(): number {
    return this.pending.size;
  }

  /** Writes what was counted (one batch); serialized with other flushes. */
  flush(): Promise<void> {
    const run = this.flushing.then(() => this.write());
    // The chain must survive a failed flush, or every later flush would fail with it.
    this.flushing = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush().catch((error: unknown) => this.options.onFlushError?.(error));
  }

  private async write(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    try {
      await this.store.addBrandLookups(batch);
    } catch (error) {
      // Kept for the next flush: merged with what was counted meanwhile.
      for (const entry of batch) this.requeue(entry);
      this.schedule();
      throw error;
    }
  }

  private requeue(entry: BrandLookupCount): void {
    const current = this.pending.get(entry.brandId);
    if (current) {
      current.lookups += entry.lookups;
      if (entry.lastLookupAt > current.lastLookupAt) current.lastLookupAt = entry.lastLookupAt;
    } else if (this.pending.size < MAX_PENDING) {
      this.pending.set(entry.brandId, { ...entry });
    }
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.flush().catch((error: unknown) => this.options.onFlushError?.(error));
    }, this.options.flushMs ?? DEFAULT_POPULARITY_FLUSH_MS);
    this.timer.unref();
  }
}
