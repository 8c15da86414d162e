/**
 * One named consumer of brand events in this process (docs/adr/0010-brand-events-outbox.md, ADR 0049): it
 * subscribes, then runs its `brand.event` jobs with the one worker pool (src/jobs/worker-pool.ts) over the one job
 * queue, which leases, retries and purges them; the consumer adds only its retry schedule. Delivery is at least
 * once: a process that dies while handling leaves the job leased, and it runs again when the lease expires, so
 * handlers must be idempotent.
 */
import type { BrandSavedEvent } from '../domain/brand-changes.js';
import { isRetryable } from '../domain/errors.js';
import { brandEventKeyPrefix, JOB_NAMES, type BrandEventPayload, type Job, type JobQueue } from '../jobs/queue.js';
import { WorkerPool, type JobSettlement } from '../jobs/worker-pool.js';
import { backoffDelayMs } from '../platform/backoff.js';
import type { Logger } from '../platform/logger.js';
import type { BrandEventStore } from './brand-event-store.js';

export type BrandEventHandler = (event: BrandSavedEvent, delivery: { attempts: number }) => Promise<void>;

export interface BrandEventConsumerOptions {
  /** A claimed event is leased this long; longer than the slowest handler run. Default 60 s. */
  leaseMs?: number;
  /** Sleep between polls when nothing is due (notify() wakes it early). Default 1 s. */
  idleMs?: number;
  /** Retry delay after attempt n: base × 2^(n-1), capped at maxRetryMs. Defaults 5 s and 1 h. */
  retryBaseMs?: number;
  maxRetryMs?: number;
  /** Attempts before a delivery is given up (state failed). Default 10. */
  maxAttempts?: number;
  /** The clock for claims and retry times (tests inject one). */
  now?: () => Date;
}

export class BrandEventConsumer {
  readonly #pool: WorkerPool;
  readonly #now: () => Date;
  #started = false;

  constructor(
    queue: JobQueue,
    private readonly events: BrandEventStore,
    readonly name: string,
    private readonly handler: BrandEventHandler,
    private readonly logger: Logger,
    private readonly options: BrandEventConsumerOptions = {},
  ) {
    this.#now = options.now ?? (() => new Date());
    this.#pool = new WorkerPool(queue, { [JOB_NAMES.brandEvent]: (job) => this.handle(job) }, logger, {
      concurrency: 1,
      leaseMs: options.leaseMs ?? 60_000,
      idleMs: options.idleMs ?? 1_000,
      keyPrefix: brandEventKeyPrefix(name),
      now: this.#now,
    });
  }

  /** Subscribes the consumer (events saved once this resolves are delivered to it), without handling anything yet. */
  async subscribe(): Promise<void> {
    await this.events.subscribeBrandEvents(this.name, this.#now());
  }

  /**
   * Subscribes the consumer, then starts handling its events, one at a time. A consumer runs once: after stop(),
   * make a new one.
   */
  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    await this.subscribe();
    this.#pool.start();
  }

  /** Looks for due events now instead of at the next poll (after a save in this process). */
  notify(): void {
    this.#pool.notify();
  }

  /**
   * Handles the consumer's oldest due event now, in this call (tests and commands); the outcome, or null when none
   * is due.
   */
  runNext(): Promise<JobSettlement | null> {
    return this.#pool.runNext();
  }

  /**
   * Stops claiming and waits up to `graceMs` for the event being handled. One still running then is handed
   * back (due again at once, on any process); its handler is not interrupted, but its outcome is ignored.
   */
  async stop(graceMs: number): Promise<void> {
    if (!this.#started) return;
    await this.#pool.stop(graceMs);
  }

  /** The pool's handler of one `brand.event` job of this consumer. */
  async handle(job: Job): Promise<JobSettlement> {
    const { eventId } = job.payload as BrandEventPayload;
    const event = await this.events.getBrandEvent(eventId);
    // Gone with its brand: nothing left to hand over.
    if (event === null) return { outcome: 'gone' };
    const attempts = job.attempts;
    try {
      await this.handler(event, { attempts });
      return { outcome: 'done' };
    } catch (error) {
      // An error that says it is not worth retrying (`retryable: false`) fails the delivery at once.
      const retryAt = !isRetryable(error) || attempts >= (this.options.maxAttempts ?? 10) ? null : this.#retryAt(attempts);
      this.logger.warn({ consumer: this.name, eventId: event.id, brandId: event.brandId, attempts, willRetry: retryAt !== null, err: error }, 'brand event handler failed');
      return { retry: { at: retryAt, error: error instanceof Error ? error.message : String(error) }, outcome: 'failed' };
    }
  }

  #retryAt(attempts: number): Date {
    const delay = backoffDelayMs(attempts, this.options.retryBaseMs ?? 5_000, this.options.maxRetryMs ?? 3_600_000);
    return new Date(this.#now().getTime() + delay);
  }
}
