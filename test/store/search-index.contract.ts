/**
 * The search-by-name part of the Store contract (migration 0017, ADR 0033), on every backend against a real
 * database: the index moves with saveBrand / setBrandStatus in their transactions, reference-data names (listed
 * companies, crypto assets, their tickers) are searchable before any crawl, and candidates come from the
 * database's own text index (FTS5 trigram on SQLite, pg_trgm on PostgreSQL), which the query plans show.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandIdForDomain } from '../../src/domain/ids.js';
import { normalizeName, tickerQuery, typoVariants } from '../../src/domain/search-text.js';
import { importReferenceFile } from '../../src/refdata/import/import-file.js';
import type { Database } from '../../src/store/kysely/schema.js';
import type { TestDialect } from './temp-database.js';
import type { SearchNameRow, Store } from '../../src/store/store.js';
import { sampleBrand } from './sample-brand.js';

const T0 = new Date('2026-03-04T05:06:07.000Z');

/** Listings in the embedded file format (refdata/embedded/listings.csv.gz): made up, so no real row is copied. */
const LISTINGS = `ticker,mic,name,isin,country,domain,primary,rank,source,source_date
QZX,XNAS,"QUIZZLE SYSTEMS INC",US0000000AA1,US,quizzle.test,1,1,test,2026-01-01
QZXB,XNAS,"Quizzle Systems Inc. - Class B",US0000000AA2,US,quizzle.test,0,1,test,2026-01-01
WMBL.B,XNYS,"Wombleton Holdings Corp",US0000000AA3,US,wombleton.test,1,2,test,2026-01-01
ZRF,XNYS,"Zephyr Freight Co.,LTD",US0000000AA4,US,zephyrfreight.test,1,4,test,2026-01-01
`;
const CRYPTO = `symbol,name,domain,rank,source,source_date
GLMR,Glimmercoin,glimmercoin.test,3,test,2026-01-01
`;

export interface SearchContractDatabase {
  store: Store;
  db: Kysely<Database>;
  dialect: TestDialect;
  cleanup: () => Promise<void>;
}

async function candidates(store: Store, query: string, similar = false): Promise<SearchNameRow[]> {
  const norm = normalizeName(query);
  const rows = await store.searchNameCandidates({ norm, variants: typoVariants(norm), ticker: tickerQuery(norm), limit: 40 });
  return similar ? [...rows, ...(await store.similarNameCandidates(norm, 40))] : rows;
}

async function domainsFor(store: Store, query: string, similar = false): Promise<string[]> {
  return [...new Set((await candidates(store, query, similar)).map((r) => r.domain))];
}

/** The plan lines of a statement (SQLite `explain query plan`, PostgreSQL `explain` with sequential scans off). */
async function plan(db: Kysely<Database>, dialect: TestDialect, statement: string): Promise<string> {
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
  describe(`Store contract, search index: ${name}`, () => {
    let store: Store;
    let db: Kysely<Database>;
    let dialect: TestDialect;
    let cleanup: () => Promise<void>;

    beforeAll(async () => {
      ({ store, db, dialect, cleanup } = await open());
      await store.migrate();
    });
    afterAll(async () => {
      await cleanup();
    });

    async function save(domain: string, overrides: Parameters<typeof sampleBrand>[1] = {}, status: 'indexed' | 'removed' = 'indexed') {
      const brand = sampleBrand(domain, overrides);
      await store.saveBrand({ brand, status, crawledAt: T0, createdAt: T0, updatedAt: T0 }, [{ kind: 'domain', value: domain }]);
      return brand;
    }

    it('indexes a saved brand in the same write: its name, domain label, icon key, claim and quality score', async () => {
      const brand = await save('orbitalyx.test', { name: 'Orbitalyx Rockets', claimed: true, qualityScore: 0.81 });
      const rows = await candidates(store, 'orbita');
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
      expect(await domainsFor(store, 'ROCKETS')).toEqual(['orbitalyx.test']);
      expect(await domainsFor(store, 'bitaly')).toEqual(['orbitalyx.test']);
      expect(await domainsFor(store, 'Örbîtalyx')).toEqual(['orbitalyx.test']);
    });

    it('follows a re-crawl that renames the brand: the old name is gone, the new one found', async () => {
      await save('fernwick.test', { name: 'Fernwick Tea' });
      expect(await domainsFor(store, 'fernwick t')).toEqual(['fernwick.test']);
      await save('fernwick.test', { name: 'Brambledown Tea' });
      expect(await domainsFor(store, 'brambledown')).toEqual(['fernwick.test']);
      expect((await candidates(store, 'fernwick t')).filter((r) => r.norm.startsWith('fernwick'))).toEqual([]);
    });

    it('drops a removed brand and brings it back when restored (setBrandStatus)', async () => {
      const brand = await save('plovdane.test', { name: 'Plovdane Ferries' });
      expect(await domainsFor(store, 'plovdane')).toEqual(['plovdane.test']);
      await store.setBrandStatus(brand.id, 'removed', T0);
      expect(await domainsFor(store, 'plovdane')).toEqual([]);
      await store.setBrandStatus(brand.id, 'indexed', T0);
      expect((await candidates(store, 'plovdane'))[0]?.brandId).toBe(brand.id);
    });

    it('never indexes a brand saved as removed', async () => {
      await save('hiddenvale.test', { name: 'Hiddenvale Honey' }, 'removed');
      expect(await domainsFor(store, 'hiddenvale')).toEqual([]);
    });

    it('finds one-edit typos of short names through prefix variants, and longer typos by shared trigrams', async () => {
      await save('nikora.test', { name: 'Nikora' });
      await save('goolgrim.test', { name: 'Googlegrim Maps' });
      expect(await domainsFor(store, 'nkiora')).toContain('nikora.test');
      expect(await domainsFor(store, 'goolgegrim', true)).toContain('goolgrim.test');
      expect((await store.similarNameCandidates('gpoglegrim', 40)).map((r) => r.domain)).toContain('goolgrim.test');
    });

    it('makes reference-data names searchable after a sync, uncrawled (no brand, no icon), and syncs only after an import', async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'brandbase-search-ref-'));
      try {
        await writeFile(path.join(dir, 'listings.csv'), LISTINGS);
        await writeFile(path.join(dir, 'crypto.csv'), CRYPTO);
        await importReferenceFile(store, { file: path.join(dir, 'listings.csv'), format: 'brandbase-listings' });
        await importReferenceFile(store, { file: path.join(dir, 'crypto.csv'), format: 'brandbase-crypto' });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
      expect(await store.syncSearchReferenceNames()).toBe(true);
      expect(await store.syncSearchReferenceNames()).toBe(false);
      const quizzle = (await candidates(store, 'quizz')).filter((r) => r.domain === 'quizzle.test');
      // One row per domain and source: the primary listing's name, shown as a brand name (no legal form, not ALL CAPS).
      expect(quizzle).toEqual([
        { domain: 'quizzle.test', source: 'listing', name: 'Quizzle Systems', norm: 'quizzle systems', label: 'quizzle', brandId: null, claimed: false, icon: null, qualityScore: null, sizeRank: 1, lookups: 0 },
      ]);
      expect((await candidates(store, 'zephyr f'))[0]?.name).toBe('Zephyr Freight');
      expect((await candidates(store, 'glimmerc'))[0]).toMatchObject({ source: 'crypto', name: 'Glimmercoin', domain: 'glimmercoin.test' });
    });

    it('matches tickers and crypto symbols exactly, never as prefixes', async () => {
      expect((await candidates(store, 'qzx')).filter((r) => r.source === 'ticker')).toEqual([expect.objectContaining({ domain: 'quizzle.test', name: 'Quizzle Systems', norm: 'qzx' })]);
      // The share class is not typed: `WMBL.B` is found as `wmbl`, and as `WMBL.B`.
      expect((await candidates(store, 'wmbl')).filter((r) => r.source === 'ticker').map((r) => r.domain)).toEqual(['wombleton.test']);
      expect((await candidates(store, 'WMBL.B')).filter((r) => r.source === 'ticker').map((r) => r.domain)).toEqual(['wombleton.test']);
      // Only primary listings' tickers: QZXB is not one.
      expect((await candidates(store, 'qzxb')).filter((r) => r.source === 'ticker')).toEqual([]);
      expect((await candidates(store, 'glmr')).filter((r) => r.source === 'ticker').map((r) => r.domain)).toEqual(['glimmercoin.test']);
      expect((await candidates(store, 'qz')).filter((r) => r.source === 'ticker')).toEqual([]);
    });

    it('carries a crawled brand onto the reference rows of its domain, and takes it off when the brand is removed', async () => {
      const brand = await save('quizzle.test', { name: 'Quizzle', qualityScore: 0.9 });
      const rows = (await candidates(store, 'quizzle')).filter((r) => r.domain === 'quizzle.test');
      expect(rows.map((r) => r.source).sort()).toEqual(['brand', 'listing']);
      for (const row of rows) expect(row).toMatchObject({ brandId: brand.id, qualityScore: 0.9, icon: `https://cdn.example/${brand.id}/icon.webp`, sizeRank: 1 });
      // A sync after a later import keeps the crawled brand's fields on the fresh reference rows.
      expect(await store.syncSearchReferenceNames(true)).toBe(true);
      expect((await candidates(store, 'quizzle systems')).find((r) => r.source === 'listing')?.brandId).toBe(brand.id);
      await store.setBrandStatus(brand.id, 'removed', T0);
      const after = (await candidates(store, 'quizzle')).filter((r) => r.domain === 'quizzle.test');
      expect(after).toEqual([expect.objectContaining({ source: 'listing', brandId: null, icon: null, qualityScore: null, claimed: false })]);
    });

    it('reads lookups per brand (brand_popularity), zero for brands never looked up', async () => {
      const a = brandIdForDomain('orbitalyx.test');
      const b = brandIdForDomain('fernwick.test');
      await store.addBrandLookups([{ brandId: a, lookups: 7, lastLookupAt: T0 }]);
      await store.addBrandLookups([{ brandId: a, lookups: 5, lastLookupAt: T0 }]);
      const lookups = await store.searchLookups([a, b]);
      expect(lookups.get(a)).toBe(12);
      expect(lookups.get(b) ?? 0).toBe(0);
      expect(await store.searchLookups([])).toEqual(new Map());
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
