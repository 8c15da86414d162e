/**
 * The reference-data port: listings (ticker, exchange, ISIN, website), ETFs, crypto assets and ISIN→LEI, with
 * the exact lookups the identifier resolver needs (spec 1 rules 5-9). The reference data owns its storage (issue 30):
 * store/kysely-reference-data.ts implements it over the kernel's Database; imports (refdata/import/) write through
 * it. docs/reference-data.md.
 *
 * Keys are normalized before they reach the store: tickers with `normalizeTicker` (refdata/tickers.ts), MICs as
 * ISO 10383 operating MICs upper-case, ISINs upper-case with a valid check digit, crypto symbols upper-case.
 */

/** Where a row came from: the source's name (e.g. `sec`, `financedatabase`) and the file's date (YYYY-MM-DD). */
export interface Provenance {
  source: string;
  sourceDate: string;
}

/** One ticker on one exchange. Unique by (mic, tickerNorm). */
export interface Listing extends Provenance {
  /** As the exchange writes it, without a data vendor's suffix: `7203`, `SHEL`, `BRK.B`. */
  ticker: string;
  /** `normalizeTicker(ticker)`: share-class separators `.`, `-`, `/` all become `.` (`BRK.B`). */
  tickerNorm: string;
  /** ISO 10383 operating MIC (`XTKS`, never `XJPX`). */
  mic: string;
  /** The share-class letter(s) (`B` of `BRK.B`), or null. */
  shareClass: string | null;
  name: string;
  /** The listed security's ISIN (check digit valid), or null when unknown or dropped as an ADR's. */
  isin: string | null;
  /** ISO 3166 alpha-2 of the company (its domicile), or null. */
  country: string | null;
  /** Registrable domain of the company's website, or null. */
  domain: string | null;
  /** True for the company's home/primary listing (listing country = company country, or the source says so). */
  primary: boolean;
  /** Size class, lower is bigger: 1 mega, 2 large, 3 mid, 4 small, 5 micro, 6 nano, 9 unknown. */
  rank: number;
}

/** An exchange-traded fund on one exchange. Unique by (mic, tickerNorm). */
export interface Etf extends Provenance {
  ticker: string;
  tickerNorm: string;
  mic: string;
  name: string;
  isin: string | null;
  /** The issuer as the source names it (`State Street Global Advisors`), or null. */
  issuer: string | null;
  /** The issuer's registrable domain from the curated table (refdata/etf-issuers.ts), or null. */
  issuerDomain: string | null;
}

/** A crypto asset. Unique by (symbol, name): several coins may share a symbol, `rank` decides. */
export interface CryptoAsset extends Provenance {
  symbol: string;
  name: string;
  domain: string | null;
  /** Lower is more prominent; the asset with the lowest rank wins a shared symbol. */
  rank: number;
}

/** GLEIF's ISIN→LEI relation (and Wikidata's), one row per ISIN. */
export interface IsinLei extends Provenance {
  isin: string;
  lei: string;
}

/** A legal entity's website (Wikidata P1278 + P856), joinable with IsinLei. */
export interface LeiDomain extends Provenance {
  lei: string;
  name: string | null;
  domain: string;
}

/**
 * A brand of the knowledge set (issue 34: name-suggestion-index brands with Wikidata's official websites; built by
 * scripts/build-nsi.ts, imported with `--format nsi`; docs/reference-data.md "Brand knowledge set"). Unique by `id`.
 */
export interface KnownBrand extends Provenance {
  /** The source's own id (NSI's `id`, e.g. `mcdonalds-658eea`). */
  id: string;
  /** As the source shows it (NSI's `displayName`). */
  name: string;
  /** Other names it goes by, normalized (domain/search-text.ts `normalizeName`), deduped, never the display name's, at most MAX_MATCH_NAMES. */
  matchNames: string[];
  /** Registrable domain of the brand's global website. */
  domain: string;
  /** ISO 3166 alpha-2 (upper case) → registrable domain of the brand's site for that country, when it differs from `domain`. */
  countrySites: Record<string, string>;
  /** Where it trades: ISO 3166 alpha-2 codes (upper case), `001` for worldwide, other UN M49 region codes (`150` Europe); empty when unknown. */
  countries: string[];
  /** OpenStreetMap tag of its kind, `key/value` (`amenity/fast_food`, `shop/supermarket`). */
  category: string;
  /** Wikidata item (`Q38076`). */
  wikidata: string;
}

/** Match names kept per known brand. */
export const MAX_MATCH_NAMES = 10;

/** What `replaceKnownBrands` did: the upsert counts, and the rows of the replaced sources that the new set no longer has. */
export interface ReplaceCounts extends UpsertCounts {
  removed: number;
}

/** Rows for `insertIntoEmpty`, one table at a time. */
export type EmptyTableRows = { table: 'listings'; rows: readonly Listing[] } | { table: 'etfs'; rows: readonly Etf[] } | { table: 'crypto'; rows: readonly CryptoAsset[] };

export type ReferenceTable = 'listings' | 'etfs' | 'crypto' | 'isinLei' | 'leiDomains' | 'brands';

/** What one upsert did. `unchanged` rows were already stored exactly as given (a re-import). */
export interface UpsertCounts {
  inserted: number;
  updated: number;
  unchanged: number;
  /** Rows where the stored and the new value of a field disagreed; the better-attested one was kept. */
  contradictions: Contradiction[];
}

export interface Contradiction {
  table: ReferenceTable;
  key: string;
  field: string;
  kept: string;
  keptSource: string;
  rejected: string;
  rejectedSource: string;
}

/** Rows per table and source, with the newest source date and the last import (`status`). */
export interface ReferenceSourceStatus {
  table: ReferenceTable;
  source: string;
  rows: number;
  /** Newest source date among the rows. */
  sourceDate: string | null;
}

export interface ReferenceImportRecord {
  source: string;
  format: string;
  file: string;
  sourceDate: string;
  importedAt: Date;
  /** The import report as JSON (refdata/import/import-report.ts). */
  report: string;
}

export interface ReferenceData {
  /** Every listing of the normalized ticker, best first: primary listings, then by rank, then by MIC. */
  listingsByTicker(tickerNorm: string): Promise<Listing[]>;
  listingByTickerAndMic(tickerNorm: string, mic: string): Promise<Listing | null>;
  /** Listings carrying the ISIN, best first (same order as listingsByTicker). */
  listingsByIsin(isin: string): Promise<Listing[]>;
  /** ETFs of the normalized ticker on every exchange, best first (an issuer domain known, then by MIC). */
  etfsByTicker(tickerNorm: string): Promise<Etf[]>;
  etfByTickerAndMic(tickerNorm: string, mic: string): Promise<Etf | null>;
  etfsByIsin(isin: string): Promise<Etf[]>;
  /** Assets with the symbol, best (lowest rank) first. */
  cryptoBySymbol(symbol: string): Promise<CryptoAsset[]>;
  leiByIsin(isin: string): Promise<IsinLei | null>;
  domainByLei(lei: string): Promise<LeiDomain | null>;

  /**
   * Upserts merge field by field with what is stored: a missing field is filled; when both hold different values
   * the one from the more trusted source (refdata/source-trust.ts) is kept, and the disagreement is returned.
   * Each call is one transaction. Rows repeated within one call: the last one counts.
   */
  upsertListings(rows: readonly Listing[]): Promise<UpsertCounts>;
  upsertEtfs(rows: readonly Etf[]): Promise<UpsertCounts>;
  upsertCryptoAssets(rows: readonly CryptoAsset[]): Promise<UpsertCounts>;
  upsertIsinLeis(rows: readonly IsinLei[]): Promise<UpsertCounts>;
  upsertLeiDomains(rows: readonly LeiDomain[]): Promise<UpsertCounts>;

  /**
   * Fast load into an empty table (the embedded set on a fresh store): rows stored exactly as upserts into the empty
   * table would store them (the last of repeated keys wins), with multi-row inserts in one transaction and no
   * merge. When the table already holds rows it falls back to the upsert.
   */
  insertIntoEmpty(batch: EmptyTableRows): Promise<UpsertCounts>;

  /**
   * The brand knowledge set is a snapshot per source: the rows' sources (`nsi`) are replaced as a whole by `rows`, in
   * one transaction (new ids inserted, changed rows updated, rows the snapshot no longer has removed). Rows repeated
   * by id: the last one counts. An empty `rows` changes nothing.
   */
  replaceKnownBrands(rows: readonly KnownBrand[]): Promise<ReplaceCounts>;
  /** Known brands whose global website is `domain` (a registrable domain), by id. */
  knownBrandsByDomain(domain: string): Promise<KnownBrand[]>;
  /** True once the store holds any known brand (one indexed read: the embedded-set check on every start). */
  hasKnownBrands(): Promise<boolean>;

  recordReferenceImport(record: ReferenceImportRecord): Promise<void>;
  /** Counts and dates per table and source. */
  referenceStatus(): Promise<{ sources: ReferenceSourceStatus[]; imports: ReferenceImportRecord[] }>;
  /** True once any reference import was recorded (one indexed read: the embedded-set check on every start). */
  hasReferenceImports(): Promise<boolean>;
}
