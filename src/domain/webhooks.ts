/**
 * Webhooks (spec section 6, issue 19): the shapes shared by the GraphQL management API (src/webhooks/management),
 * the delivery engine (src/webhooks/delivery) and the docs (docs/webhooks.md). Pure types and small helpers; the
 * rows behind them are the 0013 tables (src/webhooks/store/webhook-migration.ts).
 */
import { randomBytes } from 'node:crypto';
import type { Brand, Logo } from './brand.js';
import type { BrandChange } from './brand-changes.js';

/** Event kinds an endpoint can subscribe to. `webhook.test` is sent only on request (sendTestEvent). */
export const WEBHOOK_EVENT_KINDS = ['brand.rebranded', 'brand.updated', 'webhook.test'] as const;
export type WebhookEventKind = (typeof WEBHOOK_EVENT_KINDS)[number];

/** The kinds a webhook subscribes to when created without a list. */
export const DEFAULT_WEBHOOK_EVENTS: readonly WebhookEventKind[] = ['brand.rebranded', 'brand.updated'];

export function isWebhookEventKind(value: string): value is WebhookEventKind {
  return (WEBHOOK_EVENT_KINDS as readonly string[]).includes(value);
}

/** Why a webhook is disabled: by its owner (`manual`) or by the engine after 14 days without an accepted delivery. */
export type WebhookDisabledReason = 'manual' | 'failing';

/** A webhook as the API shows it: never its secret nor its Authorization value (those are kept sealed). */
export interface Webhook {
  /** `whk_` + 24 base32 characters. */
  id: string;
  orgId: string;
  name: string;
  url: string;
  events: WebhookEventKind[];
  enabled: boolean;
  disabledReason: WebhookDisabledReason | null;
  /** True when an Authorization header value is configured (the value itself is never shown again). */
  hasAuthorization: boolean;
  createdAt: Date;
  updatedAt: Date;
  lastAcceptedAt: Date | null;
}

export type WebhookDeliveryState = 'pending' | 'delivered' | 'abandoned';

/** One message to one endpoint; its id is the Standard Webhooks `webhook-id`, the same on every attempt. */
export interface WebhookDelivery {
  /** `msg_` + 24 base32 characters. */
  id: string;
  webhookId: string;
  orgId: string;
  /** The brand event it announces, or the test event's own id. */
  eventId: string;
  kind: WebhookEventKind;
  /** Registrable domain of the brand (for `webhook.test`, the brand the test payload shows). */
  domain: string;
  state: WebhookDeliveryState;
  /** Attempts made so far. */
  attempts: number;
  createdAt: Date;
  deliveredAt: Date | null;
  nextAttemptAt: Date | null;
}

/** One HTTP attempt of a delivery. */
export interface WebhookAttempt {
  /** 1-based. */
  attempt: number;
  startedAt: Date;
  /** Null when no response arrived (refused address, timeout, connection error). */
  statusCode: number | null;
  latencyMs: number;
  /** The first bytes of the response body as text (bounded), for the owner's debugging. */
  responseExcerpt: string | null;
  error: string | null;
  /** The local address the request left from (docs/webhooks.md: source addresses for allow-listing). */
  sourceAddress: string | null;
}

/** The JSON body of every delivery (docs/webhooks.md). Fixed when the delivery is created. */
export interface WebhookPayload {
  type: WebhookEventKind;
  /** The event id (a brand event's `evt_` id, or a test event's own `evt_` id). */
  id: string;
  /** ISO 8601. */
  timestamp: string;
  data: WebhookPayloadData;
}

export interface WebhookPayloadData {
  /** The brand as it is after the refresh, serialized as GET /v1/brand returns it. */
  brand: Brand;
  changedFields: BrandChange[];
  /** Only for `brand.rebranded`: the name and main logo before the change. */
  previous?: { name: string | null; logo: Logo | null };
}

/** Standard Webhooks secrets: `whsec_` + base64 of 32 random bytes (the spec allows 24–64). */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

export function newWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** A rotated-out secret keeps signing (as a second signature) this long unless the caller says otherwise. */
export const DEFAULT_SECRET_OVERLAP_SECONDS = 24 * 60 * 60;

/** A webhook as stored: what the API shows plus the sealed values only the delivery engine opens. */
export interface StoredWebhook extends Webhook {
  /** The signing secret, sealed (src/platform/sealed-box.ts). */
  secretSealed: string;
  /** The Authorization header value sent with every delivery, sealed; null when none. */
  authorizationSealed: string | null;
  /** A rotated-out secret that still signs until `previousSecretExpiresAt`. */
  previousSecretSealed: string | null;
  previousSecretExpiresAt: Date | null;
}

/** What an update may change; an absent field stays as it is. `authorizationSealed: null` removes the header. */
export interface WebhookPatch {
  name?: string;
  url?: string;
  events?: WebhookEventKind[];
  authorizationSealed?: string | null;
  enabled?: boolean;
}

/** A new secret; the current one keeps signing until `previousExpiresAt`, or stops at once when that is null. */
export interface WebhookSecretRotation {
  secretSealed: string;
  previousExpiresAt: Date | null;
}

export interface WebhookSubscription {
  /** Registrable domain. */
  domain: string;
  createdAt: Date;
}

/** A delivery row to create: its payload is fixed now, every attempt sends the same bytes. */
export interface NewWebhookDelivery {
  id: string;
  webhookId: string;
  orgId: string;
  eventId: string;
  kind: WebhookEventKind;
  domain: string;
  /** The JSON body (WebhookPayload) as it will be sent. */
  payload: string;
  createdAt: Date;
  /** When the first attempt is due (normally `createdAt`). */
  nextAttemptAt: Date;
}

/** A position in a list ordered newest first: (createdAt desc, id desc). */
export interface TimeCursor {
  createdAt: Date;
  id: string;
}

/** One page request of a webhook's deliveries: newest first, `from` inclusive, `to` exclusive. */
export interface DeliveryPageQuery {
  from: Date | null;
  to: Date | null;
  after: TimeCursor | null;
  /** Rows to return at most (callers ask one more than the page size to learn whether a next page exists). */
  limit: number;
}
