/**
 * The search-by-name index's storage port (issue 30; migration 0017, ADR 0033): the candidate names the search
 * service ranks, kept in step with the brands by a brand save hook. Implemented over the kernel's Database in
 * store/kysely-search-store.ts.
 */

/**
 * One indexed name (search-by-name, ADR 0033): a held brand's name, a reference-data company / crypto name, or a
 * brand of the knowledge set (name-suggestion-index, issue 34).
 */
export interface SearchNameRow {
  domain: string;
  /**
   * `ticker`: a primary listing's ticker or a crypto symbol, indexed in `norm` and matched only exactly. `nsi`: a
   * name of a brand of the knowledge set (its display name, or another name it goes by in `norm`, shown under `name`).
   */
  source: 'brand' | 'listing' | 'crypto' | 'ticker' | 'nsi';
  /** As shown. */
  name: string;
  /** normalizeName(name) (domain/search-text.ts). */
  norm: string;
  /** domainLabel(domain). */
  label: string;
  /** The held brand of the domain, or null when the domain is not crawled yet. */
  brandId: string | null;
  claimed: boolean;
  /** Asset key of the held brand's icon. */
  icon: string | null;
  qualityScore: number | null;
  /** Listed-company size class: 1 mega … 6 nano, 9 unknown or not listed. */
  sizeRank: number;
  /** Lookups of the brand (brand_popularity), 0 when unknown. */
  lookups: number;
}

export interface SearchCandidateQuery {
  /** The normalized query. */
  norm: string;
  /** One-edit variants of the query, looked up as prefixes too. */
  variants: readonly string[];
  /** The ticker the query may be (domain/search-text.ts tickerQuery): ticker rows equal to it are read too. */
  ticker?: string | null;
  /** Rows per index read. */
  limit: number;
}

/** The search-by-name index: kept in step by saveBrand / setBrandStatus in their transactions. */
export interface SearchIndexStore {
  /** Candidate names through the database's text index (FTS5 trigram or pg_trgm); ranking is the caller's. */
  searchNameCandidates(query: SearchCandidateQuery): Promise<SearchNameRow[]>;
  /** Names sharing the most trigrams with the normalized query (typos the prefix variants miss); costlier. */
  similarNameCandidates(norm: string, limit: number): Promise<SearchNameRow[]>;
  /** Lookups per brand from `brand_popularity` when that table exists; an empty map otherwise. */
  searchLookups(brandIds: readonly string[]): Promise<Map<string, number>>;
  /** Re-reads the reference names when an import happened since the last sync (always with `force`); true if it did. */
  syncSearchReferenceNames(force?: boolean): Promise<boolean>;
}
