/**
 * Sends due webhook deliveries (ADR 0031): each delivery is a `webhook.deliver` job on the one job queue, run by the
 * one worker pool (ADR 0049: the queue leases, retries and purges; FOR UPDATE SKIP LOCKED on PostgreSQL, serialized
 * writes on SQLite). For one leased delivery: hold its credit, sign it (Standard Webhooks v1, both secrets during a
 * rotation), POST it under the network rules (webhook-poster.ts), record the attempt, then retry on the schedule
 * (retry-schedule.ts, through the queue's retry time) or abandon after the 15th attempt and email the owner. A sweep
 * disables webhooks with no accepted delivery for 14 days. Time comes from the injected clock only, so tests run a
 * week of retries without sleeping.
 */
import { JOB_NAMES, type Job, type JobQueue, type WebhookDeliverPayload } from '../../jobs/queue.js';
import { WorkerPool, type JobSettlement } from '../../jobs/worker-pool.js';
import type { SealedBox } from '../../platform/sealed-box.js';
import type { Logger } from '../../platform/logger.js';
import type { ClaimedWebhookDelivery, DisabledWebhook, WebhookDeliveryStore } from '../webhook-store.js';
import type { DeliveryCharge, DeliveryPayer } from './delivery-billing.js';
import type { DeliveryNotices } from './delivery-notices.js';
import { retryDelayMs } from './retry-schedule.js';
import { standardWebhookHeaders } from './webhook-signature.js';
import type { WebhookPostResult, WebhookPoster } from './webhook-poster.js';

export const DISABLE_AFTER_MS = 14 * 24 * 60 * 60 * 1000;

export interface WebhookSenderOptions {
  now?: () => Date;
  /** Jitter source in [0, 1); 0.5 means no jitter. */
  random?: () => number;
  /** A leased delivery is not claimed by another sender before this; longer than the request timeout. Default 2 min. */
  leaseMs?: number;
  /** Sleep between polls when nothing is due (notify() wakes it early). Default 1 s. */
  idleMs?: number;
  /** Deliveries sent at once by this process. Default 4. */
  concurrency?: number;
  /**
   * Deliveries of one organization being sent at once, across every sending process (the queue's
   * `maxRunningPerOwner`: deliveries are owned by their organization). Default: no bound (turns only).
   */
  sendsPerOrganization?: number;
  /** How often the 14-day rule is checked. Default 10 min. */
  sweepIntervalMs?: number;
  /** A delivery whose organization has no credit left waits this long before it is looked at again. Default 1 h. */
  noCreditRetryMs?: number;
  /**
   * A delivery of a disabled webhook or of an organization not on a paid plan waits this long before it is looked at
   * again (enabling the webhook makes it due at once). Default 1 min.
   */
  waitingRetryMs?: number;
}

export interface WebhookSenderDeps {
  /** The one job queue: deliveries are its `webhook.deliver` jobs. */
  queue: JobQueue;
  store: Pick<WebhookDeliveryStore, 'webhookDeliveryToSend' | 'takeWebhookProbe' | 'recordWebhookAttempt' | 'postponeWebhookDelivery' | 'disableFailingWebhooks'>;
  box: SealedBox;
  poster: Pick<WebhookPoster, 'post'>;
  payer: DeliveryPayer;
  notices: DeliveryNotices | null;
  logger: Logger;
  /** Test hook: runs after a delivery is leased, before anything is sent (the crash tests stop the process there). */
  onClaimed?: (delivery: ClaimedWebhookDelivery) => Promise<void> | void;
}

/** What became of one leased delivery. */
export type AttemptOutcome = 'delivered' | 'retry' | 'abandoned' | 'postponed' | 'superseded';

/** What a job found instead of an attempt: its delivery gone or already finished, or waiting on its webhook. */
type NoAttempt = 'gone' | 'waiting';

const ATTEMPT_OUTCOMES: ReadonlySet<string> = new Set<AttemptOutcome>(['delivered', 'retry', 'abandoned', 'postponed', 'superseded']);

function isAccepted(result: WebhookPostResult): boolean {
  return result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
}

function outcomeText(result: WebhookPostResult): string {
  return result.statusCode === null ? (result.error ?? 'no response') : `HTTP ${result.statusCode}`;
}

export class WebhookSender {
  readonly #now: () => Date;
  readonly #random: () => number;
  readonly #pool: WorkerPool;
  readonly #leaseMs: number;
  #started = false;
  #sweepTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly deps: WebhookSenderDeps,
    private readonly options: WebhookSenderOptions = {},
  ) {
    this.#now = options.now ?? (() => new Date());
    this.#random = options.random ?? Math.random;
    this.#leaseMs = options.leaseMs ?? 120_000;
    this.#pool = new WorkerPool(deps.queue, { [JOB_NAMES.webhookDeliver]: (job) => this.handle(job) }, deps.logger, {
      concurrency: options.concurrency ?? 4,
      ...(options.sendsPerOrganization === undefined ? {} : { maxRunningPerOwner: options.sendsPerOrganization }),
      leaseMs: this.#leaseMs,
      idleMs: options.idleMs ?? 1_000,
      now: this.#now,
      // The retry schedule is the sender's own (settlements); a crash of the handler itself (a database error) is
      // retried by the pool with its backoff, never given up, so a delivery never waits on a job that ended.
      retryBaseMs: 5_000,
      maxAttempts: Number.MAX_SAFE_INTEGER,
    });
  }

  /** Leases and attempts the oldest due delivery; null when none is due. */
  async attemptNext(): Promise<AttemptOutcome | null> {
    for (;;) {
      const settled = await this.#pool.runNext();
      if (settled === null) return null;
      // A job that found no attempt to make (its delivery gone or waiting) is passed over, as a claim used to.
      if (settled.outcome !== undefined && ATTEMPT_OUTCOMES.has(settled.outcome)) return settled.outcome as AttemptOutcome;
    }
  }

  /** Attempts every delivery due now, one after another (tests, the bench, `brandbase` commands). */
  async drain(limit = Number.POSITIVE_INFINITY): Promise<AttemptOutcome[]> {
    const outcomes: AttemptOutcome[] = [];
    while (outcomes.length < limit) {
      const outcome = await this.attemptNext();
      if (outcome === null) break;
      outcomes.push(outcome);
    }
    return outcomes;
  }

  /** The 14-day rule: disables webhooks failing for 14 days and emails their owners. */
  async sweep(): Promise<DisabledWebhook[]> {
    const now = this.#now();
    const disabled = await this.deps.store.disableFailingWebhooks(new Date(now.getTime() - DISABLE_AFTER_MS), now);
    for (const webhook of disabled) {
      this.deps.logger.warn({ webhookId: webhook.id, orgId: webhook.orgId }, 'webhook disabled: no accepted delivery for 14 days');
      await this.deps.notices?.disabled(webhook);
    }
    return disabled;
  }

  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.#pool.start();
    const sweep = (): void => void this.sweep().catch((err: unknown) => this.deps.logger.error({ err }, 'webhook sweep failed'));
    this.#sweepTimer = setInterval(sweep, this.options.sweepIntervalMs ?? 600_000);
    this.#sweepTimer.unref();
    sweep();
  }

  /** Looks for due deliveries now instead of at the next poll (after a fan-out in this process). */
  notify(): void {
    this.#pool.notify();
  }

  /** Stops claiming and waits up to `graceMs` for requests in flight; an unfinished one is sent again after its lease. */
  async stop(graceMs: number): Promise<void> {
    if (this.#sweepTimer) clearInterval(this.#sweepTimer);
    this.#sweepTimer = null;
    if (this.#started) await this.#pool.stop(graceMs);
  }

  /** The pool's handler of one `webhook.deliver` job: the attempt, and when the job runs again (its settlement). */
  async handle(job: Job): Promise<JobSettlement> {
    const { deliveryId } = job.payload as WebhookDeliverPayload;
    const found = await this.deps.store.webhookDeliveryToSend(deliveryId);
    if (found === null || !found.pending) return this.#noAttempt('gone');
    if (!found.sendable) {
      const at = new Date(this.#now().getTime() + (this.options.waitingRetryMs ?? 60_000));
      return { ...this.#noAttempt('waiting'), retry: { at, error: 'waiting: the webhook is disabled or its organization is not on a paid plan' } };
    }
    if (found.failing) {
      // The endpoint's circuit breaker: while it fails, its deliveries wait (spending no attempt) until its pause ends,
      // then one of them alone is attempted; an accepted one makes the others due at once (docs/webhooks.md "Fairness").
      const now = this.#now();
      // A millisecond after the pause: the delivery whose retry ends it (due at that instant) is claimed first.
      if (found.pausedUntil !== null && found.pausedUntil.getTime() > now.getTime()) return this.#paused(new Date(found.pausedUntil.getTime() + 1));
      const hold = new Date(now.getTime() + this.#leaseMs);
      if (!(await this.deps.store.takeWebhookProbe(found.delivery.webhookId, now, hold))) return this.#paused(hold);
    }
    return this.#attempt(found.delivery, job.id);
  }

  #paused(until: Date): JobSettlement {
    return { ...this.#noAttempt('waiting'), retry: { at: until, error: 'waiting: the endpoint is failing; its deliveries wait behind one attempt at a time' } };
  }

  #noAttempt(outcome: NoAttempt): JobSettlement {
    return { outcome };
  }

  async #attempt(delivery: ClaimedWebhookDelivery, jobId: string): Promise<JobSettlement> {
    await this.deps.onClaimed?.(delivery);
    const charge = await this.deps.payer.hold(delivery);
    if (charge === null) {
      const until = new Date(this.#now().getTime() + (this.options.noCreditRetryMs ?? 3_600_000));
      await this.deps.store.postponeWebhookDelivery(delivery.id, until);
      this.deps.logger.info({ deliveryId: delivery.id, orgId: delivery.orgId }, 'webhook delivery waits: the organization has no credit left');
      return { outcome: 'postponed', retry: { at: until, error: 'no credit left' } };
    }
    return this.#send(delivery, jobId, charge);
  }

  async #send(delivery: ClaimedWebhookDelivery, jobId: string, charge: DeliveryCharge): Promise<JobSettlement> {
    let settled = false;
    try {
      const startedAt = this.#now();
      const attempt = delivery.attempts + 1;
      const result = await this.#post(delivery, startedAt);
      const accepted = isAccepted(result);
      const delay = accepted ? null : retryDelayMs(attempt, this.#random);
      const outcome = accepted ? 'delivered' : delay === null ? 'abandoned' : 'retry';
      const nextAttemptAt = delay === null ? null : new Date(startedAt.getTime() + delay);
      // The job is settled in the attempt's transaction (done, retried at nextAttemptAt, or failed).
      const recorded = await this.deps.store.recordWebhookAttempt({
        deliveryId: delivery.id,
        jobId,
        attempt,
        startedAt,
        statusCode: result.statusCode,
        latencyMs: result.latencyMs,
        responseExcerpt: result.responseExcerpt,
        error: result.error,
        sourceAddress: result.sourceAddress,
        outcome,
        nextAttemptAt,
      });
      const log = { deliveryId: delivery.id, webhookId: delivery.webhookId, attempt, status: result.statusCode, error: result.error, outcome };
      if (!recorded) {
        // Another sender recorded this attempt (this one outlived its lease): its record stands, nothing is charged.
        this.deps.logger.warn(log, 'webhook attempt already recorded by another sender');
        // The job is that sender's now: its outcome stands, this one records nothing.
        return { outcome: 'superseded', leave: true };
      }
      this.deps.logger.info(log, 'webhook attempt');
      if (accepted) {
        charge.settle();
        settled = true;
      }
      if (outcome === 'abandoned') await this.deps.notices?.abandoned(delivery, outcomeText(result), startedAt);
      return { outcome, leave: true };
    } finally {
      if (!settled) charge.release();
    }
  }

  /** Opens the sealed secrets and header, signs and posts; a secret that cannot be opened fails the attempt unsent. */
  async #post(delivery: ClaimedWebhookDelivery, sentAt: Date): Promise<WebhookPostResult> {
    let secrets: string[];
    let authorization: string | null;
    try {
      secrets = [this.deps.box.open(delivery.secretSealed)];
      const previous = delivery.previousSecretSealed;
      const expires = delivery.previousSecretExpiresAt;
      if (previous !== null && (expires === null || expires.getTime() > sentAt.getTime())) secrets.push(this.deps.box.open(previous));
      authorization = delivery.authorizationSealed === null ? null : this.deps.box.open(delivery.authorizationSealed);
    } catch (err) {
      this.deps.logger.error({ err, webhookId: delivery.webhookId }, 'webhook secret could not be opened (BRANDBASE_SECRET_KEY changed?)');
      return { statusCode: null, latencyMs: 0, responseExcerpt: null, error: 'sealed: the webhook secret could not be opened (installation key changed)', sourceAddress: null };
    }
    const headers = standardWebhookHeaders(secrets, delivery.id, sentAt, delivery.payload);
    if (authorization !== null) headers.authorization = authorization;
    return this.deps.poster.post(delivery.url, headers, delivery.payload);
  }
}
