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
import type { JobsTable } from '../../jobs/sql/jobs-table.js';
import type { BrandTables } from '../../brands/store/brand-tables.js';
import type { BillingTables } from '../../billing/store/billing-tables.js';

import type { Millis } from '../../db/column-codec.js';

export type { Millis };

/** The brands' tables (brands/store/brand-tables.ts) are here while facade code still reads them (search, brand events). */
export interface Database extends BrandTables, BillingTables {
  jobs: JobsTable;
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
