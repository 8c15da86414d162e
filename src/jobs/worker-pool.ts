import { isRetryable } from '../domain/errors.js';
import { backoffDelayMs } from '../platform/backoff.js';
import type { Logger } from '../platform/logger.js';
import type { ClaimOptions, Job, JobName, JobQueue } from './queue.js';

/**
 * What a handler may return instead of completing its job: `retry` records a failure due again at `at` (null: the job
 * ends `failed`), for handlers with their own retry schedule (webhook deliveries, brand events); `leave` records
 * nothing (another worker took the job over after this one's lease expired, and its outcome stands). `outcome` names
 * what happened, for `runNext`'s caller.
 */
export interface JobSettlement {
  retry?: { at: Date | null; error: string };
  leave?: boolean;
  outcome?: string;
}

export type JobHandler = (job: Job) => Promise<void | JobSettlement>;

/**
 * An error a handler throws for an outcome it expected (a site that cannot be crawled), not for a bug: the pool
 * logs it in one line with its details and no stack (e.g. domain/crawl-failures.ts CrawlFailedError).
 */
interface ExpectedFailure {
  expected: true;
  details(): Record<string, unknown>;
}

function isExpectedFailure(error: unknown): error is ExpectedFailure {
  return typeof error === 'object' && error !== null && 'expected' in error && error.expected === true && 'details' in error && typeof error.details === 'function';
}

/** `{ reqId }` of the API request that queued the job (its payload carries it), so its lines follow that request. */
export function requestOf(job: Job): { reqId?: string } {
  const id = (job.payload as { requestId?: unknown }).requestId;
  return typeof id === 'string' ? { reqId: id } : {};
}

export interface WorkerPoolOptions {
  concurrency: number;
  /** A claimed job is leased this long; a process that dies leaves it claimable again afterwards. */
  leaseMs?: number;
  /** Sleep between polls when the queue is empty. */
  idleMs?: number;
  /** Retry delay for attempt n: base × 2^(n-1), capped. */
  retryBaseMs?: number;
  maxAttempts?: number;
  /** Only jobs whose key starts with this (one brand event consumer's jobs). */
  keyPrefix?: string;
  /** At most this many running jobs of one owner (the queue's `ClaimOptions.maxRunningPerOwner`, across every process). */
  maxRunningPerOwner?: number;
  /** The clock for claims and retry times (tests inject one). */
  now?: () => Date;
}

/**
 * Runs queued jobs in this process. `stop()` stops claiming, waits for running jobs up to a grace period and
 * puts unfinished ones back in the queue, so a SIGTERM never loses a job.
 */
export class WorkerPool {
  private readonly running = new Map<string, Promise<void>>();
  private stopping = false;
  private loops: Promise<void>[] = [];
  private readonly wakers = new Set<() => void>();
  /** Counts notify() calls, so a loop that was claiming when one came claims again instead of sleeping. */
  private notified = 0;
  /** Jobs handed back to the queue by stop(); their late completion must not be recorded. */
  private readonly released = new Set<string>();

  constructor(
    private readonly queue: JobQueue,
    private readonly handlers: Partial<Record<JobName, JobHandler>>,
    private readonly logger: Logger,
    private readonly options: WorkerPoolOptions,
  ) {}

  start(): void {
    for (let i = 0; i < this.options.concurrency; i++) this.loops.push(this.loop());
  }

  /** Wakes idle workers now (after an enqueue in this process) instead of at the next poll. */
  notify(): void {
    this.notified++;
    for (const wake of [...this.wakers]) wake();
  }

  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    this.notify();
    const unfinished = [...this.running.keys()];
    const finished = Promise.all(this.running.values()).then(() => true);
    const timedOut = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), graceMs).unref());
    if (!(await Promise.race([finished, timedOut]))) {
      for (const id of unfinished) {
        if (!this.running.has(id)) continue;
        this.released.add(id);
        await this.queue.release(id);
      }
      this.logger.warn({ released: unfinished.length }, 'jobs released back to the queue on shutdown');
    }
    await Promise.race([Promise.all(this.loops), timedOut]);
  }

  /**
   * Claims one due job and runs it to its end in this call; null when none is due. The workers' loop is made of it,
   * and tests, the bench and commands call it to run due work now, one job after another.
   */
  async runNext(): Promise<JobSettlement | null> {
    const job = await this.queue.claim(Object.keys(this.handlers) as JobName[], this.options.leaseMs ?? 120_000, this.now(), this.claimOptions());
    if (!job) return null;
    const run = this.run(job);
    this.running.set(job.id, run.then(() => undefined));
    try {
      return await run;
    } finally {
      this.running.delete(job.id);
    }
  }

  private claimOptions(): ClaimOptions {
    const { keyPrefix, maxRunningPerOwner } = this.options;
    return { ...(keyPrefix === undefined ? {} : { keyPrefix }), ...(maxRunningPerOwner === undefined ? {} : { maxRunningPerOwner }) };
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      // A job enqueued while this claim ran may not have been visible to it; its notify() then must not be slept through.
      const notifiedBefore = this.notified;
      let ran: JobSettlement | null = null;
      try {
        ran = await this.runNext();
      } catch (error) {
        this.logger.error({ err: error }, 'job claim failed');
      }
      if (ran === null && this.notified === notifiedBefore) await this.idle();
    }
  }

  private async run(job: Job): Promise<JobSettlement> {
    const handler = this.handlers[job.name];
    try {
      if (!handler) throw new Error(`no handler for ${job.name}`);
      const settlement = (await handler(job)) ?? {};
      if (this.released.has(job.id) || settlement.leave === true) return settlement;
      if (settlement.retry === undefined) await this.queue.complete(job.id);
      else await this.queue.fail(job.id, settlement.retry.error, settlement.retry.at);
      return settlement;
    } catch (error) {
      const attempts = job.attempts;
      const max = this.options.maxAttempts ?? 3;
      const delay = backoffDelayMs(attempts, this.options.retryBaseMs ?? 30_000, 3_600_000);
      // The error says whether another try can help (domain/errors.ts isRetryable); a final one is not retried.
      const retryAt = isRetryable(error) && attempts < max ? new Date(this.now().getTime() + delay) : null;
      this.logFailure(job, error, retryAt !== null);
      if (!this.released.has(job.id)) await this.queue.fail(job.id, error instanceof Error ? error.message : String(error), retryAt);
      return { outcome: 'failed' };
    }
  }

  /** One line per failed attempt; only an unexpected error (a bug) carries its stack. */
  private logFailure(job: Job, error: unknown, retry: boolean): void {
    const fields = { ...requestOf(job), jobId: job.id, name: job.name, attempt: job.attempts, retry };
    if (isExpectedFailure(error)) this.logger.info({ ...fields, ...error.details() }, 'job failed');
    else this.logger.warn({ ...fields, err: error }, 'job crashed');
  }

  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, this.options.idleMs ?? 500);
      timer.unref();
      this.wakers.add(done);
    });
  }
}
