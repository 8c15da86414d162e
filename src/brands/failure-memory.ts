/**
 * The crawl failure memory (ADR 0016): a failed crawl of a domain is answered from the store for a while instead
 * of crawling the site again, so repeated lookups of a dead or hostile site cost one primary-key read. The window
 * starts at `baseMs` and doubles with each failure in a row, up to `maxMs`; a successful crawl forgets it. The
 * rows are shared by every process (API, workers, `brandbase crawl`).
 */
import type { CrawlFailureReason } from '../domain/crawl-failures.js';
import type { Logger } from '../platform/logger.js';
import type { BrandStore } from './brand-store.js';

export interface RememberedFailure {
  ok: false;
  reason: CrawlFailureReason;
  message: string;
}

/** BRANDBASE_CRAWL_FAILURE_MEMORY_MS and BRANDBASE_CRAWL_FAILURE_MEMORY_MAX_MS. */
export interface FailureMemorySettings {
  /** The first failure's window; 0 turns the memory off. */
  baseMs: number;
  /** Each failure in a row doubles the window, up to this; failures older than this are pruned. */
  maxMs: number;
}

export const DEFAULT_FAILURE_MEMORY: FailureMemorySettings = { baseMs: 60_000, maxMs: 6 * 3_600_000 };
/** Old failures are pruned at most this often per process, after recording one (a failed crawl came first). */
const PRUNE_EVERY_MS = 10 * 60_000;

/** The window of a failure with `strikes` failures in a row. */
export function failureWindowMs(settings: FailureMemorySettings, strikes: number): number {
  return Math.min(settings.maxMs, settings.baseMs * 2 ** Math.min(Math.max(strikes, 1) - 1, 30));
}

type FailureStore = Pick<BrandStore, 'getCrawlFailure' | 'recordCrawlFailure' | 'clearCrawlFailures' | 'pruneCrawlFailures'>;

export class FailureMemory {
  private lastPrune = 0;

  constructor(
    private readonly store: FailureStore,
    private readonly logger: Logger,
    private readonly settings: FailureMemorySettings,
    private readonly now: () => Date,
  ) {}

  /** The remembered failure of `domain` still within its window, or null (one primary-key read). */
  async recall(domain: string): Promise<RememberedFailure | null> {
    if (this.settings.baseMs <= 0) return null;
    const failure = await this.store.getCrawlFailure(domain);
    if (!failure) return null;
    const until = failure.failedAt.getTime() + failureWindowMs(this.settings, failure.strikes);
    return until > this.now().getTime() ? { ok: false, reason: failure.reason, message: failure.message } : null;
  }

  /** Records the failure for every process. The answer does not depend on it: a store error is only logged. */
  async remember(domain: string, failure: RememberedFailure): Promise<void> {
    const now = this.now();
    try {
      await this.store.recordCrawlFailure({ domain, reason: failure.reason, message: failure.message, failedAt: now });
      if (now.getTime() - this.lastPrune >= PRUNE_EVERY_MS) {
        this.lastPrune = now.getTime();
        await this.store.pruneCrawlFailures(new Date(now.getTime() - this.settings.maxMs));
      }
    } catch (error) {
      this.logger.warn({ domain, err: error }, 'crawl failure could not be remembered');
    }
  }

  /** A successful crawl forgets the failures of the requested and the final domain, for every process. */
  async forget(domains: readonly string[]): Promise<void> {
    try {
      await this.store.clearCrawlFailures(domains);
    } catch (error) {
      this.logger.warn({ domains, err: error }, 'crawl failure memory could not be cleared');
    }
  }
}
