/**
 * The search index's tables (issue 30; migration 0017, search-migrations.ts): timestamps are epoch milliseconds,
 * booleans integers 0/1 (src/db/column-codec.ts).
 */
import type { Generated } from 'kysely';
import type { Millis } from '../../db/column-codec.js';

export interface SearchNamesTable {
  id: Generated<number>;
  domain: string;
  /**
   * `brand` (a held brand's name), `listing` (a listed company), `crypto` (a crypto asset), `ticker:<t>` (its ticker or
   * symbol in `norm`), `nsi` (a brand of the knowledge set), `nsi:<norm>` (another name of it in `norm`).
   */
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

/** What the search owns. */
export interface SearchTables {
  search_names: SearchNamesTable;
  search_state: SearchStateTable;
}

/**
 * Tables of other products the search reads, never writes, with only the columns it reads: the held brands (a
 * restored brand is re-indexed from its record; migration 0017's backfill), their lookups (`brand_popularity`, the
 * brands' refresh counters, a ranking input), and the reference data's listings, crypto assets and import log (the
 * names synced into the index). A product's store/ folder is private to it (.dependency-cruiser.cjs), so these are
 * declared here from the owners' table types (brands: brands/store/brand-tables.ts `BrandsTable`,
 * `BrandPopularityTable`; reference data: refdata/store/refdata-tables.ts, the knowledge set's `ref_brands` included);
 * the owners' migrations create them.
 * The queries that read them stay in search-rows.ts, the one place that joins them with the index.
 */
export interface SearchReadTables {
  brands: { id: string; status: string; record: string };
  brand_popularity: { brand_id: string; lookups: number };
  ref_listings: { domain: string | null; name: string; ticker: string; rank: number; is_primary: number };
  ref_crypto_assets: { domain: string | null; name: string; symbol: string; rank: number };
  ref_brands: { id: string; domain: string; name: string; match_names: string; countries: string };
  ref_imports: { id: string; imported_at: Millis };
}

/** Every table the search's queries name. */
export type SearchQueryTables = SearchTables & SearchReadTables;
