/**
 * The brands product's tables (issue 30; moved out of store/kysely/schema.ts). Timestamps are epoch milliseconds and
 * documents JSON text on both backends (src/db/column-codec.ts).
 */
import type { Millis } from '../../db/column-codec.js';
import type { BrandStatus, IdentifierKind } from '../brand-store.js';

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

export interface BrandTables {
  brands: BrandsTable;
  brand_identifiers: BrandIdentifiersTable;
  crawl_failures: CrawlFailuresTable;
  brand_writes: BrandWritesTable;
  brand_popularity: BrandPopularityTable;
  asset_marks: AssetMarksTable;
  analysis_cache: AnalysisCacheTable;
  refresh_state: RefreshStateTable;
}

/**
 * The columns of other products' tables that the refresh schedule's reads join (refresh-rows.ts: dueBrands,
 * refreshCounts). The query is the brands product's, so it stays here; the tables are their owners' (the jobs
 * table: jobs/sql/jobs-table.ts; webhook subscriptions: the webhooks product), declared read-only and only as far as
 * these reads need them.
 */
export interface RefreshJoinedTables {
  jobs: { readonly id: string; readonly name: string; readonly key: string; readonly state: string; readonly payload: string };
  webhook_subscriptions: { readonly domain: string };
}
