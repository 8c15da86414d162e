/**
 * The search-by-name index's rows (migration 0017, ADR 0033): rows written in saveBrand's transaction
 * (so the index never disagrees with the brands table), reference-data names synced after imports, and the
 * candidate queries — FTS5 trigram on SQLite, pg_trgm on PostgreSQL, both through their indexes (never a scan).
 */
import { sql, type Kysely } from 'kysely';
import type { Brand, Logo } from '../../domain/brand.js';
import { displayCompanyName, domainLabel, normalizeName, tickerNorm, trigrams } from '../../domain/search-text.js';
import type { StoredBrand } from '../../brands/brand-store.js';
import type { SearchCandidateQuery, SearchNameRow } from '../search-store.js';
import type { SearchQueryTables } from './search-tables.js';
import type { DialectQuirks, TrigramIndex, TrigramMatch } from '../../db/dialect-quirks.js';

const ICON_FORMATS = ['png', 'webp', 'svg', 'jpeg'] as const;

/** The asset key of the brand's icon (an `icon` logo, else a `symbol`), raster first: what an autocomplete shows. */
export function iconKey(logos: readonly Logo[]): string | null {
  for (const type of ['icon', 'symbol'] as const) {
    const logo = logos.find((l) => l.type === type && l.theme !== 'dark') ?? logos.find((l) => l.type === type);
    if (!logo) continue;
    for (const format of ICON_FORMATS) {
      const found = logo.formats.find((f) => f.format === format);
      if (found) return found.src;
    }
  }
  return null;
}

/** The trigram index of the normalized names (FTS5 trigram on SQLite, pg_trgm GiST on PostgreSQL: the dialect quirks). */
export const SEARCH_NAMES_INDEX: TrigramIndex = { table: 'search_names', column: 'norm', name: 'search_names_norm_trgm' };

export interface BrandRowValues {
  domain: string;
  name: string;
  brand_id: string;
  claimed: number;
  icon: string | null;
  quality_score: number;
}

/** The brand's own search row, or null when its name normalizes to nothing. */
export function brandValues(brand: Brand): BrandRowValues | null {
  const name = brand.name?.trim() || brand.domain;
  if (normalizeName(name) === '') return null;
  return { domain: brand.domain, name, brand_id: brand.id, claimed: brand.claimed ? 1 : 0, icon: iconKey(brand.logos), quality_score: brand.qualityScore };
}

/**
 * Indexes a saved brand (called inside saveBrand's transaction): its name row (source `brand`), and its brand
 * fields copied onto the reference rows of the same domain, so every row answers on its own. A brand that is not
 * `indexed` (removed) is taken out instead.
 */
export async function indexBrandForSearch(trx: Kysely<SearchQueryTables>, brand: Brand, status: string): Promise<void> {
  await trx.deleteFrom('search_names').where('source', '=', 'brand').where('brand_id', '=', brand.id).where('domain', '!=', brand.domain).execute();
  const values = status === 'indexed' ? brandValues(brand) : null;
  if (values === null) {
    await unindexBrandForSearch(trx, brand.id);
    return;
  }
  const norm = normalizeName(values.name);
  const rank = trx.selectFrom('search_names as r').select((eb) => eb.fn.coalesce(eb.fn.min('r.size_rank'), eb.val(9)).as('m')).where('r.domain', '=', values.domain).where('r.source', '!=', 'brand');
  await trx
    .insertInto('search_names')
    .values({ ...values, source: 'brand', norm, label: domainLabel(values.domain), size_rank: rank })
    .onConflict((oc) =>
      oc.columns(['domain', 'source']).doUpdateSet((eb) => ({
        name: eb.ref('excluded.name'),
        norm: eb.ref('excluded.norm'),
        brand_id: eb.ref('excluded.brand_id'),
        claimed: eb.ref('excluded.claimed'),
        icon: eb.ref('excluded.icon'),
        quality_score: eb.ref('excluded.quality_score'),
      })),
    )
    .execute();
  await trx
    .updateTable('search_names')
    .set({ brand_id: values.brand_id, claimed: values.claimed, icon: values.icon, quality_score: values.quality_score })
    .where('domain', '=', values.domain)
    .where('source', '!=', 'brand')
    .execute();
}

/**
 * Rows per statement of a bulk insert: a search_names row binds 10 parameters, so 1,000 rows stay far under
 * PostgreSQL's 65,535 and SQLite's 32,766 bound-parameter limits.
 */
const BULK_ROWS = 1000;

/**
 * The rows `indexBrandForSearch` writes, for brands inserted in bulk (new brands only; `insertBrands`): each `brand`
 * row (size class from the reference rows of its domain, 9 without any) and its fields on those reference rows, in
 * multi-row statements.
 */
export async function indexNewBrandsForSearch(trx: Kysely<SearchQueryTables>, brands: readonly StoredBrand[]): Promise<void> {
  const values = brands.filter((b) => b.status === 'indexed').flatMap((b) => brandValues(b.brand) ?? []);
  for (let i = 0; i < values.length; i += BULK_ROWS) {
    const chunk = values.slice(i, i + BULK_ROWS);
    const ranks = await referenceRanks(trx, chunk);
    await trx
      .insertInto('search_names')
      .values(chunk.map((v) => ({ ...v, source: 'brand', norm: normalizeName(v.name), label: domainLabel(v.domain), size_rank: ranks.get(v.domain) ?? 9 })))
      .onConflict((oc) => oc.doNothing())
      .execute();
    for (const v of chunk.filter((row) => ranks.has(row.domain))) {
      await trx
        .updateTable('search_names')
        .set({ brand_id: v.brand_id, claimed: v.claimed, icon: v.icon, quality_score: v.quality_score })
        .where('domain', '=', v.domain)
        .where('source', '!=', 'brand')
        .execute();
    }
  }
}

/** The best size class among the reference name rows of each domain that has any (usually none). */
async function referenceRanks(trx: Kysely<SearchQueryTables>, chunk: readonly BrandRowValues[]): Promise<Map<string, number>> {
  const rows = await trx
    .selectFrom('search_names')
    .select((eb) => ['domain', eb.fn.min<number>('size_rank').as('rank')])
    .where(
      'domain',
      'in',
      chunk.map((v) => v.domain),
    )
    .where('source', '!=', 'brand')
    .groupBy('domain')
    .execute();
  return new Map(rows.map((row) => [row.domain, Number(row.rank)]));
}

/** A removed brand: its name row goes, the reference rows that carried its fields become uncrawled names again. */
export async function unindexBrandForSearch(trx: Kysely<SearchQueryTables>, brandId: string): Promise<void> {
  await trx.deleteFrom('search_names').where('source', '=', 'brand').where('brand_id', '=', brandId).execute();
  await trx.updateTable('search_names').set({ brand_id: null, claimed: 0, icon: null, quality_score: null }).where('brand_id', '=', brandId).execute();
}

/** setBrandStatus: a removed brand leaves the index, a restored one comes back from its stored record. */
export async function reindexBrandStatus(trx: Kysely<SearchQueryTables>, brandId: string, status: string): Promise<void> {
  if (status !== 'indexed') {
    await unindexBrandForSearch(trx, brandId);
    return;
  }
  const row = await trx.selectFrom('brands').select('record').where('id', '=', brandId).executeTakeFirst();
  if (row) await indexBrandForSearch(trx, JSON.parse(row.record) as Brand, status);
}

// ---- reference names ----

interface ReferenceName {
  domain: string;
  /**
   * `ticker:<ticker>` rows hold one ticker each (a domain can have several); read back as source `ticker`. `nsi` is a
   * brand of the knowledge set, `nsi:<norm>` one of its other names (read back as `nsi`).
   */
  source: 'listing' | 'crypto' | 'nsi' | `ticker:${string}` | `nsi:${string}`;
  name: string;
  /** What is indexed; the normalized name unless given (a ticker row indexes the ticker, shows the name). */
  norm?: string;
  rank: number;
}

/** Ticker rows: `ticker:<norm>` in `source` keeps them one per (domain, ticker) under the (domain, source) key. */
const TICKER_SOURCE = 'ticker:%';

/** Crypto ranks (1 = largest) onto the listing size classes, so both weigh alike in prominence. */
function cryptoSizeRank(rank: number): number {
  if (rank <= 10) return 1;
  if (rank <= 50) return 2;
  if (rank <= 200) return 3;
  return 5;
}

/** `McDonald's (Україна)` → `McDonald's`: the knowledge set's display names carry a qualifier between brackets. */
function knownBrandName(name: string): string {
  return name.replace(/\s*[(（][^()（）]*[)）]\s*$/u, '').trim() || name;
}

/**
 * A brand of the knowledge set onto the size classes, as crypto ranks are: nothing says how big it is, but one that
 * trades worldwide or in ten countries or more is a chain of some size (class 5, micro: enough to break a tie between
 * two equal names, such as Lidl's lidl.de and Lidl Bulgaria's lidl.bg for `lidl`; far below any sized listing).
 */
function knownBrandSizeRank(reach: number): number {
  return reach >= 10 ? 5 : 9;
}

/**
 * The brand knowledge set's names (issue 34): per domain one `nsi` row under the name of its main brand (a worldwide
 * brand first, then the one in more countries: McDonald's, not McDonald's Ukraine on the same domain), and an
 * `nsi:<norm>` row per other name of any brand of the domain (match names, other brands' display names), shown under
 * that brand's name; an other name that is the main name of another domain is left to that domain (`lidl` is
 * lidl.de's name, not one of Lidl Bulgaria's on lidl.bg).
 */
async function knownBrandNames(db: Kysely<SearchQueryTables>): Promise<ReferenceName[]> {
  const read = await db.selectFrom('ref_brands').select(['id', 'domain', 'name', 'match_names', 'countries']).execute();
  const rows = read.map((r) => ({ ...r, shown: knownBrandName(r.name), reach: r.countries.includes('"001"') ? 1000 : (JSON.parse(r.countries) as string[]).length }));
  rows.sort((a, b) => b.reach - a.reach || a.shown.length - b.shown.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const main = new Map<string, ReferenceName>();
  for (const row of rows) {
    const norm = normalizeName(row.shown);
    if (!main.has(row.domain) && norm !== '') main.set(row.domain, { domain: row.domain, source: 'nsi', name: row.shown, norm, rank: knownBrandSizeRank(row.reach) });
  }
  const mainNames = new Set([...main.values()].map((m) => m.norm));
  const others = new Map<string, ReferenceName>();
  for (const row of rows) {
    for (const norm of [normalizeName(row.shown), ...(JSON.parse(row.match_names) as string[])]) {
      const key = `${row.domain} ${norm}`;
      if (norm === '' || norm === main.get(row.domain)?.norm || mainNames.has(norm) || others.has(key)) continue;
      others.set(key, { domain: row.domain, source: `nsi:${norm}`, name: row.shown, norm, rank: main.get(row.domain)?.rank ?? 9 });
    }
  }
  return [...main.values(), ...others.values()];
}

/** `knownBrands`: false in migration 0017's backfill, which runs before migration 0026 creates `ref_brands`. */
async function readReferenceNames(db: Kysely<SearchQueryTables>, knownBrands: boolean): Promise<ReferenceName[]> {
  const byDomain = new Map<string, ReferenceName>();
  // Best listing per domain: the biggest size class, a primary listing first, then the shortest name.
  const listings = await db.selectFrom('ref_listings').select(['domain', 'name', 'ticker', 'rank', 'is_primary']).where('domain', 'is not', null).execute();
  listings.sort((a, b) => a.rank - b.rank || b.is_primary - a.is_primary || a.name.length - b.name.length || a.name.localeCompare(b.name));
  for (const row of listings) {
    const domain = row.domain as string;
    if (!byDomain.has(domain)) byDomain.set(domain, { domain, source: 'listing', name: displayCompanyName(row.name), rank: row.rank });
  }
  // People type tickers into a name search ("aapl"): the tickers of primary listings are rows of their own, matched
  // only exactly (searchNameCandidates), shown under the company's name and size.
  const tickers = new Map<string, ReferenceName>();
  const addTicker = (company: ReferenceName, ticker: string) => {
    const norm = tickerNorm(ticker);
    if (norm !== '') tickers.set(`${company.domain} ${norm}`, { ...company, source: `ticker:${norm}`, norm });
  };
  for (const row of listings) if (row.is_primary === 1) addTicker(byDomain.get(row.domain as string) as ReferenceName, row.ticker);
  const cryptos = await db.selectFrom('ref_crypto_assets').select(['domain', 'name', 'symbol', 'rank']).where('domain', 'is not', null).orderBy('rank').execute();
  const seen = new Set<string>();
  const out = [...byDomain.values()];
  for (const row of cryptos) {
    const domain = row.domain as string;
    if (seen.has(domain)) continue;
    seen.add(domain);
    const crypto: ReferenceName = { domain, source: 'crypto', name: row.name.trim(), rank: cryptoSizeRank(row.rank) };
    out.push(crypto);
    addTicker(crypto, row.symbol);
  }
  out.push(...tickers.values(), ...(knownBrands ? await knownBrandNames(db) : []));
  return out.filter((r) => normalizeName(r.name) !== '');
}

async function referenceVersion(db: Kysely<SearchQueryTables>): Promise<string> {
  const row = await db
    .selectFrom('ref_imports')
    .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.max('imported_at').as('latest')])
    .executeTakeFirstOrThrow();
  return `${String(row.n)}:${String(row.latest ?? 0)}`;
}

/**
 * Replaces the reference rows (`listing`, `crypto`, `ticker:…`, `nsi`, `nsi:…`) with the names the reference tables
 * hold now, carrying the held brands' fields onto them, in one transaction. Skipped (false) when no import happened
 * since the last sync, unless `force`. About a second for the embedded set (some 48,000 rows for 25,000 domains; most
 * of it the text index's own writes), once per store and import.
 */
export async function syncReferenceNames(
  db: Kysely<SearchQueryTables>,
  write: <T>(fn: (trx: Kysely<SearchQueryTables>) => Promise<T>) => Promise<T>,
  force = false,
  knownBrands = true,
): Promise<boolean> {
  const version = await referenceVersion(db);
  const state = await db.selectFrom('search_state').select('value').where('key', '=', 'reference').executeTakeFirst();
  if (!force && state?.value === version) return false;
  const names = await readReferenceNames(db, knownBrands);
  await write(async (trx) => {
    await trx.deleteFrom('search_names').where('source', '!=', 'brand').execute();
    const rows = names.map((r) => ({ domain: r.domain, source: r.source, name: r.name, norm: r.norm ?? normalizeName(r.name), label: domainLabel(r.domain), size_rank: r.rank, claimed: 0 }));
    for (let i = 0; i < rows.length; i += 500) await trx.insertInto('search_names').values(rows.slice(i, i + 500)).execute();
    await copyBrandFields(trx);
    await trx.insertInto('search_state').values({ key: 'reference', value: version }).onConflict((oc) => oc.column('key').doUpdateSet({ value: version })).execute();
  });
  return true;
}

/**
 * Brand fields onto reference rows of held domains, and the reference size class onto brand rows. Set-based joins
 * (UPDATE … FROM, SQLite 3.33+ and PostgreSQL), not a subquery per row: a store with 100,000 brands syncs in
 * seconds on both dialects whatever the planner's statistics say.
 */
async function copyBrandFields(trx: Kysely<SearchQueryTables>): Promise<void> {
  await sql`update search_names set brand_id = b.brand_id, claimed = b.claimed, icon = b.icon, quality_score = b.quality_score
    from search_names b where b.domain = search_names.domain and b.source = 'brand' and search_names.source != 'brand'`.execute(trx);
  await sql`update search_names set size_rank = 9 where source = 'brand' and size_rank != 9`.execute(trx);
  await sql`update search_names set size_rank = r.rank
    from (select domain, min(size_rank) as rank from search_names where source != 'brand' group by domain) r
    where r.domain = search_names.domain and search_names.source = 'brand'`.execute(trx);
}

/** Migration 0017's backfill: the brands already held, then the reference names. */
export async function backfillSearchNames(db: Kysely<unknown>): Promise<void> {
  const typed = db as Kysely<SearchQueryTables>;
  let after = '';
  for (;;) {
    const rows = await typed.selectFrom('brands').select(['id', 'record', 'status']).where('id', '>', after).orderBy('id').limit(500).execute();
    if (rows.length === 0) break;
    for (const row of rows) await indexBrandForSearch(typed, JSON.parse(row.record) as Brand, row.status);
    after = rows[rows.length - 1]?.id ?? after;
  }
  // The reference tables as they were at 0017 (the knowledge set's table comes with 0026, and its load changes the
  // import log, so the next sync reads it).
  await syncReferenceNames(typed, (fn) => fn(typed), true, false);
}

// ---- candidates ----

const COLUMNS = ['s.domain', 's.source', 's.name', 's.norm', 's.label', 's.brand_id', 's.claimed', 's.icon', 's.quality_score', 's.size_rank'] as const;

type RawRow = Pick<SearchQueryTables['search_names'], 'domain' | 'source' | 'name' | 'norm' | 'label' | 'brand_id' | 'claimed' | 'icon' | 'quality_score' | 'size_rank'>;

function toRow(row: RawRow): SearchNameRow {
  return {
    domain: row.domain,
    source: row.source.startsWith('ticker:') ? 'ticker' : row.source.startsWith('nsi:') ? 'nsi' : (row.source as SearchNameRow['source']),
    name: row.name,
    norm: row.norm,
    label: row.label,
    brandId: row.brand_id,
    claimed: Number(row.claimed) === 1,
    icon: row.icon,
    qualityScore: row.quality_score === null ? null : Number(row.quality_score),
    sizeRank: Number(row.size_rank),
    lookups: 0,
  };
}

/** `x` → the range [x, x + U+FFFF) of a byte-ordered index: a prefix read through the index. */
function prefixEnd(prefix: string): string {
  return `${prefix}\uffff`;
}

/** Size classes of listed companies and crypto assets (9: unknown or not listed). */
const LISTED_RANKS = [1, 2, 3, 4, 5, 6];
const ROW_SQL = 's.domain, s.source, s.name, s.norm, s.label, s.brand_id, s.claimed, s.icon, s.quality_score, s.size_rank';

/**
 * Rows whose name or domain label starts with one of the prefixes, in one statement of bounded parts: per prefix
 * and column the first `limit` rows in index order, and for the query itself also the listed companies first by
 * size (one short index range per size class). No part reads more than its limit, however common the prefix.
 */
async function prefixRows(db: Kysely<SearchQueryTables>, quirks: DialectQuirks, query: string, variants: readonly string[], limit: number): Promise<RawRow[]> {
  const binary = (column: string) => sql.raw(quirks.binaryOrder(column));
  const notTicker = sql`s.source not like ${TICKER_SOURCE}`;
  const parts = [];
  for (const [i, prefix] of [query, ...variants].entries()) {
    const n = i === 0 ? limit : Math.max(5, Math.floor(limit / 4));
    for (const column of ['s.norm', 's.label']) {
      parts.push(sql`select * from (select ${sql.raw(ROW_SQL)} from search_names s where ${binary(column)} >= ${prefix} and ${binary(column)} < ${prefixEnd(prefix)} and ${notTicker} order by ${binary(column)} limit ${n}) as ${sql.raw(`p${parts.length}`)}`);
    }
  }
  if (query.length > 0) {
    parts.push(sql`select * from (select ${sql.raw(ROW_SQL)} from search_names s where s.size_rank in (${sql.join(LISTED_RANKS)}) and ${binary('s.norm')} >= ${query} and ${binary('s.norm')} < ${prefixEnd(query)} and ${notTicker} order by s.size_rank, ${binary('s.norm')} limit ${limit}) as ${sql.raw(`p${parts.length}`)}`);
  }
  const { rows } = await sql<RawRow>`${sql.join(parts, sql` union all `)}`.execute(db);
  return rows;
}

/** The rows of a trigram match, not tickers, in the match's order after `order`. */
async function matchedRows(db: Kysely<SearchQueryTables>, match: TrigramMatch, order: string | null, limit: number): Promise<RawRow[]> {
  const where = match.where === null ? sql`` : sql`${match.where} and `;
  const orderBy = sql.join([...(order === null ? [] : [sql.raw(order)]), ...(match.order === null ? [] : [match.order])]);
  const { rows } = await sql<RawRow>`select ${sql.raw(ROW_SQL)} from ${match.from}
    where ${where}s.source not like ${TICKER_SOURCE} order by ${orderBy} limit ${limit}`.execute(db);
  return rows;
}

/** Rows whose name contains the query (a later word, or inside a word), through the trigram index; 4+ characters. */
async function substringRows(db: Kysely<SearchQueryTables>, quirks: DialectQuirks, norm: string, limit: number): Promise<RawRow[]> {
  if (norm.length < 4) return [];
  return matchedRows(db, quirks.trigramContains(SEARCH_NAMES_INDEX, 's', norm), 's.size_rank', limit);
}

/** The names sharing the most trigrams with the query: typos the prefix variants miss (`gpogle` → google). */
async function similarRows(db: Kysely<SearchQueryTables>, quirks: DialectQuirks, norm: string, limit: number): Promise<RawRow[]> {
  const grams = trigrams(norm);
  if (grams.length === 0) return [];
  return matchedRows(db, await quirks.trigramSimilar(db as Kysely<unknown>, SEARCH_NAMES_INDEX, 's', norm, grams), null, limit);
}

/** Tickers and crypto symbols equal to the query (never a prefix: short tickers would crowd out names). */
async function tickerRows(db: Kysely<SearchQueryTables>, ticker: string | null | undefined): Promise<RawRow[]> {
  if (!ticker) return [];
  return db.selectFrom('search_names as s').select(COLUMNS).where('s.norm', '=', ticker).where('s.source', 'like', TICKER_SOURCE).orderBy('s.size_rank').limit(5).execute();
}

function distinctRows(rows: readonly RawRow[]): SearchNameRow[] {
  const seen = new Set<string>();
  const out: SearchNameRow[] = [];
  for (const row of rows) {
    const key = `${row.domain}\u0000${row.source}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(toRow(row));
  }
  return out;
}

/** The candidate rows for a query: prefixes (and their one-edit variants), substrings, and the ticker. */
export async function searchNameCandidates(db: Kysely<SearchQueryTables>, quirks: DialectQuirks, query: SearchCandidateQuery): Promise<SearchNameRow[]> {
  return distinctRows([
    ...(await prefixRows(db, quirks, query.norm, query.variants, query.limit)),
    ...(await substringRows(db, quirks, query.norm, query.limit)),
    ...(await tickerRows(db, query.ticker)),
  ]);
}

/** Names similar to the query by shared trigrams (the costlier read, asked for when the others find too little). */
export async function similarNameCandidates(db: Kysely<SearchQueryTables>, quirks: DialectQuirks, norm: string, limit: number): Promise<SearchNameRow[]> {
  return distinctRows(await similarRows(db, quirks, norm, limit));
}

/** Lookups per brand from `brand_popularity` (migration 0014, counted by the lookup path in batches). */
export async function brandLookups(db: Kysely<SearchQueryTables>, brandIds: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (brandIds.length === 0) return out;
  const { rows } = await sql<{ brand_id: string; lookups: number | string }>`select brand_id, lookups from brand_popularity where brand_id in (${sql.join([...brandIds])})`.execute(db);
  for (const row of rows) out.set(row.brand_id, Number(row.lookups));
  return out;
}
