/**
 * The webhooks product's tables (migrations 0013 and 0015: webhook-migration.ts, webhook-delivery-migration.ts), as
 * Kysely sees them. Timestamps are epoch milliseconds, booleans integers 0/1 (src/db/column-codec.ts).
 */
import type { Millis } from '../../db/column-codec.js';
import type { Plan } from '../../domain/accounts.js';

/** 0013: webhooks (issue 19; see webhook-migration.ts). Sealed columns hold values encrypted with the installation's key. */
export interface WebhooksTable {
  id: string;
  org_id: string;
  name: string;
  url: string;
  /** JSON array of event kinds. */
  events: string;
  authorization_sealed: string | null;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Millis | null;
  enabled: number;
  disabled_reason: 'manual' | 'failing' | null;
  last_accepted_at: Millis | null;
  created_at: Millis;
  updated_at: Millis;
  /** 0015 (webhook-delivery-migration.ts): first failed attempt since the last accepted delivery. */
  failing_since: Millis | null;
  /** 0015: when the owner was last emailed about an abandoned delivery. */
  abandon_notice_at: Millis | null;
  /** 0025 (webhook-pause-migration.ts): a failing endpoint's deliveries wait until then (its circuit breaker). */
  paused_until: Millis | null;
}

export interface WebhookSubscriptionsTable {
  webhook_id: string;
  org_id: string;
  domain: string;
  created_at: Millis;
}

export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  org_id: string;
  event_id: string;
  kind: string;
  domain: string;
  payload: string;
  state: 'pending' | 'delivered' | 'abandoned';
  attempts: number;
  next_attempt_at: Millis | null;
  lease_until: Millis | null;
  created_at: Millis;
  updated_at: Millis;
  delivered_at: Millis | null;
}

export interface WebhookAttemptsTable {
  delivery_id: string;
  attempt: number;
  started_at: Millis;
  status_code: number | null;
  latency_ms: number;
  response_excerpt: string | null;
  error: string | null;
  source_address: string | null;
}

/** What the webhooks product owns. */
export interface WebhookTables {
  webhooks: WebhooksTable;
  webhook_subscriptions: WebhookSubscriptionsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}

/**
 * Tables of other products the webhooks read, never write, with only the columns they read: an organization's plan
 * (billing's `organizations`), since only paid-plan organizations get deliveries (ADR 0031). A product's store/ folder
 * is private to it (.dependency-cruiser.cjs), so the columns are declared here; billing's migrations create the table.
 */
export interface WebhookReadTables {
  organizations: { id: string; plan: Plan };
}

/** Every table the webhooks' queries name. */
export type WebhookQueryTables = WebhookTables & WebhookReadTables;
