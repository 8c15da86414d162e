/**
 * Row types of the tables every Kysely-backed store shares (SQLite and PostgreSQL).
 *
 * Time: every timestamp column holds epoch milliseconds as an integer (`bigint` on PostgreSQL; SQLite gives a
 * `bigint` column INTEGER affinity). One representation on both dialects keeps comparisons, ordering and the
 * millisecond precision of `Date` exact without per-dialect parsing; the PostgreSQL pool parses int8 to a
 * number (see src/db/postgres/open-postgres-database.ts), which is safe for any date before the year 287396.
 *
 * JSON: documents (`brands.record`, `jobs.payload`) are stored as text on both dialects. Text round-trips
 * byte-for-byte (jsonb would reorder keys) and the store never queries inside them.
 */
import type { Plan, UsageSource } from '../../domain/accounts.js';
import type { JobsTable } from '../../jobs/sql/jobs-table.js';
import type { ClientIdSearchTables } from './search-schema.js';
import type { BrandTables } from '../../brands/store/brand-tables.js';
import type { CreditLeaseTables } from './credit-lease-schema.js';

import type { Millis } from '../../db/column-codec.js';

export type { Millis };

export interface OrganizationsTable {
  id: string;
  name: string;
  plan: Plan;
  quota: number;
  created_at: Millis;
  /** 0002: null = configured default. */
  spending_limit_cents: number | null;
  /** 0002: JSON array of email addresses, as text. */
  billing_contacts: string;
  /** 0002: null = configured default. */
  rate_limit_per_minute: number | null;
}

export interface ApiKeysTable {
  id: string;
  org_id: string;
  name: string;
  secret_hash: string;
  prefix: string;
  created_at: Millis;
  revoked_at: Millis | null;
}

export interface UsageLedgerTable {
  id: string;
  org_id: string;
  key_id: string | null;
  credits: number;
  reason: string;
  created_at: Millis;
  /** 0002: 'quota' for every entry written before it. */
  source: UsageSource;
}

export interface CreditGrantsTable {
  id: string;
  org_id: string;
  credits: number;
  amount_cents: number | null;
  reason: string;
  created_at: Millis;
  /** Insertion order (migration 0023): breaks ties of created_at; written by NEXT_CREDIT_GRANT_SEQ. */
  seq?: number | null;
}

export interface UsageNoticesTable {
  org_id: string;
  period: string;
  threshold: number;
  created_at: Millis;
}


/** 0003: one row per `brand.saved` event, written in the save's transaction; never updated. */
export interface BrandEventsTable {
  id: string;
  brand_id: string;
  domain: string;
  type: string;
  /** JSON array of BrandChange names, as text. */
  changes: string;
  /** 1 when the save inserted the brand, 0 otherwise (an integer on both dialects). */
  created: number;
  created_at: Millis;
  /** 0014: JSON BrandAnnouncement, or null when the save announces nothing (absent on events saved before). */
  announce: string | null;
}

/** 0003: a named consumer of brand events; it gets every event saved after created_at. */
export interface EventConsumersTable {
  name: string;
  created_at: Millis;
}

export type EventDeliveryState = 'pending' | 'running' | 'done' | 'failed';

/** 0003: one row per (consumer, event), fanned out in the save's transaction. */
export interface EventDeliveriesTable {
  consumer: string;
  event_id: string;
  state: EventDeliveryState;
  attempts: number;
  run_at: Millis;
  locked_until: Millis | null;
  last_error: string | null;
  updated_at: Millis;
}

/** The brands' tables (brands/store/brand-tables.ts) are here while facade code still reads them (search, brand events). */
export interface Database extends BrandTables, ClientIdSearchTables, CreditLeaseTables {
  organizations: OrganizationsTable;
  api_keys: ApiKeysTable;
  usage_ledger: UsageLedgerTable;
  credit_grants: CreditGrantsTable;
  usage_notices: UsageNoticesTable;
  jobs: JobsTable;
  brand_events: BrandEventsTable;
  event_consumers: EventConsumersTable;
  event_deliveries: EventDeliveriesTable;
  webhooks: WebhooksTable;
  webhook_subscriptions: WebhookSubscriptionsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}

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
