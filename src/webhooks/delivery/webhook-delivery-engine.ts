/**
 * The webhook delivery engine of one process (ADR 0031, ADR 0049): the `webhooks` brand-event consumer that fans
 * events out into deliveries, and the sender that sends them; both run their jobs of the one job queue with the one
 * worker pool. Built by src/main/services.ts; worker processes (and `serve` with its embedded worker) start it. Any
 * number of processes may run it on one database: jobs are leased.
 */
import type { BrandEventStore } from '../../events/brand-event-store.js';
import { BrandEventConsumer } from '../../events/brand-event-consumer.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Logger } from '../../platform/logger.js';
import type { WebhookFanOut } from './webhook-fan-out.js';
import type { WebhookSender } from './webhook-sender.js';

export class WebhookDeliveryEngine {
  readonly consumer: BrandEventConsumer;
  #started = false;

  constructor(
    deps: { queue: JobQueue; events: BrandEventStore },
    readonly fanOut: WebhookFanOut,
    readonly sender: WebhookSender,
    logger: Logger,
    private readonly options: { senders: number; now?: () => Date },
  ) {
    this.consumer = new BrandEventConsumer(
      deps.queue,
      deps.events,
      fanOut.consumer,
      async (event) => {
        if ((await fanOut.handle(event)) > 0) sender.notify();
      },
      logger,
      options.now ? { now: options.now } : {},
    );
  }

  /** Subscribes the consumer (events saved from now on are fanned out) and starts the senders. */
  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    await this.consumer.start();
    if (this.options.senders > 0) this.sender.start();
  }

  /** Wakes the fan-out (after a save in this process). */
  notify(): void {
    this.consumer.notify();
  }

  async stop(graceMs: number): Promise<void> {
    if (!this.#started) return;
    await Promise.all([this.consumer.stop(graceMs), this.sender.stop(graceMs)]);
  }
}
