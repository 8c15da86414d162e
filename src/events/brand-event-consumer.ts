/**
 * Runs one named consumer of brand events in this process: subscribe, then claim → handler → complete, one
 * event at a time. Delivery is at least once (docs/adr/0010-brand-events-outbox.md): a process that dies while
 * handling leaves the delivery leased, and it is delivered again when the lease expires, so handlers must be
 * idempotent. src/jobs/worker-pool.ts is the model.
 */
import type { BrandSavedEvent } from '../domain/brand-changes.js';
import { isRetryable } from '../domain/errors.js';
import { backoffDelayMs } from '../platform/backoff.js';
import type { Logger } from '../platform/logger.js';
import type { BrandEventStore, ClaimedBrandEvent } from '../store/store.js';

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
  #stopping = false;
  #loop: Promise<void> | null = null;
  #current: { eventId: string; run: Promise<void> } | null = null;
  /** Deliveries handed back by stop(); their late outcome must not be recorded. */
  readonly #released = new Set<string>();
  #wake: (() => void) | null = null;
  /** Set by notify(); an idle that starts after it returns at once, so no wake-up is lost. */
  #woken = false;
  readonly #now: () => Date;

  constructor(
    private readonly store: BrandEventStore,
    readonly name: string,
    private readonly handler: BrandEventHandler,
    private readonly logger: Logger,
    private readonly options: BrandEventConsumerOptions = {},
  ) {
    this.#now = options.now ?? (() => new Date());
  }

  /**
   * Subscribes the consumer (events saved once this resolves are delivered to it), then starts handling.
   * A consumer runs once: after stop(), make a new one.
   */
  async start(): Promise<void> {
    if (this.#loop !== null || this.#stopping) return;
    await this.store.subscribeBrandEvents(this.name, this.#now());
    this.#loop = this.#run();
  }

  /** Looks for due events now instead of at the next poll (after a save in this process). */
  notify(): void {
    this.#woken = true;
    this.#wake?.();
  }

  /**
   * Stops claiming and waits up to `graceMs` for the event being handled. One still running then is handed
   * back (due again at once, on any process); its handler is not interrupted, but its outcome is ignored.
   */
  async stop(graceMs: number): Promise<void> {
    this.#stopping = true;
    this.notify();
    const current = this.#current;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), graceMs)));
    try {
      if (current !== null && !(await Promise.race([current.run.then(() => true), timedOut]))) {
        this.#released.add(current.eventId);
        this.logger.warn({ consumer: this.name, eventId: current.eventId }, 'brand event handed back on shutdown');
        // When this fails too, the lease expires and the event is delivered again all the same.
        await this.store.retryBrandEvent(this.name, current.eventId, 'interrupted by shutdown', this.#now()).catch((err: unknown) => this.logger.error({ err }, 'brand event hand-back failed'));
      }
      await Promise.race([this.#loop, timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }

  async #run(): Promise<void> {
    while (!this.#stopping) {
      this.#woken = false;
      const claimed = await this.#claim();
      if (claimed === null) {
        await this.#idle();
        continue;
      }
      if (this.#stopping) {
        // Claimed while stop() began: hand it straight back rather than start a handler nobody waits for.
        await this.store.retryBrandEvent(this.name, claimed.event.id, 'interrupted by shutdown', this.#now()).catch(() => undefined);
        break;
      }
      const run = this.#handle(claimed);
      this.#current = { eventId: claimed.event.id, run };
      await run;
      this.#current = null;
    }
  }

  async #claim(): Promise<ClaimedBrandEvent | null> {
    try {
      return await this.store.claimBrandEvent(this.name, this.options.leaseMs ?? 60_000, this.#now());
    } catch (error) {
      this.logger.error({ consumer: this.name, err: error }, 'brand event claim failed');
      return null;
    }
  }

  async #handle({ event, attempts }: ClaimedBrandEvent): Promise<void> {
    let failure: { error: unknown } | null = null;
    try {
      await this.handler(event, { attempts });
    } catch (error) {
      failure = { error };
    }
    if (this.#released.has(event.id)) return;
    try {
      if (failure === null) {
        await this.store.completeBrandEvent(this.name, event.id);
        return;
      }
      const { error } = failure;
      // An error that says it is not worth retrying (`retryable: false`) fails the delivery at once.
      const retryAt = !isRetryable(error) || attempts >= (this.options.maxAttempts ?? 10) ? null : this.#retryAt(attempts);
      this.logger.warn({ consumer: this.name, eventId: event.id, brandId: event.brandId, attempts, willRetry: retryAt !== null, err: error }, 'brand event handler failed');
      await this.store.retryBrandEvent(this.name, event.id, error instanceof Error ? error.message : String(error), retryAt);
    } catch (err) {
      // The delivery stays leased and is delivered again when the lease expires.
      this.logger.error({ consumer: this.name, eventId: event.id, err }, 'brand event outcome could not be recorded');
    }
  }

  #retryAt(attempts: number): Date {
    const delay = backoffDelayMs(attempts, this.options.retryBaseMs ?? 5_000, this.options.maxRetryMs ?? 3_600_000);
    return new Date(this.#now().getTime() + delay);
  }

  #idle(): Promise<void> {
    if (this.#woken) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        if (this.#wake === done) this.#wake = null;
        resolve();
      };
      const timer = setTimeout(done, this.options.idleMs ?? 1_000);
      timer.unref();
      this.#wake = done;
    });
  }
}
