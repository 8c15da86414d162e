/**
 * The billing product's tables (issue 30; moved out of store/kysely/schema.ts), as Kysely sees them: organizations and
 * API keys (0001, settings from 0002), the usage ledger (0001, `source` from 0002), credit grants and usage notices
 * (0002, `seq` from 0023), client IDs and their usage (0017) and credit leases (0020). Timestamps are epoch
 * milliseconds (db/column-codec.ts).
 */
import type { Millis } from '../../db/column-codec.js';
import type { Plan, UsageSource } from '../../domain/accounts.js';

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

/** 0017 (client-id-migration.ts): publishable client IDs (ADR 0033). */
export interface ClientIdsTable {
  id: string;
  org_id: string;
  name: string;
  /** JSON array of host patterns. */
  allowed_referrers: string;
  require_referrer: number;
  created_at: Millis;
  revoked_at: Millis | null;
}

/** 0017: requests per (client ID, product, billing period). */
export interface ClientIdUsageTable {
  client_id: string;
  org_id: string;
  product: string;
  period: string;
  requests: number;
}

/**
 * 0020 (credit-lease-migration.ts): credits a live process has leased from one source of an organization (ADR 0040).
 * `credits` is what the lease still holds: granted, minus what its holder's flushes turned into ledger entries. A row
 * whose `expires_at` has passed counts as zero (its holder stopped renewing it: it crashed or lost the database).
 */
export interface CreditLeasesTable {
  id: string;
  /** The holding process (one id per usage meter), for operators reading the table. */
  holder: string;
  org_id: string;
  source: UsageSource;
  /** The billing period key (`2026-03`) for quota and overage; '' for prepaid credits, which span periods. */
  period: string;
  credits: number;
  expires_at: Millis;
  created_at: Millis;
}

export interface BillingTables {
  organizations: OrganizationsTable;
  api_keys: ApiKeysTable;
  usage_ledger: UsageLedgerTable;
  credit_grants: CreditGrantsTable;
  usage_notices: UsageNoticesTable;
  client_ids: ClientIdsTable;
  client_id_usage: ClientIdUsageTable;
  credit_leases: CreditLeasesTable;
}
