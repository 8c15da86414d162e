/**
 * Scheduled refresh (docs/refresh.md, ADR 0030). Held brands crawled longer ago than the refresh age are queued as
 * crawl jobs with `refresh: true`, for the worker pool to crawl like any other job (the indexer reuses the analyses
 * of unchanged files, and the save decides what the refresh announces).
 *
 * - Order: brands a webhook subscribes to first, then the most looked up (brand_popularity), then the oldest crawl
 *   (store `dueBrands`).
 * - Spreading: at most `perTick` crawls per tick, never more than `maxActive` refresh crawls queued or running, and
 *   never past `maxDepth` queued jobs of any kind (half the prefetch backlog by default), so a large store that
 *   goes stale at once is refreshed over hours instead of flooding the crawler, and live lookups keep their room.
 * - One leader per store: every worker process runs a scheduler, but a tick runs only while its process holds the
 *   `refresh` lease in the store (renewed each tick, released on a graceful stop, taken over when it expires).
 * - Restarts: all state is in the store (the jobs table, the lease, the last run), so a restarted or new leader
 *   resumes where the last one stopped; a brand whose crawl is queued or running is never queued twice, and a brand
 *   whose crawl failed recently waits for the failure memory (ADR 0016).
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { JOB_NAMES, QueueFullError, type JobQueue } from '../jobs/queue.js';
import type { Logger } from '../platform/logger.js';
import type { DueBrand, RefreshRun, RefreshState, RefreshStore } from './brand-store.js';

export type { DueBrand, RefreshRun, RefreshState } from './brand-store.js';

/** The schedule's row in `refresh_state`. */
export const REFRESH_SCHEDULE = 'refresh';

export interface RefreshSettings {
  /** A held brand crawled longer ago than this is due (BRANDBASE_REFRESH_AGE_DAYS). */
  maxAgeMs: number;
  /** Time between two ticks of the leader. */
  intervalMs: number;
  perTick: number;
  maxActive: number;
  /** Queued jobs (all kinds) past which a tick queues nothing: the backlog stays open to live work. */
  maxDepth: number;
  /** A brand whose crawl failed within this window is not queued (default: the failure memory's cap). */
  failurePauseMs: number;
}

export type RefreshSchedulerStore = Pick<RefreshStore, 'dueBrands' | 'refreshCounts' | 'acquireRefreshLease' | 'releaseRefreshLease' | 'recordRefreshRun' | 'refreshState' | 'analysisCacheSize'>;

export interface RefreshSchedulerDeps {
  store: RefreshSchedulerStore;
  queue: Pick<JobQueue, 'enqueue' | 'depth'>;
  logger: Logger;
  /** The clock (tests simulate time through it). */
  now?: () => Date;
  /** Wakes this process's idle workers after a tick queued crawls. */
  notify?: () => void;
  /** Identifies this process as lease holder; random per process unless given. */
  holder?: string;
}

/** What a tick did; `leader` false: another process holds the lease and nothing was queued. */
export interface RefreshTick {
  leader: boolean;
  run: RefreshRun | null;
  /** The brands it queued, in order. */
  queuedBrands: DueBrand[];
}

export interface RefreshStatus {
  maxAgeMs: number;
  /** Held brands older than the refresh age (queued ones included). */
  stale: number;
  queued: number;
  running: number;
  state: RefreshState;
  /** The next brands a tick would queue, in order (without those queued or running). */
  next: DueBrand[];
}

export class RefreshScheduler {
  readonly holder: string;
  private readonly now: () => Date;
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<unknown> = Promise.resolve();
  private leading = false;
  private stopped = true;

  constructor(
    private readonly deps: RefreshSchedulerDeps,
    private readonly settings: RefreshSettings,
  ) {
    this.now = deps.now ?? (() => new Date());
    this.holder = deps.holder ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  }

  /** The lease outlives a few missed ticks, so a busy leader keeps it and a dead one is replaced soon. */
  get leaseMs(): number {
    return this.settings.intervalMs * 3;
  }

  /** Ticks now, then every interval, until stop(). The timer never keeps the process alive. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.loop(0);
  }

  /** Stops ticking, waits for a tick in progress and gives the lease up, so another process takes over at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.ticking;
    if (!this.leading) return;
    this.leading = false;
    try {
      await this.deps.store.releaseRefreshLease(REFRESH_SCHEDULE, this.holder, this.now());
    } catch (error) {
      // The lease expires by itself: another process waits at most leaseMs.
      this.deps.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'refresh lease not released');
    }
  }

  /** One leader tick: takes or renews the lease, then queues the next due brands. */
  async tick(): Promise<RefreshTick> {
    const run = this.ticking.then(() => this.leaderTick());
    this.ticking = run.catch(() => undefined);
    return run;
  }

  /**
   * Queues due brands now without the lease (`brandbase refresh run`): the queue's one-job-per-domain rule keeps
   * it from doubling a leader's work, and the same bounds apply unless `limit` says how many at most.
   */
  async runNow(by: string, limit?: number): Promise<RefreshTick> {
    return { leader: true, ...(await this.queueDue(by, limit)) };
  }

  /** Rows of the content-hash analysis cache the refresh crawls read (`brandbase refresh status`). */
  analysisCacheSize(): Promise<number> {
    return this.deps.store.analysisCacheSize();
  }

  async status(nextLimit = 10): Promise<RefreshStatus> {
    const now = this.now();
    const staleBefore = this.staleBefore(now);
    const [counts, state, next] = await Promise.all([
      this.deps.store.refreshCounts(staleBefore),
      this.deps.store.refreshState(REFRESH_SCHEDULE),
      this.deps.store.dueBrands(staleBefore, nextLimit, this.failedSince(now)),
    ]);
    return { maxAgeMs: this.settings.maxAgeMs, ...counts, state, next };
  }

  private loop(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.tick()
        .catch((error: unknown) => this.deps.logger.error({ err: error }, 'refresh tick failed'))
        .finally(() => this.loop(this.settings.intervalMs));
    }, delayMs);
    this.timer.unref();
  }

  private async leaderTick(): Promise<RefreshTick> {
    const lease = await this.deps.store.acquireRefreshLease(REFRESH_SCHEDULE, this.holder, this.leaseMs, this.now());
    const wasLeading = this.leading;
    this.leading = lease !== null;
    if (!lease) return { leader: false, run: null, queuedBrands: [] };
    if (!wasLeading) this.deps.logger.info({ holder: this.holder }, 'refresh scheduler leads');
    return { leader: true, ...(await this.queueDue(this.holder)) };
  }

  private async queueDue(by: string, limit?: number): Promise<Omit<RefreshTick, 'leader'>> {
    const startedAt = this.now();
    const staleBefore = this.staleBefore(startedAt);
    const counts = await this.deps.store.refreshCounts(staleBefore);
    const active = counts.queued + counts.running;
    const depth = await this.deps.queue.depth();
    const room = Math.max(0, Math.min(limit ?? this.settings.perTick, limit === undefined ? this.settings.maxActive - active : Infinity, this.settings.maxDepth - depth));
    const due = await this.deps.store.dueBrands(staleBefore, room, this.failedSince(startedAt));
    const queuedBrands: DueBrand[] = [];
    for (const brand of due) {
      const queued = await this.enqueue(brand);
      if (queued === 'full') break;
      if (queued === 'queued') queuedBrands.push(brand);
    }
    if (queuedBrands.length > 0) this.deps.notify?.();
    const run: RefreshRun = {
      startedAt,
      finishedAt: this.now(),
      queued: queuedBrands.length,
      deferred: Math.max(0, counts.stale - active - queuedBrands.length),
      by,
    };
    await this.deps.store.recordRefreshRun(REFRESH_SCHEDULE, run);
    if (queuedBrands.length > 0) this.deps.logger.info({ queued: run.queued, deferred: run.deferred, by }, 'refresh crawls queued');
    return { run, queuedBrands };
  }

  /** `full`: the queue is at its bound, the rest waits for a later tick. */
  private async enqueue(brand: DueBrand): Promise<'queued' | 'exists' | 'full'> {
    try {
      // The operator's own work (owner null): claims take turns with organizations' crawls (ADR 0015).
      // created false: a crawl of the domain was queued meanwhile (by a lookup, say); it refreshes the brand too.
      const result = await this.deps.queue.enqueue(JOB_NAMES.crawlBrand, brand.domain, { domain: brand.domain, refresh: true }, { maxDepth: this.settings.maxDepth, owner: null });
      return result.created ? 'queued' : 'exists';
    } catch (error) {
      if (error instanceof QueueFullError) return 'full';
      throw error;
    }
  }

  private staleBefore(now: Date): Date {
    return new Date(now.getTime() - this.settings.maxAgeMs);
  }

  private failedSince(now: Date): Date {
    return new Date(now.getTime() - this.settings.failurePauseMs);
  }
}
