/**
 * The reference data's store (issue 30): the ReferenceData port (../reference-data.ts) over the kernel's Database,
 * on both dialects (tables: refdata-tables.ts, migration 0008: refdata-migrations.ts). Upserts read the stored rows of a batch, merge them field by
 * field in code (reference-merge.ts) and write only what changed, all in one write transaction: a re-import of
 * the same file writes nothing and counts every row `unchanged`.
 */
import { randomUUID } from 'node:crypto';
import { CompiledQuery, type Kysely } from 'kysely';
import { isValidIsin } from '../../domain/identifiers.js';
import type { Database } from '../../db/database.js';
import { venueProminence } from '../exchanges.js';
import type {
  CryptoAsset,
  EmptyTableRows,
  Etf,
  IsinLei,
  KnownBrand,
  LeiDomain,
  Listing,
  ReferenceData,
  ReferenceImportRecord,
  ReferenceSourceStatus,
  ReferenceTable,
  ReplaceCounts,
  UpsertCounts,
} from '../reference-data.js';
import { toSafeInteger } from '../../db/column-codec.js';
import { mergeFields, type Fields, type MergeSpec } from './reference-merge.js';
import type { RefBrandsTable, ReferenceDataTables } from './refdata-tables.js';
import { BRAND_COLUMNS, brandColumns, sameBrandRow, toKnownBrand } from './known-brand-rows.js';
import type { DialectQuirks } from '../../db/dialect-quirks.js';

type RefTableName = Exclude<keyof ReferenceDataTables, 'ref_imports'>;

/** How one port table maps to its SQL table: key columns, the row ↔ column conversion, the merge rule. */
interface TableMap<T> {
  sqlTable: RefTableName;
  keys: readonly string[];
  /** The key column looked up with `in (...)` to fetch a batch's stored rows. */
  lookupKey: string;
  toColumns(row: T): Fields;
  merge: MergeSpec;
}

// Rows per statement: 500 × 13 columns stays far below SQLite's and PostgreSQL's bound-parameter limits.
const BATCH = 500;
// Rows per statement of a bulk insert into an empty table: 1,000 × 13 columns stays below both limits as well.
const BULK_ROWS = 1000;

const LISTINGS: TableMap<Listing> = {
  sqlTable: 'ref_listings',
  keys: ['ticker_norm', 'mic'],
  lookupKey: 'ticker_norm',
  toColumns: (r) => ({
    mic: r.mic,
    ticker_norm: r.tickerNorm,
    ticker: r.ticker,
    share_class: r.shareClass,
    name: r.name,
    isin: r.isin,
    country: r.country,
    domain: r.domain,
    is_primary: r.primary ? 1 : 0,
    rank: r.rank,
  }),
  merge: {
    table: 'listings',
    reported: ['isin', 'domain'],
    // An ISIN of the company's own country is better attested than any source's word for a foreign one.
    score: (field, value, row) => (field === 'isin' && typeof value === 'string' && value.slice(0, 2) === row.country ? 1000 : 0),
    combine: {
      is_primary: (a, b) => (a === 1 || b === 1 ? 1 : 0),
      rank: (a, b) => Math.min(Number(a ?? 9), Number(b ?? 9)),
    },
  },
};

const ETFS: TableMap<Etf> = {
  sqlTable: 'ref_etfs',
  keys: ['ticker_norm', 'mic'],
  lookupKey: 'ticker_norm',
  toColumns: (r) => ({
    mic: r.mic,
    ticker_norm: r.tickerNorm,
    ticker: r.ticker,
    name: r.name,
    isin: r.isin,
    issuer: r.issuer,
    issuer_domain: r.issuerDomain,
  }),
  merge: { table: 'etfs', reported: ['isin', 'issuer_domain'] },
};

const CRYPTO: TableMap<CryptoAsset> = {
  sqlTable: 'ref_crypto_assets',
  keys: ['symbol', 'name'],
  lookupKey: 'symbol',
  toColumns: (r) => ({ symbol: r.symbol, name: r.name, domain: r.domain, rank: r.rank }),
  merge: { table: 'crypto', reported: ['domain'], combine: { rank: (a, b) => Math.min(Number(a ?? 1e9), Number(b ?? 1e9)) } },
};

const ISIN_LEIS: TableMap<IsinLei> = {
  sqlTable: 'ref_isin_leis',
  keys: ['isin'],
  lookupKey: 'isin',
  toColumns: (r) => ({ isin: r.isin, lei: r.lei }),
  merge: { table: 'isinLei', reported: ['lei'] },
};

const LEI_DOMAINS: TableMap<LeiDomain> = {
  sqlTable: 'ref_lei_domains',
  keys: ['lei'],
  lookupKey: 'lei',
  toColumns: (r) => ({ lei: r.lei, name: r.name, domain: r.domain }),
  merge: { table: 'leiDomains', reported: ['domain'] },
};

const PORT_TABLE: Readonly<Record<RefTableName, ReferenceTable>> = {
  ref_listings: 'listings',
  ref_etfs: 'etfs',
  ref_crypto_assets: 'crypto',
  ref_isin_leis: 'isinLei',
  ref_lei_domains: 'leiDomains',
  ref_brands: 'brands',
};

type StoredRow = Fields & { source: string; source_date: string; field_sources: string };

function keyOf(keys: readonly string[], row: Fields): string {
  return keys.map((k) => String(row[k])).join('\u0000');
}

function readableKey(keys: readonly string[], row: Fields): string {
  return keys.map((k) => String(row[k])).join(':');
}

function toListing(r: ReferenceDataTables['ref_listings']): Listing {
  return {
    ticker: r.ticker,
    tickerNorm: r.ticker_norm,
    mic: r.mic,
    shareClass: r.share_class,
    name: r.name,
    isin: r.isin,
    country: r.country,
    domain: r.domain,
    primary: Number(r.is_primary) === 1,
    rank: Number(r.rank),
    source: r.source,
    sourceDate: r.source_date,
  };
}

function toEtf(r: ReferenceDataTables['ref_etfs']): Etf {
  return {
    ticker: r.ticker,
    tickerNorm: r.ticker_norm,
    mic: r.mic,
    name: r.name,
    isin: r.isin,
    issuer: r.issuer,
    issuerDomain: r.issuer_domain,
    source: r.source,
    sourceDate: r.source_date,
  };
}

/**
 * Primary listings first, then the bigger size class, then the more prominent venue (venueProminence: a homonym
 * of equal size on two home markets), then a row that knows the website. Done in code: the rows of one ticker
 * are few, and the venue order is a table, not data.
 */
function bestFirst(listings: Listing[]): Listing[] {
  const score = (l: Listing) => [l.primary ? 0 : 1, l.rank, venueProminence(l.mic), l.domain === null ? 1 : 0];
  return listings.sort((a, b) => {
    const sa = score(a);
    const sb = score(b);
    for (let i = 0; i < sa.length; i++) if (sa[i] !== sb[i]) return (sa[i] ?? 0) - (sb[i] ?? 0);
    return a.mic.localeCompare(b.mic);
  });
}

export class KyselyReferenceData implements ReferenceData {
  private readonly db: Kysely<ReferenceDataTables>;
  private readonly quirks: DialectQuirks;

  constructor(database: Database) {
    this.db = database.tables<ReferenceDataTables>();
    this.quirks = database.quirks;
  }

  // ---- lookups ----

  private listings() {
    // Best first: the primary listing, then the biggest size class, then a row that knows the website.
    return this.db
      .selectFrom('ref_listings')
      .selectAll()
      .orderBy('is_primary', 'desc')
      .orderBy('rank', 'asc')
      .orderBy((eb) => eb.case().when('domain', 'is', null).then(1).else(0).end(), 'asc')
      .orderBy('mic', 'asc');
  }

  async listingsByTicker(tickerNorm: string): Promise<Listing[]> {
    return bestFirst((await this.listings().where('ticker_norm', '=', tickerNorm).execute()).map(toListing));
  }

  async listingByTickerAndMic(tickerNorm: string, mic: string): Promise<Listing | null> {
    const row = await this.db.selectFrom('ref_listings').selectAll().where('ticker_norm', '=', tickerNorm).where('mic', '=', mic).executeTakeFirst();
    return row === undefined ? null : toListing(row);
  }

  async listingsByIsin(isin: string): Promise<Listing[]> {
    return bestFirst((await this.listings().where('isin', '=', isin).execute()).map(toListing));
  }

  private etfs() {
    return this.db
      .selectFrom('ref_etfs')
      .selectAll()
      .orderBy((eb) => eb.case().when('issuer_domain', 'is', null).then(1).else(0).end(), 'asc')
      .orderBy('mic', 'asc');
  }

  async etfsByTicker(tickerNorm: string): Promise<Etf[]> {
    return (await this.etfs().where('ticker_norm', '=', tickerNorm).execute()).map(toEtf);
  }

  async etfByTickerAndMic(tickerNorm: string, mic: string): Promise<Etf | null> {
    const row = await this.db.selectFrom('ref_etfs').selectAll().where('ticker_norm', '=', tickerNorm).where('mic', '=', mic).executeTakeFirst();
    return row === undefined ? null : toEtf(row);
  }

  async etfsByIsin(isin: string): Promise<Etf[]> {
    return (await this.etfs().where('isin', '=', isin).execute()).map(toEtf);
  }

  async cryptoBySymbol(symbol: string): Promise<CryptoAsset[]> {
    const rows = await this.db.selectFrom('ref_crypto_assets').selectAll().where('symbol', '=', symbol).orderBy('rank').orderBy('name').execute();
    return rows.map((r) => ({ symbol: r.symbol, name: r.name, domain: r.domain, rank: Number(r.rank), source: r.source, sourceDate: r.source_date }));
  }

  async leiByIsin(isin: string): Promise<IsinLei | null> {
    const r = await this.db.selectFrom('ref_isin_leis').selectAll().where('isin', '=', isin).executeTakeFirst();
    return r === undefined ? null : { isin: r.isin, lei: r.lei, source: r.source, sourceDate: r.source_date };
  }

  async domainByLei(lei: string): Promise<LeiDomain | null> {
    const r = await this.db.selectFrom('ref_lei_domains').selectAll().where('lei', '=', lei).executeTakeFirst();
    return r === undefined ? null : { lei: r.lei, name: r.name, domain: r.domain, source: r.source, sourceDate: r.source_date };
  }

  // ---- upserts ----

  upsertListings(rows: readonly Listing[]): Promise<UpsertCounts> {
    return this.upsert(LISTINGS, rows);
  }

  upsertEtfs(rows: readonly Etf[]): Promise<UpsertCounts> {
    return this.upsert(ETFS, rows);
  }

  upsertCryptoAssets(rows: readonly CryptoAsset[]): Promise<UpsertCounts> {
    return this.upsert(CRYPTO, rows);
  }

  async upsertIsinLeis(rows: readonly IsinLei[]): Promise<UpsertCounts> {
    for (const row of rows) if (!isValidIsin(row.isin)) throw new RangeError(`invalid ISIN: ${row.isin}`);
    return this.upsert(ISIN_LEIS, rows);
  }

  upsertLeiDomains(rows: readonly LeiDomain[]): Promise<UpsertCounts> {
    return this.upsert(LEI_DOMAINS, rows);
  }

  insertIntoEmpty(batch: EmptyTableRows): Promise<UpsertCounts> {
    if (batch.table === 'listings') return this.bulkInsert(LISTINGS, batch.rows);
    if (batch.table === 'etfs') return this.bulkInsert(ETFS, batch.rows);
    return this.bulkInsert(CRYPTO, batch.rows);
  }

  /** One transaction, multi-row inserts, no reads per batch: what upsertBatch stores for rows new to the table. */
  private async bulkInsert<T extends { source: string; sourceDate: string }>(map: TableMap<T>, rows: readonly T[]): Promise<UpsertCounts> {
    const dyn = this.db as unknown as Kysely<Record<string, StoredRow>>;
    const any = await dyn.selectFrom(map.sqlTable).select(map.lookupKey).limit(1).executeTakeFirst();
    if (any !== undefined) return this.upsert(map, rows);
    // The last of repeated keys wins, as in upsert.
    const byKey = new Map<string, Fields & { source: string; source_date: string }>();
    for (const row of rows) {
      const fields = map.toColumns(row);
      byKey.set(keyOf(map.keys, fields), Object.assign(fields, { source: row.source, source_date: row.sourceDate }));
    }
    const inserts = [...byKey.values()];
    const first = inserts[0];
    if (!first) return { inserted: 0, updated: 0, unchanged: 0, contradictions: [] };
    const fieldColumns = Object.keys(map.toColumns(rows[0] as T));
    const columns = [...fieldColumns, 'source', 'source_date', 'field_sources'];
    // Every field of a new row comes from the row's source: one JSON text per source, not one per row.
    const sourcesJson = new Map<string, string>();
    const fieldSources = (source: string): string => {
      let json = sourcesJson.get(source);
      if (json === undefined) sourcesJson.set(source, (json = JSON.stringify(Object.fromEntries(fieldColumns.map((f) => [f, source])))));
      return json;
    };
    await this.quirks.writeTransaction(this.db, async (trx) => {
      for (let i = 0; i < inserts.length; i += BULK_ROWS) {
        const params: unknown[] = [];
        for (const row of inserts.slice(i, i + BULK_ROWS)) {
          for (const c of fieldColumns) params.push(row[c] ?? null);
          params.push(row.source, row.source_date, fieldSources(row.source));
        }
        await trx.executeQuery(this.multiRowInsert(map.sqlTable, columns, params));
      }
    });
    return { inserted: inserts.length, updated: 0, unchanged: 0, contradictions: [] };
  }

  /**
   * `insert into t (c…) values (…), (…)` as text with bound parameters (`params`: rows × columns, row by row):
   * building Kysely's query tree for thousands of rows cost more than the insert itself. Table and column names
   * are this file's constants, never input.
   */
  private multiRowInsert(table: string, columns: readonly string[], params: unknown[]): CompiledQuery {
    const rowCount = params.length / columns.length;
    let n = 0;
    const tuple = (): string => `(${columns.map(() => this.quirks.placeholder(++n)).join(', ')})`;
    const tuples = Array.from({ length: rowCount }, tuple);
    const quoted = columns.map((c) => `"${c}"`).join(', ');
    return CompiledQuery.raw(`insert into "${table}" (${quoted}) values ${tuples.join(', ')}`, params);
  }

  private async upsert<T extends { source: string; sourceDate: string }>(map: TableMap<T>, rows: readonly T[]): Promise<UpsertCounts> {
    const counts: UpsertCounts = { inserted: 0, updated: 0, unchanged: 0, contradictions: [] };
    // The last of repeated keys counts (PostgreSQL refuses to touch one row twice in a statement anyway).
    const byKey = new Map<string, T>();
    for (const row of rows) byKey.set(keyOf(map.keys, map.toColumns(row)), row);
    const unique = [...byKey.values()];
    for (let i = 0; i < unique.length; i += BATCH) {
      await this.quirks.writeTransaction(this.db, (trx) => this.upsertBatch(trx, map, unique.slice(i, i + BATCH), counts));
    }
    return counts;
  }

  private async upsertBatch<T extends { source: string; sourceDate: string }>(
    trx: Kysely<ReferenceDataTables>,
    map: TableMap<T>,
    rows: readonly T[],
    counts: UpsertCounts,
  ): Promise<void> {
    const lookups = [...new Set(rows.map((r) => String(map.toColumns(r)[map.lookupKey])))];
    // Dynamic table and column names: Kysely's typed builder cannot follow a table chosen at run time.
    const dyn = trx as unknown as Kysely<Record<string, StoredRow>>;
    const stored = await dyn.selectFrom(map.sqlTable).selectAll().where(map.lookupKey, 'in', lookups).execute();
    const storedByKey = new Map(stored.map((row) => [keyOf(map.keys, row), row]));
    const inserts: StoredRow[] = [];
    for (const row of rows) {
      const fields = map.toColumns(row);
      const key = keyOf(map.keys, fields);
      const current = storedByKey.get(key) as StoredRow | undefined;
      if (current === undefined) {
        const sources = Object.fromEntries(Object.keys(fields).map((f) => [f, row.source]));
        inserts.push({ ...fields, source: row.source, source_date: row.sourceDate, field_sources: JSON.stringify(sources) });
        continue;
      }
      await this.mergeInto(dyn, map, current, row, fields, counts);
    }
    if (inserts.length > 0) await dyn.insertInto(map.sqlTable).values(inserts).execute();
    counts.inserted += inserts.length;
  }

  private async mergeInto<T extends { source: string; sourceDate: string }>(
    dyn: Kysely<Record<string, StoredRow>>,
    map: TableMap<T>,
    current: StoredRow,
    row: T,
    fields: Fields,
    counts: UpsertCounts,
  ): Promise<void> {
    const { source: storedSource, source_date: storedDate, field_sources: storedFieldSources, ...storedFields } = current;
    const merged = mergeFields(
      map.merge,
      readableKey(map.keys, fields),
      { fields: storedFields, fieldSources: JSON.parse(storedFieldSources) as Record<string, string>, source: storedSource },
      fields,
      row.source,
    );
    counts.contradictions.push(...merged.contradictions);
    // The row's own source re-imported with a newer file date: the row's date follows it.
    const newDate = row.source === storedSource && row.sourceDate > storedDate ? row.sourceDate : storedDate;
    if (!merged.changed && newDate === storedDate) {
      counts.unchanged += 1;
      return;
    }
    let update = dyn.updateTable(map.sqlTable).set({ ...merged.fields, source_date: newDate, field_sources: JSON.stringify(merged.fieldSources) } as StoredRow);
    for (const k of map.keys) update = update.where(k, '=', current[k] ?? null);
    await update.execute();
    counts.updated += 1;
  }

  // ---- the brand knowledge set ----

  async replaceKnownBrands(rows: readonly KnownBrand[]): Promise<ReplaceCounts> {
    const counts: ReplaceCounts = { inserted: 0, updated: 0, unchanged: 0, removed: 0, contradictions: [] };
    const byId = new Map<string, RefBrandsTable>();
    for (const row of rows) byId.set(row.id, brandColumns(row));
    if (byId.size === 0) return counts;
    const sources = new Set([...byId.values()].map((r) => r.source));
    await this.quirks.writeTransaction(this.db, async (trx) => {
      // The whole table is read once (a snapshot of some 15,000 short rows): cheaper than a read per batch.
      const stored = await trx.selectFrom('ref_brands').selectAll().execute();
      const storedById = new Map(stored.map((r) => [r.id, r]));
      const writes: RefBrandsTable[] = [];
      for (const row of byId.values()) {
        const current = storedById.get(row.id);
        if (current === undefined) counts.inserted += 1;
        else if (sameBrandRow(current, row)) {
          counts.unchanged += 1;
          continue;
        } else counts.updated += 1;
        writes.push(row);
      }
      const gone = stored.filter((r) => sources.has(r.source) && !byId.has(r.id)).map((r) => r.id);
      counts.removed = gone.length;
      // Changed rows are deleted and written again with the new ones: multi-row inserts, not a statement per row.
      const deletes = [...gone, ...writes.filter((r) => storedById.has(r.id)).map((r) => r.id)];
      for (let i = 0; i < deletes.length; i += BATCH) await trx.deleteFrom('ref_brands').where('id', 'in', deletes.slice(i, i + BATCH)).execute();
      for (let i = 0; i < writes.length; i += BULK_ROWS) {
        const params = writes.slice(i, i + BULK_ROWS).flatMap((r) => BRAND_COLUMNS.map((c) => r[c]));
        await trx.executeQuery(this.multiRowInsert('ref_brands', BRAND_COLUMNS, params));
      }
    });
    return counts;
  }

  async knownBrandsByDomain(domain: string): Promise<KnownBrand[]> {
    const rows = await this.db.selectFrom('ref_brands').selectAll().where('domain', '=', domain).orderBy('id').execute();
    return rows.map(toKnownBrand);
  }

  async hasKnownBrands(): Promise<boolean> {
    return (await this.db.selectFrom('ref_brands').select('id').limit(1).executeTakeFirst()) !== undefined;
  }

  // ---- imports and status ----

  async recordReferenceImport(record: ReferenceImportRecord): Promise<void> {
    await this.db
      .insertInto('ref_imports')
      .values({
        id: randomUUID(),
        source: record.source,
        format: record.format,
        file: record.file,
        source_date: record.sourceDate,
        imported_at: record.importedAt.getTime(),
        report: record.report,
      })
      .execute();
  }

  async referenceStatus(): Promise<{ sources: ReferenceSourceStatus[]; imports: ReferenceImportRecord[] }> {
    const sources: ReferenceSourceStatus[] = [];
    for (const table of Object.keys(PORT_TABLE) as RefTableName[]) {
      const rows = await this.db
        .selectFrom(table)
        .select((eb) => ['source', eb.fn.countAll<number | string | bigint>().as('rows'), eb.fn.max('source_date').as('source_date')])
        .groupBy('source')
        .orderBy('source')
        .execute();
      for (const r of rows) sources.push({ table: PORT_TABLE[table], source: r.source, rows: toSafeInteger(r.rows), sourceDate: r.source_date ?? null });
    }
    const imports = await this.db.selectFrom('ref_imports').selectAll().orderBy('imported_at', 'desc').limit(50).execute();
    return {
      sources,
      imports: imports.map((r) => ({ source: r.source, format: r.format, file: r.file, sourceDate: r.source_date, importedAt: new Date(toSafeInteger(r.imported_at)), report: r.report })),
    };
  }

  async hasReferenceImports(): Promise<boolean> {
    const row = await this.db.selectFrom('ref_imports').select('id').limit(1).executeTakeFirst();
    return row !== undefined;
  }
}
