/**
 * The reference data's tables (issue 30; migrations 0008 and 0026, refdata-migrations.ts; port: ../reference-data.ts). Every row keeps its provenance: the source that
 * created it, that source's file date, and per field the source that gave the value (`field_sources`, JSON).
 * Booleans are integers 0/1 on both dialects.
 */
interface Provenance {
  source: string;
  source_date: string;
  field_sources: string;
}

export interface RefListingsTable extends Provenance {
  mic: string;
  ticker_norm: string;
  ticker: string;
  share_class: string | null;
  name: string;
  isin: string | null;
  country: string | null;
  domain: string | null;
  is_primary: number;
  rank: number;
}

export interface RefEtfsTable extends Provenance {
  mic: string;
  ticker_norm: string;
  ticker: string;
  name: string;
  isin: string | null;
  issuer: string | null;
  issuer_domain: string | null;
}

export interface RefCryptoAssetsTable extends Provenance {
  symbol: string;
  name: string;
  domain: string | null;
  rank: number;
}

export interface RefIsinLeisTable extends Provenance {
  isin: string;
  lei: string;
}

export interface RefLeiDomainsTable extends Provenance {
  lei: string;
  name: string | null;
  domain: string;
}

/**
 * The brand knowledge set (migration 0027). Not merged field by field like the tables above: a source's rows are
 * replaced as a whole snapshot, so there are no per-field sources. `match_names` and `countries` are JSON arrays,
 * `country_sites` a JSON object (alpha-2 → registrable domain).
 */
export interface RefBrandsTable {
  id: string;
  name: string;
  match_names: string;
  domain: string;
  country_sites: string;
  countries: string;
  category: string;
  wikidata: string;
  source: string;
  source_date: string;
}

export interface RefImportsTable {
  id: string;
  source: string;
  format: string;
  file: string;
  source_date: string;
  /** Epoch milliseconds, like every timestamp column (src/db/column-codec.ts). */
  imported_at: number;
  report: string;
}

export interface ReferenceDataTables {
  ref_listings: RefListingsTable;
  ref_etfs: RefEtfsTable;
  ref_crypto_assets: RefCryptoAssetsTable;
  ref_isin_leis: RefIsinLeisTable;
  ref_lei_domains: RefLeiDomainsTable;
  ref_brands: RefBrandsTable;
  ref_imports: RefImportsTable;
}
