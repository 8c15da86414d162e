/**
 * Search by name with 100,000 brands in the store (issue 20, docs/performance.md): p50 / p99 latency of one search
 * (sequential) and throughput (8 concurrent callers) through the real search service (src/search/brand-search.ts:
 * the FTS5 trigram / pg_trgm candidate reads, the popularity read, the ranking), against a plain indexed lookup by
 * domain (`findBrandByIdentifier`) on the same store, in the same run; on SQLite and on PostgreSQL (BENCH_PG_URL,
 * default the local server; skipped when none answers). The store also holds the embedded reference data.
 *
 * The 100,000 brands are written in multi-row inserts with the rows saveBrand writes for a brand (brands,
 * brand_identifiers, and its search_names row built with the same text rules), so filling takes seconds, not the
 * hour 100,000 single-brand transactions would. Bounded: BENCH_SEARCH_SECONDS per measurement (default 4).
 * Run alone: `node --import tsx bench/search.ts`; or call `benchSearch()` (bench/run.ts does).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import type { Insertable, Kysely } from 'kysely';
import pg from 'pg';
import { labelledQueries } from '../eval/search/search-eval.js';
import { brandIdForDomain } from '../src/domain/ids.js';
import { domainLabel, normalizeName } from '../src/domain/search-text.js';
import { silentLogger } from '../src/platform/logger.js';
import { loadEmbeddedReferenceData } from '../src/refdata/embedded-reference-data.js';
import { BrandSearch } from '../src/search/brand-search.js';
import type { SearchTables } from '../src/search/store/search-tables.js';
import type { Database as StoreTables } from '../test/helpers/all-tables.js';
import { openPostgresStore, openSqliteStore, type OpenedStore } from '../test/store/open-store.js';
import { sampleBrand } from '../test/store/sample-brand.js';
import { postgresReachable } from './fleet-processes.js';

const BRANDS = Number(process.env.BENCH_SEARCH_BRANDS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SEARCH_SECONDS ?? 4);
const CONCURRENCY = 8;

/** The brands' tables (not yet moved out of the store) and the search index's, which fillBrands writes directly. */
type Database = StoreTables & SearchTables;

/** Deterministic pseudo-random numbers (the same store and queries every run). */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const SYLLABLES = ['ka', 'lo', 'ver', 'tin', 'ro', 'sa', 'mi', 'dex', 'ul', 'tra', 'no', 'vi', 'qua', 'zen', 'bel', 'ar', 'fi', 'gon', 'pe', 'tor', 'lu', 'mar', 'cy', 'den', 'hal', 'os', 'ri', 'ven', 'sol', 'ta'];
const WORDS = ['', '', '', 'Labs', 'Systems', 'Health', 'Foods', 'Bank', 'Energy', 'Studio', 'Group', 'Motors', 'Pay', 'Cloud', 'Air', 'Home', 'Games', 'Media'];

function brandName(random: () => number): string {
  const n = 2 + Math.floor(random() * 2);
  let word = '';
  for (let i = 0; i < n; i++) word += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
  const suffix = WORDS[Math.floor(random() * WORDS.length)] ?? '';
  return `${word[0]?.toUpperCase()}${word.slice(1)}${suffix ? ` ${suffix}` : ''}`;
}

/** Writes `count` brands as saveBrand would leave them (brands, their domain identifier, their search row). */
export async function fillBrands(db: Kysely<Database>, count: number): Promise<{ names: string[]; domains: string[] }> {
  const random = prng(20);
  const now = Date.parse('2026-11-01T00:00:00Z');
  const names: string[] = [];
  const domains: string[] = [];
  for (let start = 0; start < count; start += 500) {
    const brands: Insertable<Database['brands']>[] = [];
    const identifiers: Insertable<Database['brand_identifiers']>[] = [];
    const rows: Insertable<Database['search_names']>[] = [];
    for (let i = start; i < Math.min(count, start + 500); i++) {
      const name = brandName(random);
      const domain = `${normalizeName(name).replace(/ /g, '')}${i}.bench`;
      const id = brandIdForDomain(domain);
      const brand = sampleBrand(domain, { name, description: null, longDescription: null, links: [], fonts: [], images: [], qualityScore: Math.round(random() * 100) / 100 });
      brands.push({ id, domain, status: 'indexed' as const, record: JSON.stringify(brand), crawled_at: now, created_at: now, updated_at: now });
      identifiers.push({ kind: 'domain' as const, value: domain, brand_id: id });
      rows.push({ domain, source: 'brand', name, norm: normalizeName(name), label: domainLabel(domain), brand_id: id, claimed: 0, icon: null, quality_score: brand.qualityScore, size_rank: 9 });
      names.push(name);
      domains.push(domain);
    }
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('brands').values(brands).execute();
      await trx.insertInto('brand_identifiers').values(identifiers).execute();
      await trx.insertInto('search_names').values(rows).execute();
    });
  }
  return { names, domains };
}

/** What people type: prefixes, whole names, one transposition, and the eval's reference-data queries. */
export function queryMix(names: readonly string[], count: number): string[] {
  const random = prng(7);
  const labelled = labelledQueries().map((q) => q.query);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const name = normalizeName(names[Math.floor(random() * names.length)] ?? 'x');
    const pick = random();
    if (pick < 0.4) out.push(name.slice(0, 3 + Math.floor(random() * 4)));
    else if (pick < 0.6) out.push(name);
    else if (pick < 0.8) {
      const at = 1 + Math.floor(random() * Math.max(1, name.length - 2));
      out.push(name.slice(0, at) + (name[at + 1] ?? '') + (name[at] ?? '') + name.slice(at + 2));
    } else out.push(labelled[Math.floor(random() * labelled.length)] ?? 'apple');
  }
  return out;
}

interface Timing {
  p50Ms: number;
  p99Ms: number;
  opsPerSec: number;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

/** Sequential latencies for SECONDS, then CONCURRENCY callers for SECONDS (throughput). */
async function time(op: (i: number) => Promise<unknown>): Promise<Timing> {
  const latencies: number[] = [];
  let i = 0;
  const until = performance.now() + SECONDS * 1000;
  while (performance.now() < until) {
    const t = performance.now();
    await op(i++);
    latencies.push(performance.now() - t);
  }
  latencies.sort((a, b) => a - b);
  let done = 0;
  const end = performance.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        await op(i++);
        done++;
      }
    }),
  );
  const opsPerSec = done / ((performance.now() - started) / 1000);
  return { p50Ms: Number(percentile(latencies, 0.5).toFixed(3)), p99Ms: Number(percentile(latencies, 0.99).toFixed(3)), opsPerSec: Math.round(opsPerSec) };
}

async function measure({ migrate, stores, database }: OpenedStore): Promise<Record<string, unknown>> {
  const db = database.tables<Database>();
  await migrate();
  await loadEmbeddedReferenceData(stores.referenceData);
  const filling = performance.now();
  const { names, domains } = await fillBrands(db, BRANDS);
  const fillSeconds = (performance.now() - filling) / 1000;
  const search = new BrandSearch(stores.search, (key) => key, { timeoutMs: 60_000, referenceCheckMs: 3_600_000, logger: silentLogger() });
  await search.warm();
  const queries = queryMix(names, 5000);
  const random = prng(3);
  const lookupDomains = Array.from({ length: 5000 }, () => domains[Math.floor(random() * domains.length)] ?? 'x');
  // Warm both paths (statement caches, pages) before measuring.
  for (let i = 0; i < 200; i++) {
    await search.search(queries[i] ?? 'a', 10);
    await stores.brands.findBrandByIdentifier({ kind: 'domain', value: lookupDomains[i] ?? 'x' });
  }
  const lookup = await time((i) => stores.brands.findBrandByIdentifier({ kind: 'domain', value: lookupDomains[i % lookupDomains.length] ?? 'x' }));
  const searched = await time((i) => search.search(queries[i % queries.length] ?? 'a', 10));
  const counted = await db.selectFrom('search_names').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  return {
    brands: BRANDS,
    searchNames: Number(counted.n),
    fillSeconds: Number(fillSeconds.toFixed(1)),
    lookupByDomain: lookup,
    search: searched,
    ratio: {
      p50: Number((searched.p50Ms / lookup.p50Ms).toFixed(2)),
      p99: Number((searched.p99Ms / lookup.p99Ms).toFixed(2)),
      throughput: Number((searched.opsPerSec / lookup.opsPerSec).toFixed(3)),
    },
  };
}

async function onSqlite(): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'brandbase-bench-search-'));
  const opened = await openSqliteStore({ file: path.join(dir, 'search.sqlite') });
  try {
    return await measure(opened);
  } finally {
    await opened.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function onPostgres(url: string): Promise<Record<string, unknown> | { skipped: string }> {
  if (!(await postgresReachable(url))) return { skipped: `no PostgreSQL at ${url.replace(/\/\/[^@]*@/, '//')}` };
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  const opened = await openPostgresStore({ url, schema });
  try {
    return await measure(opened);
  } finally {
    await opened.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`drop schema if exists "${schema}" cascade`);
    await client.end();
  }
}

export async function benchSearch(): Promise<Record<string, unknown>> {
  const url = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const sqlite = await onSqlite();
  // Each backend's figures as soon as they are measured (stderr), so a run cut short keeps them.
  console.error(JSON.stringify({ searchBench: 'sqlite', ...sqlite }));
  const postgres = await onPostgres(url);
  console.error(JSON.stringify({ searchBench: 'postgres', ...postgres }));
  return {
    benchmark: `search by name (10 results) vs indexed lookup by domain, ${BRANDS} brands plus the embedded reference data; ${SECONDS} s sequential (latency) and ${SECONDS} s with ${CONCURRENCY} callers (throughput), in process`,
    loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))),
    sqlite,
    postgres,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchSearch(), null, 2));
