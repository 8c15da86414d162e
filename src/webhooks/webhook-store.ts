/**
 * The webhooks product's storage ports (migrations 0013, 0015 and 0024; ADR 0031, ADR 0049): management of webhooks and
 * their subscriptions, and the delivery outbox. Implemented over the database kernel in
 * webhooks/store/kysely-webhook-store.ts; main/product-stores.ts builds it.
 */
import type {
  DeliveryPageQuery,
  NewWebhookDelivery,
  StoredWebhook,
  TimeCursor,
  WebhookAttempt,
  WebhookDelivery,
  WebhookEventKind,
  WebhookPatch,
  WebhookSecretRotation,
  WebhookSubscription,
} from '../domain/webhooks.js';

/** A brand event's webhook fan-out (webhooks/delivery/webhook-fan-out.ts): one payload, one row per matching webhook. */
export interface WebhookFanOut {
  eventId: string;
  kind: WebhookEventKind;
  /** Registrable domain the event is about; matched against webhook_subscriptions.domain. */
  domain: string;
  /** The delivery body (JSON text), fixed now: every attempt sends exactly these bytes. */
  payload: string;
  createdAt: Date;
}

/** A delivery whose job one sender leased, with what it needs to send it (sealed values are opened by the sender). */
export interface ClaimedWebhookDelivery {
  id: string;
  webhookId: string;
  orgId: string;
  eventId: string;
  kind: WebhookEventKind;
  domain: string;
  payload: string;
  /** Attempts made before this one (0 on the first). */
  attempts: number;
  url: string;
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretExpiresAt: Date | null;
  authorizationSealed: string | null;
}

/** A delivery as its `webhook.deliver` job finds it. */
export interface WebhookDeliveryToSend {
  delivery: ClaimedWebhookDelivery;
  /** False once the delivery was delivered or abandoned (its job ran again after a lost outcome). */
  pending: boolean;
  /** False while its webhook is disabled or its organization is not on a paid plan: the delivery waits (ADR 0031). */
  sendable: boolean;
  /** Its webhook's last attempt failed (no accepted delivery since): its circuit breaker is on. */
  failing: boolean;
  /** While failing, the webhook's deliveries wait until then (null: not paused; the next one is the probe). */
  pausedUntil: Date | null;
}

/**
 * One attempt as recorded (a webhook_attempts row: the domain's WebhookAttempt) and what it does to the delivery and
 * the webhook. `attempt` must be the claimed delivery's `attempts + 1` (a second recording of the same attempt is
 * refused).
 */
export interface WebhookAttemptRecord extends WebhookAttempt {
  deliveryId: string;
  /**
   * The delivery's `webhook.deliver` job as its sender claimed it: settled in the attempt's transaction (done, due
   * again at `nextAttemptAt`, or failed), so a crash cannot leave a recorded attempt with its job still leased.
   */
  jobId?: string;
  /** `delivered` (2xx), `retry` at `nextAttemptAt`, or `abandoned` (the last attempt failed). */
  outcome: 'delivered' | 'retry' | 'abandoned';
  nextAttemptAt: Date | null;
}

/** The bound on an organization's test events: at most `max` created since `since`. */
export interface TestDeliveryWindow {
  since: Date;
  max: number;
}

/** A webhook the 14-day rule just disabled. */
export interface DisabledWebhook {
  id: string;
  orgId: string;
  name: string;
}

/**
 * The webhook outbox (migrations 0013 and 0015, ADR 0031): fan-out of brand events into deliveries, each with its
 * `webhook.deliver` job on the one job queue (ADR 0049: the queue leases, retries and purges them), attempts, and the
 * 14-day disabling rule.
 */
export interface WebhookDeliveryStore {
  /**
   * In one transaction: one pending delivery per enabled webhook of a paid-plan organization that subscribes to
   * `domain` and to `kind` (unique per webhook and event: repeating it adds nothing), each with its `webhook.deliver`
   * job due at `createdAt`. Returns the deliveries created by this call.
   */
  fanOutWebhookEvent(fanOut: WebhookFanOut): Promise<number>;
  /** The delivery a `webhook.deliver` job names, with its webhook's sending details; null when it is gone. */
  webhookDeliveryToSend(deliveryId: string): Promise<WebhookDeliveryToSend | null>;
  /**
   * Records an attempt, in one transaction with the delivery's new state and the webhook's `last_accepted_at` /
   * `failing_since`. False (nothing written) when that attempt was already recorded (another sender's).
   */
  recordWebhookAttempt(record: WebhookAttemptRecord): Promise<boolean>;
  /**
   * The failing webhook's probe: true (and the webhook paused until `holdUntil`) when it is failing and its pause has
   * ended; false when another delivery took the probe or the pause runs on. One caller at a time wins.
   */
  takeWebhookProbe(webhookId: string, now: Date, holdUntil: Date): Promise<boolean>;
  /** Records that a delivery waits without an attempt (e.g. no credit left) until `until`; its job is retried then. */
  postponeWebhookDelivery(deliveryId: string, until: Date): Promise<void>;
  /** Disables (reason `failing`) the enabled webhooks failing since `failingSince` or earlier; returns them. */
  disableFailingWebhooks(failingSince: Date, now: Date): Promise<DisabledWebhook[]>;
  /** Claims the daily "delivery abandoned" email of a webhook: true for one caller per `minIntervalMs`. */
  claimAbandonNotice(webhookId: string, now: Date, minIntervalMs: number): Promise<boolean>;
}

/**
 * Webhook management (GraphQL and `brandbase webhooks`, src/webhooks/management; SQL in
 * webhooks/store/webhook-admin-rows.ts). Every read and write is scoped to an organization: another
 * organization's webhook is indistinguishable from a missing one (null / false / nothing written).
 */
export interface WebhookAdminStore {
  /**
   * Inserts the webhook; with `maxPerOrg`, only while its organization has fewer webhooks than that (checked and
   * written in one transaction, so concurrent calls never pass the bound): false when refused, nothing written.
   */
  insertWebhook(webhook: StoredWebhook, maxPerOrg?: number): Promise<boolean>;
  getWebhook(orgId: string, id: string): Promise<StoredWebhook | null>;
  /** Newest first (created_at desc, id desc), strictly after `after`, at most `limit` rows. */
  listWebhooks(orgId: string, after: TimeCursor | null, limit: number): Promise<StoredWebhook[]>;
  /** Applies the patch and sets `updatedAt`; null when there is no such webhook. */
  updateWebhook(orgId: string, id: string, patch: WebhookPatch, at: Date): Promise<StoredWebhook | null>;
  /** Moves the current secret to `previous` (or drops it) and stores the new one, in one statement. */
  rotateWebhookSecret(orgId: string, id: string, rotation: WebhookSecretRotation, at: Date): Promise<StoredWebhook | null>;
  /** Deletes the webhook with its subscriptions, deliveries and attempts. */
  deleteWebhook(orgId: string, id: string): Promise<boolean>;
  /** Adds the domains not yet subscribed; returns those added, or null (nothing written) when there is no such webhook. */
  addWebhookSubscriptions(orgId: string, webhookId: string, domains: readonly string[], at: Date): Promise<string[] | null>;
  /** Returns the domains removed, or null when there is no such webhook. */
  removeWebhookSubscriptions(orgId: string, webhookId: string, domains: readonly string[]): Promise<string[] | null>;
  /** Ordered by domain, strictly after `after`, at most `limit` rows. */
  listWebhookSubscriptions(orgId: string, webhookId: string, after: string | null, limit: number): Promise<WebhookSubscription[]>;
  /** Inserts a pending delivery due at `nextAttemptAt`; false when the webhook already has one for that event. */
  insertWebhookDelivery(delivery: NewWebhookDelivery): Promise<boolean>;
  /**
   * Inserts a pending `webhook.test` delivery (and its job) unless the organization already has `window.max` test
   * deliveries created since `window.since`, over all its webhooks; refused: nothing written, with when the oldest of
   * those was created. Checked and written in one transaction.
   */
  insertTestDelivery(delivery: NewWebhookDelivery, window: TestDeliveryWindow): Promise<{ inserted: true } | { inserted: false; oldestAt: Date }>;
  /** Newest first (created_at desc, id desc) within the query's bounds. */
  listWebhookDeliveries(orgId: string, webhookId: string, query: DeliveryPageQuery): Promise<WebhookDelivery[]>;
  /** The attempts of these deliveries by delivery id, in attempt order. */
  listWebhookAttempts(deliveryIds: readonly string[]): Promise<Map<string, WebhookAttempt[]>>;
}

/** The webhooks product's whole storage: management and the delivery outbox, over the same tables. */
export type WebhookStore = WebhookAdminStore & WebhookDeliveryStore;
