/**
 * The job queue port. The embedded default keeps jobs in a table of the same database as the brands
 * (`jobs/sql`), so a job survives a restart of the process and is visible to every worker process.
 */

import type { DbTransaction } from '../db/database.js';
import type { QueueAdmissionRules, QueueRefusalReason, QueueStanding } from '../domain/queue-admission.js';

export const JOB_NAMES = { crawlBrand: 'crawl.brand', paletteRender: 'palette.render', brandEvent: 'brand.event', webhookDeliver: 'webhook.deliver' } as const;
export type JobName = (typeof JOB_NAMES)[keyof typeof JOB_NAMES];

export interface CrawlBrandPayload {
  /** Registrable domain to index. Never a URL or an email address. */
  domain: string;
  /** True for a refresh of a brand already held. */
  refresh: boolean;
  /** The id of the API request that queued the crawl: the worker's log lines carry it as `reqId` (ADR 0039). */
  requestId?: string;
}

/** Renders a brand's home page for palette evidence after a crawl that did not render (ADR 0023). */
export interface PaletteRenderPayload {
  brandId: string;
  /** The brand's registrable domain: its home page is rendered. Never a URL. */
  domain: string;
  /** Milliseconds: when the crawl whose CSS evidence the render replaces ran; another value means stale. */
  observedAt: number;
}

/**
 * Hands one `brand.saved` event to one subscribed consumer (docs/adr/0010, ADR 0049). Enqueued by the events' brand
 * save hook in the saving transaction, one job per consumer; the key is `brandEventJobKey(consumer, eventId)`.
 */
export interface BrandEventPayload {
  consumer: string;
  /** The `brand_events` row the consumer is handed. */
  eventId: string;
}

/** Sends one webhook delivery (ADR 0031, ADR 0049); enqueued with its `webhook_deliveries` row, keyed by its id. */
export interface WebhookDeliverPayload {
  deliveryId: string;
}

export interface JobPayloads {
  'crawl.brand': CrawlBrandPayload;
  'palette.render': PaletteRenderPayload;
  'brand.event': BrandEventPayload;
  'webhook.deliver': WebhookDeliverPayload;
}

/**
 * The key of a consumer's `brand.event` job: the consumer's name first, so one consumer claims only its own jobs
 * (`ClaimOptions.keyPrefix`: `brandEventKeyPrefix(consumer)`). Consumer names hold no `/` (subscribing refuses one).
 */
export function brandEventJobKey(consumer: string, eventId: string): string {
  return `${brandEventKeyPrefix(consumer)}${eventId}`;
}

export function brandEventKeyPrefix(consumer: string): string {
  return `${consumer}/`;
}

export type JobState = 'queued' | 'running' | 'done' | 'failed';

export interface Job<N extends JobName = JobName> {
  id: string;
  name: N;
  /** Deduplication key: at most one queued or running job per (name, key). */
  key: string;
  payload: JobPayloads[N];
  state: JobState;
  attempts: number;
  runAt: Date;
  lockedUntil: Date | null;
  lastError: string | null;
  /** Who queued it (an organization id), for fair claiming; null for the operator's own work (CLI, refresh). */
  owner: string | null;
}

export interface EnqueueResult {
  id: string;
  /** False when a queued or running job with the same (name, key) already existed; its id is returned. */
  created: boolean;
}

export interface EnqueueOptions {
  /**
   * The caller's open write transaction (pg-boss's `db` option): the job row is inserted in it and commits or rolls back
   * with the caller's write, so a save and the work it causes exist together or not at all (ADR 0003). Without it the
   * enqueue runs in its own write transaction. With `maxDepth`/`maxPerOwner` on PostgreSQL, the enqueue lock is then
   * held until the caller's transaction ends.
   */
  tx?: DbTransaction<unknown>;
  /** Bound on all queued jobs: a real bound, HEAD prefetch answers 503 past it. */
  maxDepth?: number;
  runAt?: Date;
  /** Who queues the job (an organization id); null or unset for the operator's own work. */
  owner?: string | null;
  /**
   * Bound on the owner's active (queued or running) jobs of this name, so one owner can never fill the queue alone
   * (its jobs of other names do not count).
   */
  maxPerOwner?: number;
  /**
   * Fair admission (ADR 0050): the queue counts the queued jobs of this name and the owner's active ones of this name
   * (other kinds of work, such as webhook deliveries waiting for a retry, never take a crawl's place) under its enqueue lock and
   * asks `queueAdmission` (domain/queue-admission.ts) with this standing and these rules, in the enqueue
   * transaction; a refusal is a `QueueFullError` with the policy's reason. Set instead of `maxDepth`/`maxPerOwner`.
   */
  admission?: { standing: QueueStanding; rules: QueueAdmissionRules };
}

export interface ClaimOptions {
  /** Only jobs whose key starts with this (a brand event consumer claims its own `brand.event` jobs only). */
  keyPrefix?: string;
  /**
   * Passes over the jobs of an owner that already has this many running (leased) jobs of the names claimed, so one
   * owner's slow work (a webhook endpoint that never answers) never holds more than this many workers; the operator's
   * own work (owner null) counts as one owner. Claims with this bound take turns (a transaction lock on PostgreSQL,
   * SQLite's single writer), so concurrent claimers in any number of processes never pass it together.
   */
  maxRunningPerOwner?: number;
}

export interface SettleOptions {
  tx?: DbTransaction<unknown>;
}

export interface JobQueue {
  /**
   * Adds a job unless one with the same (name, key) is queued or running. Rejects with `QueueFullError` when
   * `maxDepth` queued jobs are already waiting, the owner already has `maxPerOwner` active jobs, or the fair
   * admission policy (`opts.admission`) refuses the owner; a duplicate is answered whatever the bounds. With `opts.tx` the
   * job is written in that transaction (no transaction of its own): it exists once the caller commits, never on rollback.
   */
  enqueue<N extends JobName>(name: N, key: string, payload: JobPayloads[N], opts?: EnqueueOptions): Promise<EnqueueResult>;
  /**
   * Claims a due job and leases it until `now + leaseMs`; an expired lease makes the job claimable again. Claims
   * are fair between owners: each owner's oldest due job takes its turn before anyone's second, and an owner
   * whose jobs (of these names) are already running waits behind owners with fewer running (round-robin, weighted
   * by running); `opts.maxRunningPerOwner` caps an owner's running jobs outright.
   */
  claim(names: JobName[], leaseMs: number, now?: Date, opts?: ClaimOptions): Promise<Job | null>;
  /** With `opts.tx`, in the caller's transaction (a handler that records its outcome and settles its job at once). */
  complete(id: string, opts?: SettleOptions): Promise<void>;
  /** Records a failure; the job runs again at `retryAt`, or ends `failed` when `retryAt` is null. */
  fail(id: string, error: string, retryAt: Date | null, opts?: SettleOptions): Promise<void>;
  /**
   * Makes the queued jobs of `name` with these keys due at `at` when they were due later (a waiting webhook delivery
   * whose webhook was enabled again); returns how many. With `opts.tx`, in the caller's transaction.
   */
  makeDue(name: JobName, keys: readonly string[], at: Date, opts?: { tx?: DbTransaction<unknown> }): Promise<number>;
  /** Puts a claimed job back in the queue untouched (graceful shutdown). */
  release(id: string): Promise<void>;
  /** Number of queued jobs (not running). */
  depth(): Promise<number>;
  /**
   * When the longest-waiting queued job became due (its `runAt`), or null when none is queued: `/metrics` reports how
   * long it has waited (ADR 0039). A job retried later counts from its retry time.
   */
  oldestQueuedAt(): Promise<Date | null>;
  get(id: string): Promise<Job | null>;
  /**
   * Deletes up to `limit` finished jobs (`done` or `failed`) last updated before `before`; returns how many. Queued
   * and running jobs are never touched. The retention sweep of the worker pool calls it (ADR 0041).
   */
  purgeFinished(before: Date, limit: number): Promise<number>;
}

export class QueueFullError extends Error {
  constructor(
    readonly depth: number,
    /** `queue`: the queue refused (at maxDepth, or its reserve or back-pressure under fair admission); `owner`: this owner's share is used. */
    readonly scope: 'queue' | 'owner' = 'queue',
    /** The admission policy's reason (domain/queue-admission.ts); `depth` or `share` for the plain bounds. */
    readonly reason: QueueRefusalReason = scope === 'queue' ? 'depth' : 'share',
  ) {
    super(scope === 'queue' ? `job queue is full for this owner (${depth} waiting, ${reason})` : `the owner already has ${depth} active jobs`);
    this.name = 'QueueFullError';
  }
}
