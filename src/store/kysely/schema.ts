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


/** The brands' tables (brands/store/brand-tables.ts) are here while facade code still reads them (search, brand events). */
export interface Database extends BrandTables, ClientIdSearchTables, CreditLeaseTables {
  organizations: OrganizationsTable;
  api_keys: ApiKeysTable;
  usage_ledger: UsageLedgerTable;
  credit_grants: CreditGrantsTable;
  usage_notices: UsageNoticesTable;
  jobs: JobsTable;
}
