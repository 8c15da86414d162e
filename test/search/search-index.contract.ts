/**
 * The search index's store contract (migration 0017, ADR 0033), on every backend against a real database: the index
 * moves with saveBrand / setBrandStatus in their transactions (the search's brand save hook), reference-data names
 * (listed companies, crypto assets, their tickers) are searchable before any crawl, and candidates come from the
 * database's own text index (FTS5 trigram on SQLite, pg_trgm on PostgreSQL), which the query plans show. Every test
 * makes its own brands and reference rows under names no other test uses, so the suite passes in any order.
 */
import { randomInt } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandIdForDomain } from '../../src/domain/ids.js';
import { normalizeName, tickerQuery, typoVariants } from '../../src/domain/search-text.js';
import { importReferenceFile } from '../../src/refdata/import/import-file.js';
import type { Database } from '../../src/db/database.js';
import type { ReferenceData } from '../../src/refdata/reference-data.js';
import type { SearchIndexStore, SearchNameRow } from '../../src/search/search-store.js';
import type { TestDialect } from '../store/temp-database.js';
import type { BrandStore, RefreshStore } from '../../src/brands/brand-store.js';
import { sampleBrand } from '../store/sample-brand.js';

const T0 = new Date('2026-03-04T05:06:07.000Z');

/** Six random lower-case letters: a test's own prefix for the names, domains and tickers it imports. */
function uniqueTag(): string {
  return Array.from({ length: 6 }, () => String.fromCharCode(97 + randomInt(26))).join('');
}

/**
 * One test's reference rows: listings and a crypto asset in the embedded file formats (refdata/embedded/), made up
 * (no real row is copied), every name, domain and ticker prefixed with the test's tag. `quizzle` is the tagged
 * `quizzle` word (`<tag>quizzle`), its domain `<tag>quizzle.test`; `shown` is a name as the index shows it.
 */
function referenceFixture() {
  const tag = uniqueTag();
  const T = tag.toUpperCase();
  const shown = (word: string) => `${tag.charAt(0).toUpperCase()}${tag.slice(1)}${word}`;
  return {
    tag,
    quizzle: `${tag}quizzle`,
    wombleton: `${tag}wombleton`,
    zephyr: `${tag}zephyr`,
    glimmercoin: `${tag}glimmercoin`,
    shown,
    listings: `ticker,mic,name,isin,country,domain,primary,rank,source,source_date
${T}QZX,XNAS,"${T}QUIZZLE SYSTEMS INC",US0000000AA1,US,${tag}quizzle.test,1,1,test,2026-01-01
${T}QZXB,XNAS,"${shown('quizzle')} Systems Inc. - Class B",US0000000AA2,US,${tag}quizzle.test,0,1,test,2026-01-01
${T}WMBL.B,XNYS,"${shown('wombleton')} Holdings Corp",US0000000AA3,US,${tag}wombleton.test,1,2,test,2026-01-01
${T}ZRF,XNYS,"${shown('zephyr')} Freight Co.,LTD",US0000000AA4,US,${tag}zephyrfreight.test,1,4,test,2026-01-01
`,
    crypto: `symbol,name,domain,rank,source,source_date
${T}GLMR,${shown('glimmercoin')},${tag}glimmercoin.test,3,test,2026-01-01
`,
  };
}

type ReferenceFixture = ReturnType<typeof referenceFixture>;

/** Imports the fixture's files through the reference data's port, as `brandbase refdata import` does. */
async function importFixture(referenceData: ReferenceData, fixture: ReferenceFixture): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'brandbase-search-ref-'));
  try {
    await writeFile(path.join(dir, 'listings.csv'), fixture.listings);
    await writeFile(path.join(dir, 'crypto.csv'), fixture.crypto);
    await importReferenceFile(referenceData, { file: path.join(dir, 'listings.csv'), format: 'brandbase-listings' });
    await importReferenceFile(referenceData, { file: path.join(dir, 'crypto.csv'), format: 'brandbase-crypto' });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export interface SearchContractDatabase {
  /** Applies every product's migrations. */
  migrate(): Promise<void>;
  /** `brands`: the brand writes (saveBrand, setBrandStatus) and lookup counts the index follows. */
  stores: { search: SearchIndexStore; referenceData: ReferenceData; brands: BrandStore & RefreshStore };
  database: Database;
  dialect: TestDialect;
  cleanup: () => Promise<void>;
}

async function candidates(search: SearchIndexStore, query: string, similar = false): Promise<SearchNameRow[]> {
  const norm = normalizeName(query);
  const rows = await search.searchNameCandidates({ norm, variants: typoVariants(norm), ticker: tickerQuery(norm), limit: 40 });
  return similar ? [...rows, ...(await search.similarNameCandidates(norm, 40))] : rows;
}

async function domainsFor(search: SearchIndexStore, query: string, similar = false): Promise<string[]> {
  return [...new Set((await candidates(search, query, similar)).map((r) => r.domain))];
}

/** The plan lines of a statement (SQLite `explain query plan`, PostgreSQL `explain` with sequential scans off). */
async function plan(db: Kysely<unknown>, dialect: TestDialect, statement: string): Promise<string> {
  if (dialect === 'sqlite') {
    const { rows } = await sql.raw<{ detail: string }>(`explain query plan ${statement}`).execute(db);
    return rows.map((r) => r.detail).join('\n');
  }
  // A tiny table is cheaper to scan; with scans priced out the planner shows whether an index can answer at all.
  return db.connection().execute(async (conn) => {
    await sql`set enable_seqscan = off`.execute(conn);
    try {
      const { rows } = await sql.raw<{ 'QUERY PLAN': string }>(`explain ${statement}`).execute(conn);
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    } finally {
      await sql`reset enable_seqscan`.execute(conn);
    }
  });
}

export function searchIndexContract(name: string, open: () => Promise<SearchContractDatabase>): void {
  describe(`Search index store contract: ${name}`, () => {
    let brands: BrandStore & RefreshStore;
    let search: SearchIndexStore;
    let referenceData: ReferenceData;
    let db: Kysely<unknown>;
    let dialect: TestDialect;
    let cleanup: () => Promise<void>;

    beforeAll(async () => {
      let database: Database;
      let migrate: () => Promise<void>;
      ({ migrate, stores: { search, referenceData, brands }, database, dialect, cleanup } = await open());
      db = database.tables<unknown>();
      await migrate();
    });
    afterAll(async () => {
      await cleanup();
    });

    async function save(domain: string, overrides: Parameters<typeof sampleBrand>[1] = {}, status: 'indexed' | 'removed' = 'indexed') {
      const brand = sampleBrand(domain, overrides);
      await brands.saveBrand({ brand, status, crawledAt: T0, createdAt: T0, updatedAt: T0 }, [{ kind: 'domain', value: domain }]);
      return brand;
    }

    it('indexes a saved brand in the same write: its name, domain label, icon key, claim and quality score', async () => {
      const brand = await save('orbitalyx.test', { name: 'Orbitalyx Rockets', claimed: true, qualityScore: 0.81 });
      const rows = await candidates(search, 'orbita');
      expect(rows).toHaveLength(1);
      expect(rows[0]).toEqual({
        domain: 'orbitalyx.test',
        source: 'brand',
        name: 'Orbitalyx Rockets',
        norm: 'orbitalyx rockets',
        label: 'orbitalyx',
        brandId: brand.id,
        claimed: true,
        // The icon logo's raster file (sample-brand.ts), as stored: a key, rendered to a URL when answered.
        icon: `https://cdn.example/${brand.id}/icon.webp`,
        qualityScore: 0.81,
        sizeRank: 9,
        lookups: 0,
      });
      // A later word and a part of a word are found too (the trigram index), accents and case are ignored.
      expect(await domainsFor(search, 'ROCKETS')).toEqual(['orbitalyx.test']);
      expect(await domainsFor(search, 'bitaly')).toEqual(['orbitalyx.test']);
      expect(await domainsFor(search, 'Örbîtalyx')).toEqual(['orbitalyx.test']);
    });

    it('follows a re-crawl that renames the brand: the old name is gone, the new one found', async () => {
      await save('fernwick.test', { name: 'Fernwick Tea' });
      expect(await domainsFor(search, 'fernwick t')).toEqual(['fernwick.test']);
      await save('fernwick.test', { name: 'Brambledown Tea' });
      expect(await domainsFor(search, 'brambledown')).toEqual(['fernwick.test']);
      expect((await candidates(search, 'fernwick t')).filter((r) => r.norm.startsWith('fernwick'))).toEqual([]);
    });

    it('drops a removed brand and brings it back when restored (setBrandStatus)', async () => {
      const brand = await save('plovdane.test', { name: 'Plovdane Ferries' });
      expect(await domainsFor(search, 'plovdane')).toEqual(['plovdane.test']);
      await brands.setBrandStatus(brand.id, 'removed', T0);
      expect(await domainsFor(search, 'plovdane')).toEqual([]);
      await brands.setBrandStatus(brand.id, 'indexed', T0);
      expect((await candidates(search, 'plovdane'))[0]?.brandId).toBe(brand.id);
    });

    it('never indexes a brand saved as removed', async () => {
      await save('hiddenvale.test', { name: 'Hiddenvale Honey' }, 'removed');
      expect(await domainsFor(search, 'hiddenvale')).toEqual([]);
    });

    it('finds one-edit typos of short names through prefix variants, and longer typos by shared trigrams', async () => {
      await save('nikora.test', { name: 'Nikora' });
      await save('goolgrim.test', { name: 'Googlegrim Maps' });
      expect(await domainsFor(search, 'nkiora')).toContain('nikora.test');
      expect(await domainsFor(search, 'goolgegrim', true)).toContain('goolgrim.test');
      expect((await search.similarNameCandidates('gpoglegrim', 40)).map((r) => r.domain)).toContain('goolgrim.test');
    });

    it('makes reference-data names searchable after a sync, uncrawled (no brand, no icon), and syncs only after an import', async () => {
      const ref = referenceFixture();
      await importFixture(referenceData, ref);
      expect(await search.syncSearchReferenceNames()).toBe(true);
      expect(await search.syncSearchReferenceNames()).toBe(false);
      const quizzle = (await candidates(search, ref.quizzle)).filter((r) => r.domain === `${ref.quizzle}.test`);
      // One row per domain and source: the primary listing's name, shown as a brand name (no legal form, not ALL CAPS).
      expect(quizzle).toEqual([
        { domain: `${ref.quizzle}.test`, source: 'listing', name: ref.shown('quizzle Systems'), norm: `${ref.quizzle} systems`, label: ref.quizzle, brandId: null, claimed: false, icon: null, qualityScore: null, sizeRank: 1, lookups: 0 },
      ]);
      expect((await candidates(search, `${ref.zephyr} f`))[0]?.name).toBe(ref.shown('zephyr Freight'));
      expect((await candidates(search, ref.glimmercoin))[0]).toMatchObject({ source: 'crypto', name: ref.shown('glimmercoin'), domain: `${ref.glimmercoin}.test` });
    });

    it('matches tickers and crypto symbols exactly, never as prefixes', async () => {
      const ref = referenceFixture();
      await importFixture(referenceData, ref);
      expect(await search.syncSearchReferenceNames()).toBe(true);
      const tickers = async (query: string) => (await candidates(search, query)).filter((r) => r.source === 'ticker');
      expect(await tickers(`${ref.tag}qzx`)).toEqual([expect.objectContaining({ domain: `${ref.quizzle}.test`, name: ref.shown('quizzle Systems'), norm: `${ref.tag}qzx` })]);
      // The share class is not typed: `WMBL.B` is found as `wmbl`, and as `WMBL.B`.
      expect((await tickers(`${ref.tag}wmbl`)).map((r) => r.domain)).toEqual([`${ref.wombleton}.test`]);
      expect((await tickers(`${ref.tag.toUpperCase()}WMBL.B`)).map((r) => r.domain)).toEqual([`${ref.wombleton}.test`]);
      // Only primary listings' tickers: QZXB is not one.
      expect(await tickers(`${ref.tag}qzxb`)).toEqual([]);
      expect((await tickers(`${ref.tag}glmr`)).map((r) => r.domain)).toEqual([`${ref.glimmercoin}.test`]);
      expect(await tickers(`${ref.tag}qz`)).toEqual([]);
    });

    it('carries a crawled brand onto the reference rows of its domain, and takes it off when the brand is removed', async () => {
      const ref = referenceFixture();
      await importFixture(referenceData, ref);
      expect(await search.syncSearchReferenceNames()).toBe(true);
      const domain = `${ref.quizzle}.test`;
      const brand = await save(domain, { name: ref.shown('quizzle'), qualityScore: 0.9 });
      const rows = (await candidates(search, ref.quizzle)).filter((r) => r.domain === domain);
      expect(rows.map((r) => r.source).sort()).toEqual(['brand', 'listing']);
      for (const row of rows) expect(row).toMatchObject({ brandId: brand.id, qualityScore: 0.9, icon: `https://cdn.example/${brand.id}/icon.webp`, sizeRank: 1 });
      // A sync after a later import keeps the crawled brand's fields on the fresh reference rows.
      expect(await search.syncSearchReferenceNames(true)).toBe(true);
      expect((await candidates(search, `${ref.quizzle} systems`)).find((r) => r.source === 'listing')?.brandId).toBe(brand.id);
      await brands.setBrandStatus(brand.id, 'removed', T0);
      const after = (await candidates(search, ref.quizzle)).filter((r) => r.domain === domain);
      expect(after).toEqual([expect.objectContaining({ source: 'listing', brandId: null, icon: null, qualityScore: null, claimed: false })]);
    });

    it('reads lookups per brand (brand_popularity), zero for brands never looked up', async () => {
      const tag = uniqueTag();
      const a = brandIdForDomain(`${tag}looked.test`);
      const b = brandIdForDomain(`${tag}unlooked.test`);
      await brands.addBrandLookups([{ brandId: a, lookups: 7, lastLookupAt: T0 }]);
      await brands.addBrandLookups([{ brandId: a, lookups: 5, lastLookupAt: T0 }]);
      const lookups = await search.searchLookups([a, b]);
      expect(lookups.get(a)).toBe(12);
      expect(lookups.get(b) ?? 0).toBe(0);
      expect(await search.searchLookups([])).toEqual(new Map());
    });

    it('answers from the database text index, not a scan', async () => {
      if (dialect === 'sqlite') {
        const fts = await plan(db, dialect, `select s.id from search_names_fts f join search_names s on s.id = f.rowid where search_names_fts match '"rocket"'`);
        expect(fts).toMatch(/VIRTUAL TABLE INDEX/);
        expect(fts).not.toMatch(/SCAN s\b/);
        const prefix = await plan(db, dialect, `select id from search_names s where s.norm >= 'orb' and s.norm < 'orb\uffff' order by s.norm limit 40`);
        expect(prefix).toMatch(/USING (COVERING )?INDEX search_names_norm_idx/);
        expect(prefix).not.toMatch(/TEMP B-TREE/);
        const listed = await plan(db, dialect, `select id from search_names s where s.size_rank in (1, 2, 3, 4, 5, 6) and s.norm >= 'orb' and s.norm < 'orb\uffff' order by s.size_rank, s.norm limit 40`);
        expect(listed).toMatch(/USING (COVERING )?INDEX search_names_rank_norm_idx/);
        const tokenizer = await sql<{ sql: string }>`select sql from sqlite_master where name = 'search_names_fts'`.execute(db);
        expect(tokenizer.rows[0]?.sql).toMatch(/tokenize='trigram'/);
      } else {
        const ext = await sql<{ nspname: string }>`select n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
        const schema = ext.rows[0]?.nspname ?? '';
        expect(schema).not.toBe('');
        const knn = await plan(db, dialect, `select id from search_names order by norm OPERATOR("${schema}".<->) 'goolge' limit 40`);
        expect(knn).toMatch(/Index Scan using search_names_norm_trgm/);
        const contains = await plan(db, dialect, `select id from search_names where norm like '%rocket%'`);
        expect(contains).toMatch(/search_names_norm_trgm/);
        const prefix = await plan(db, dialect, `select id from search_names where norm collate "C" >= 'orb' and norm collate "C" < 'orc' order by norm collate "C" limit 40`);
        expect(prefix).toMatch(/Index Scan using search_names_norm_idx/);
        expect(prefix).not.toMatch(/Sort/);
      }
    });
  });
}
