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
import type { BrandStatus, IdentifierKind } from '../store.js';
import type { JobsTable } from '../../jobs/sql/jobs-table.js';
import type { ReferenceDataTables } from './reference-schema.js';
import type { ClientIdSearchTables } from './search-schema.js';
import type { DashboardAccountTables } from './dashboard-account-schema.js';
import type { CreditLeaseTables } from './credit-lease-schema.js';

import type { Millis } from '../../db/column-codec.js';

export type { Millis };

export interface BrandsTable {
  id: string;
  domain: string;
  status: BrandStatus;
  /** The Brand as JSON text, without its per-request parts. */
  record: string;
  crawled_at: Millis;
  created_at: Millis;
  updated_at: Millis;
}

export interface BrandIdentifiersTable {
  kind: IdentifierKind;
  value: string;
  brand_id: string;
}

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


/**
 * 0006: the crawl failure memory, shared by every process (one row per domain whose last crawl failed; deleted
 * by a successful crawl). `strikes` counts failures in a row; how long a row is answered is computed from
 * `failed_at` and `strikes` by the reader (brands/failure-memory.ts), so changing the setting applies at once.
 */
export interface CrawlFailuresTable {
  domain: string;
  reason: string;
  message: string;
  strikes: number;
  failed_at: Millis;
}

/**
 * 0007: one row per brand save or status change, numbered 1, 2, 3, ... in commit order (the number is taken under
 * the write lock, ADR 0017); polled by API processes to invalidate their brand caches. Pruned by age, newest kept.
 */
export interface BrandWritesTable {
  seq: number;
  brand_id: string;
  /** JSON array of the domains the write attached, as text. */
  domains: string;
  created_at: Millis;
}

/** Reference-data tables (0008) are declared in reference-schema.ts. */
/** 0010: pay-per-request payments (ADR 0028). Amounts are integer base units of the asset. */
export interface PaymentClaimsTable {
  key: string;
  method: string;
  network: string;
  asset: string;
  payer: string;
  pay_to: string;
  amount: number;
  route: string;
  /** `claimed` until settled; a claim released unsettled is deleted. */
  state: 'claimed' | 'settled';
  claimed_at: Millis;
  valid_before: Millis;
}

export interface PaymentsTable {
  id: string;
  claim_key: string;
  method: string;
  network: string;
  asset: string;
  payer: string;
  pay_to: string;
  amount: number;
  tx: string;
  route: string;
  settled_at: Millis;
}

/** The embedded facilitator's token balances (lower-case addresses). */
export interface LedgerAccountsTable {
  network: string;
  asset: string;
  address: string;
  balance: number;
  updated_at: Millis;
}

/** The embedded facilitator's used EIP-3009 authorizations (the token's `authorizationState`). */
export interface LedgerAuthorizationsTable {
  network: string;
  asset: string;
  authorizer: string;
  nonce: string;
  recipient: string;
  value: number;
  tx: string;
  used_at: Millis;
}

export interface Database extends ReferenceDataTables, ClientIdSearchTables, CreditLeaseTables, DashboardAccountTables {
  brands: BrandsTable;
  brand_identifiers: BrandIdentifiersTable;
  organizations: OrganizationsTable;
  api_keys: ApiKeysTable;
  usage_ledger: UsageLedgerTable;
  credit_grants: CreditGrantsTable;
  usage_notices: UsageNoticesTable;
  jobs: JobsTable;
  crawl_failures: CrawlFailuresTable;
  brand_writes: BrandWritesTable;
  payment_claims: PaymentClaimsTable;
  payments: PaymentsTable;
  ledger_accounts: LedgerAccountsTable;
  ledger_authorizations: LedgerAuthorizationsTable;
  access_purchases: AccessPurchasesTable;
  agent_wallets: AgentWalletsTable;
  mcp_tokens: McpTokensTable;
  card_tokens: CardTokensTable;
  webhooks: WebhooksTable;
  webhook_subscriptions: WebhookSubscriptionsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  brand_popularity: BrandPopularityTable;
  asset_marks: AssetMarksTable;
  analysis_cache: AnalysisCacheTable;
  refresh_state: RefreshStateTable;
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

/** 0014 (refresh-migration.ts): lookups per brand, flushed in batches. */
export interface BrandPopularityTable {
  brand_id: string;
  lookups: number;
  last_lookup_at: Millis;
}

/** 0014: the perceptual signature of an analysed file, by asset content key. */
export interface AssetMarksTable {
  asset_key: string;
  dhash: string;
  aspect_milli: number | null;
  created_at: Millis;
}

/** 0014: a crawl's image analyses per domain, by content key (sha256 of the bytes + analysis version). */
export interface AnalysisCacheTable {
  domain: string;
  content_key: string;
  analysis: string;
  used_at: Millis;
}

/** 0014: the refresh scheduler's leader lease and last run. */
export interface RefreshStateTable {
  name: string;
  holder: string | null;
  lease_until: Millis | null;
  last_run: string | null;
  updated_at: Millis;
}

/** 0012: standing access (spec 5.3, ADR 0029; access-migration.ts). */
export interface AccessPurchasesTable {
  payment_key: string;
  method: string;
  payer_kind: 'wallet' | 'card';
  network: string | null;
  payer: string | null;
  usd: number;
  credits: number;
  org_id: string;
  api_key_id: string;
  /** 1 when the payment topped up the wallet's organization. */
  top_up: number;
  paid_at: Millis;
  delivered_at: Millis | null;
  /** The key and token sealed with a key derived from the payment proof; null once delivered or expired. */
  sealed: string | null;
}

export interface AgentWalletsTable {
  network: string;
  /** Lower-case address. */
  address: string;
  org_id: string;
  api_key_id: string;
  created_at: Millis;
}

export interface McpTokensTable {
  id: string;
  org_id: string;
  api_key_id: string;
  token_hash: string;
  prefix: string;
  created_at: Millis;
  revoked_at: Millis | null;
}

/** The embedded card processor's single-use payment tokens (0012; only hashes; access-rows.ts). */
export interface CardTokensTable {
  token_hash: string;
  currency: string;
  max_amount: number;
  expires_at: Millis;
  created_at: Millis;
  used_at: Millis | null;
  amount: number | null;
  payment_intent: string | null;
  idempotency_hash: string | null;
}
