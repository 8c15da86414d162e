/**
 * 0017 tables (search-migration.ts): client IDs, their usage counts, and the search-by-name index. Imports nothing
 * from schema.ts (which extends these tables): timestamps are epoch milliseconds, as schema.ts's `Millis`.
 */
import type { Generated } from 'kysely';

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

export interface SearchNamesTable {
  id: Generated<number>;
  domain: string;
  /** `brand` (a held brand's name), `listing` (a listed company), `crypto` (a crypto asset), `ticker` (its ticker or symbol in `norm`). */
  source: string;
  name: string;
  norm: string;
  label: string;
  brand_id: string | null;
  claimed: number;
  /** Asset key of the brand's icon (rendered to a URL when answered). */
  icon: string | null;
  quality_score: number | null;
  /** Listed-company size class (1 mega … 6 nano, 9 unknown); crypto assets mapped onto it. */
  size_rank: number;
}

export interface SearchStateTable {
  key: string;
  value: string;
}

export interface ClientIdSearchTables {
  client_ids: ClientIdsTable;
  client_id_usage: ClientIdUsageTable;
  search_names: SearchNamesTable;
  search_state: SearchStateTable;
}
