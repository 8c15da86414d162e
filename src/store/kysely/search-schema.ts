/**
 * 0017 tables (search-migration.ts): client IDs and their usage counts (the search-by-name index's tables are
 * src/search/store/search-tables.ts). Imports nothing from schema.ts (which extends these tables): timestamps are
 * epoch milliseconds, as schema.ts's `Millis`.
 */

/** Epoch milliseconds (the same representation as schema.ts's `Millis`). */
type Millis = number;

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

export interface ClientIdUsageTable {
  client_id: string;
  org_id: string;
  product: string;
  period: string;
  requests: number;
}

export interface ClientIdSearchTables {
  client_ids: ClientIdsTable;
  client_id_usage: ClientIdUsageTable;
}
