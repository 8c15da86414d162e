import type { Logger } from '../platform/logger.js';
import type { BrandWriteLog } from './brand-store.js';
import type { BrandCache } from './brand-cache.js';

export interface BrandCacheSyncOptions {
  /** Time between two polls of the brand write log (BRANDBASE_CACHE_SYNC_MS). */
  intervalMs: number;
  /** Writes read per query while catching up. */
  batchSize?: number;
}

export interface BrandCacheSyncStatus {
  /** seq of the last write applied to the cache. */
  cursor: number;
  /** Polls finished so far, failed ones included. */
  polls: number;
  /** True from a failed poll until the next successful one. */
  failing: boolean;
}

/**
 * Keeps this process's BrandCache coherent with writes made by every other process (ADR 0017). Every
 * `intervalMs`, off the request path, it reads the brand write log past the last write it applied and drops
 * those brands and domains from the cache; the next lookup of one reads the store. A cached lookup never waits
 * for it and costs no query. A write committed at time t is answered everywhere by the first poll that ends
 * after t: within `intervalMs` plus one poll's queries.
 *
 * When the log cannot say what changed (this process fell behind the pruned rows, or the log went back because
 * the database was restored), the whole cache is cleared. While the database cannot be read, the cache keeps
 * serving (the TTL still applies), one line is logged, and the poller catches up from its cursor once it can.
 */
export class BrandCacheSync {
  #cursor = 0;
  #polls = 0;
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<void> | null = null;
  #started = false;
  #stopped = false;
  /** When the current run of failed polls began, or null while polls succeed. */
  #failingSince: number | null = null;
  #failedPolls = 0;
  readonly #batchSize: number;

  constructor(
    private readonly log: BrandWriteLog,
    private readonly cache: BrandCache,
    private readonly logger: Logger,
    private readonly options: BrandCacheSyncOptions,
  ) {
    if (!Number.isSafeInteger(options.intervalMs) || options.intervalMs <= 0) throw new RangeError(`intervalMs must be a positive integer, got ${options.intervalMs}`);
    this.#batchSize = options.batchSize ?? 500;
  }

  /**
   * Starts from the newest write: what was written before is in the store, which is where an empty cache reads.
   * Call it before the cache is filled. Idempotent.
   */
  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    this.#cursor = await this.log.latestBrandWrite();
    this.schedule();
  }

  /** Stops polling and waits for a poll in progress, so the store can be closed after it. Idempotent. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#running;
  }

  status(): BrandCacheSyncStatus {
    return { cursor: this.#cursor, polls: this.#polls, failing: this.#failingSince !== null };
  }

  private schedule(): void {
    if (this.#stopped) return;
    // unref: a poller alone never keeps a process alive; stop() clears it on close.
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#running = this.poll().finally(() => {
        this.#running = null;
        this.schedule();
      });
    }, this.options.intervalMs).unref();
  }

  /** One poll: catch up with the log. Never throws. */
  private async poll(): Promise<void> {
    try {
      await this.catchUp();
      this.recovered();
    } catch (error) {
      this.failed(error);
    } finally {
      this.#polls++;
    }
  }

  private async catchUp(): Promise<void> {
    const latest = await this.log.latestBrandWrite();
    if (latest < this.#cursor) return this.reset(latest, 'the brand write log went back (database restored or recreated)');
    while (this.#cursor < latest && !this.#stopped) {
      const writes = await this.log.brandWritesAfter(this.#cursor, this.#batchSize);
      const first = writes[0];
      const last = writes.at(-1);
      // Numbers have no gaps, so a first write past cursor + 1 means rows this process never read were pruned.
      if (first === undefined || last === undefined || first.seq !== this.#cursor + 1) {
        return this.reset(latest, 'brand writes were pruned before this process read them');
      }
      this.cache.invalidate(
        writes.map((write) => write.brandId),
        writes.flatMap((write) => write.domains),
      );
      this.#cursor = last.seq;
    }
  }

  private reset(latest: number, why: string): void {
    this.cache.clear();
    this.logger.warn({ from: this.#cursor, to: latest }, `brand cache cleared: ${why}`);
    this.#cursor = latest;
  }

  /** One line when the log cannot be read, then quiet until it can: a database restart must not flood the log. */
  private failed(error: unknown): void {
    this.#failedPolls++;
    if (this.#failingSince !== null) return;
    this.#failingSince = Date.now();
    this.logger.warn({ err: error, retryMs: this.options.intervalMs }, 'brand cache sync: cannot read the brand write log; cached brands may be stale until it recovers (retrying quietly)');
  }

  private recovered(): void {
    if (this.#failingSince === null) return;
    this.logger.info({ failedPolls: this.#failedPolls, downMs: Date.now() - this.#failingSince }, 'brand cache sync recovered');
    this.#failingSince = null;
    this.#failedPolls = 0;
  }
}
