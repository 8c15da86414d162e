/**
 * SQL of the refresh scheduler, brand popularity, the analysis cache and the mark signatures of the brands store (both
 * dialects; migration 0014, ADR 0030). See docs/refresh.md.
 */
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { MarkSignature } from '../../domain/brand-announcement.js';
import type { AnalysisEntry, BrandLookupCount, DueBrand, RefreshLease, RefreshRun, RefreshState } from '../brand-store.js';
import { toMillis, toSafeInteger } from '../../db/column-codec.js';
import type { BrandTables, RefreshJoinedTables } from './brand-tables.js';

/** The brands' tables, and the columns of others the due read joins (brand-tables.ts: RefreshJoinedTables). */
type JoinedTables = BrandTables & RefreshJoinedTables;

/** Rows per statement: SQLite allows 32,766 bound parameters, PostgreSQL 65,535; every row binds a few. */
const CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

// ---- mark signatures ----

export async function readMarkSignatures(db: Kysely<BrandTables>, keys: readonly string[]): Promise<Map<string, MarkSignature>> {
  const found = new Map<string, MarkSignature>();
  for (const part of chunks([...new Set(keys)])) {
    const rows = await db.selectFrom('asset_marks').select(['asset_key', 'dhash', 'aspect_milli']).where('asset_key', 'in', part).execute();
    for (const row of rows) found.set(row.asset_key, { dhash: row.dhash, aspect: row.aspect_milli === null ? null : toSafeInteger(row.aspect_milli) / 1000 });
  }
  return found;
}

/** A file's signature never changes (its key is its content): the first one written stays. */
export async function saveMarkSignatures(db: Kysely<BrandTables>, marks: ReadonlyMap<string, MarkSignature>, at: Date): Promise<void> {
  const rows = [...marks].map(([key, sig]) => ({
    asset_key: key,
    dhash: sig.dhash,
    aspect_milli: sig.aspect === null ? null : Math.round(sig.aspect * 1000),
    created_at: toMillis(at),
  }));
  for (const part of chunks(rows)) {
    await db.insertInto('asset_marks').values(part).onConflict((oc) => oc.column('asset_key').doNothing()).execute();
  }
}

// ---- popularity ----

/** Adds counted lookups (one upsert per brand, in chunks); the latest lookup time wins. */
export async function addBrandLookups(db: Kysely<BrandTables>, counts: readonly BrandLookupCount[]): Promise<void> {
  const rows = counts.map((c) => ({ brand_id: c.brandId, lookups: c.lookups, last_lookup_at: toMillis(c.lastLookupAt) }));
  for (const part of chunks(rows)) {
    await db
      .insertInto('brand_popularity')
      .values(part)
      .onConflict((oc) =>
        oc.column('brand_id').doUpdateSet((eb) => ({
          lookups: sql<number>`${eb.ref('brand_popularity.lookups')} + ${eb.ref('excluded.lookups')}`,
          last_lookup_at: sql<number>`case when ${eb.ref('excluded.last_lookup_at')} > ${eb.ref('brand_popularity.last_lookup_at')} then ${eb.ref('excluded.last_lookup_at')} else ${eb.ref('brand_popularity.last_lookup_at')} end`,
        })),
      )
      .execute();
  }
}

export async function brandLookups(db: Kysely<BrandTables>, brandId: string): Promise<number> {
  const row = await db.selectFrom('brand_popularity').select('lookups').where('brand_id', '=', brandId).executeTakeFirst();
  return row === undefined ? 0 : toSafeInteger(row.lookups);
}

// ---- analysis cache ----

/** The domain's cached analyses, marked used now (so eviction keeps what re-crawls still read). */
export async function loadAnalyses(db: Kysely<BrandTables>, domain: string, at: Date): Promise<AnalysisEntry[]> {
  const rows = await db.selectFrom('analysis_cache').select(['content_key', 'analysis']).where('domain', '=', domain).execute();
  if (rows.length > 0) await db.updateTable('analysis_cache').set({ used_at: toMillis(at) }).where('domain', '=', domain).execute();
  return rows.map((row) => ({ key: row.content_key, analysis: row.analysis }));
}

/**
 * Replaces the domain's cached analyses with what its latest crawl used (files the site no longer serves go), then
 * evicts the least recently used rows beyond `maxRows` across all domains.
 */
export async function saveAnalyses(db: Kysely<BrandTables>, domain: string, entries: readonly AnalysisEntry[], at: Date, maxRows: number): Promise<void> {
  const usedAt = toMillis(at);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('analysis_cache').where('domain', '=', domain).execute();
    const rows = [...new Map(entries.map((e) => [e.key, e])).values()].map((e) => ({ domain, content_key: e.key, analysis: e.analysis, used_at: usedAt }));
    for (const part of chunks(rows)) await trx.insertInto('analysis_cache').values(part).execute();
  });
  await evictAnalyses(db, maxRows);
}

async function evictAnalyses(db: Kysely<BrandTables>, maxRows: number): Promise<void> {
  const count = await db.selectFrom('analysis_cache').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  const excess = toSafeInteger(count.n) - maxRows;
  if (excess <= 0) return;
  // The cut-off is the used_at of the excess-th oldest row: rows at or before it go (ties may take a few more).
  const cutoff = await db.selectFrom('analysis_cache').select('used_at').orderBy('used_at').offset(excess - 1).limit(1).executeTakeFirst();
  if (cutoff) await db.deleteFrom('analysis_cache').where('used_at', '<=', cutoff.used_at).execute();
}

export async function analysisCacheSize(db: Kysely<BrandTables>): Promise<number> {
  const count = await db.selectFrom('analysis_cache').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  return toSafeInteger(count.n);
}

// ---- scheduler ----

/**
 * Held brands crawled before `staleBefore` with no crawl queued or running, in refresh order: brands some webhook
 * subscribes to first, then the most looked up, then the oldest crawl. With `failedSince`, a brand whose domain has
 * a crawl failure recorded at or after it waits (the failure memory, ADR 0016: a dead site is not queued every tick).
 */
export async function dueBrands(db: Kysely<JoinedTables>, staleBefore: Date, limit: number, failedSince?: Date): Promise<DueBrand[]> {
  if (limit <= 0) return [];
  const rows = await db
    .selectFrom('brands as b')
    .leftJoin('brand_popularity as p', 'p.brand_id', 'b.id')
    .select((eb) => [
      'b.id',
      'b.domain',
      'b.crawled_at',
      eb.fn.coalesce('p.lookups', sql<number>`0`).as('lookups'),
      eb.exists(eb.selectFrom('webhook_subscriptions as s').select('s.domain').whereRef('s.domain', '=', 'b.domain')).as('subscribed'),
    ])
    .where('b.status', '=', 'indexed')
    .where('b.crawled_at', '<', toMillis(staleBefore))
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('jobs as j').select('j.id').where('j.name', '=', 'crawl.brand').whereRef('j.key', '=', 'b.domain').where('j.state', 'in', ['queued', 'running']))),
    )
    .$if(failedSince !== undefined, (qb) =>
      qb.where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('crawl_failures as f').select('f.domain').whereRef('f.domain', '=', 'b.domain').where('f.failed_at', '>=', toMillis(failedSince ?? new Date(0))))),
      ),
    )
    .orderBy(sql`case when exists (select 1 from webhook_subscriptions s2 where s2.domain = b.domain) then 0 else 1 end`)
    .orderBy(sql`coalesce(p.lookups, 0)`, 'desc')
    .orderBy('b.crawled_at')
    .orderBy('b.id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    brandId: row.id,
    domain: row.domain,
    crawledAt: new Date(toSafeInteger(row.crawled_at)),
    lookups: toSafeInteger(row.lookups),
    subscribed: row.subscribed === true || Number(row.subscribed) === 1,
  }));
}

/** How many held brands are stale, and how many refresh crawls are queued or running. */
export async function refreshCounts(db: Kysely<JoinedTables>, staleBefore: Date): Promise<{ stale: number; queued: number; running: number }> {
  const stale = await db
    .selectFrom('brands')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('status', '=', 'indexed')
    .where('crawled_at', '<', toMillis(staleBefore))
    .executeTakeFirstOrThrow();
  const jobs = await db
    .selectFrom('jobs')
    .select(['state', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('name', '=', 'crawl.brand')
    .where('state', 'in', ['queued', 'running'])
    .where(sql<boolean>`payload like ${'%"refresh":true%'}`)
    .groupBy('state')
    .execute();
  const of = (state: string) => toSafeInteger(jobs.find((j) => j.state === state)?.n ?? 0);
  return { stale: toSafeInteger(stale.n), queued: of('queued'), running: of('running') };
}

/**
 * Takes or renews the lease of schedule `name` for `holder` until `now + leaseMs`: succeeds when nobody holds it,
 * the holder is `holder` already, or the lease has expired. One statement, so two processes never both win.
 */
export async function acquireRefreshLease(db: Kysely<BrandTables>, name: string, holder: string, leaseMs: number, now: Date): Promise<RefreshLease | null> {
  const at = toMillis(now);
  const until = at + leaseMs;
  const row = await db
    .insertInto('refresh_state')
    .values({ name, holder, lease_until: until, last_run: null, updated_at: at })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet({ holder, lease_until: until, updated_at: at })
        .where((eb) => eb.or([eb('refresh_state.holder', 'is', null), eb('refresh_state.holder', '=', holder), eb('refresh_state.lease_until', '<', at)])),
    )
    .returning(['holder', 'lease_until'])
    .executeTakeFirst();
  return row === undefined || row.holder !== holder ? null : { holder, until: new Date(toSafeInteger(row.lease_until ?? until)) };
}

/** Gives the lease up (a stopping leader), so another process need not wait for it to expire. */
export async function releaseRefreshLease(db: Kysely<BrandTables>, name: string, holder: string, now: Date): Promise<void> {
  await db.updateTable('refresh_state').set({ holder: null, lease_until: null, updated_at: toMillis(now) }).where('name', '=', name).where('holder', '=', holder).execute();
}

export async function recordRefreshRun(db: Kysely<BrandTables>, name: string, run: RefreshRun): Promise<void> {
  const at = toMillis(run.finishedAt);
  const lastRun = JSON.stringify({ ...run, startedAt: run.startedAt.toISOString(), finishedAt: run.finishedAt.toISOString() });
  await db
    .insertInto('refresh_state')
    .values({ name, holder: null, lease_until: null, last_run: lastRun, updated_at: at })
    .onConflict((oc) => oc.column('name').doUpdateSet({ last_run: lastRun, updated_at: at }))
    .execute();
}

export async function readRefreshState(db: Kysely<BrandTables>, name: string): Promise<RefreshState> {
  const row = await db.selectFrom('refresh_state').selectAll().where('name', '=', name).executeTakeFirst();
  if (row === undefined) return { holder: null, leaseUntil: null, lastRun: null };
  const parsed = row.last_run === null ? null : (JSON.parse(row.last_run) as Omit<RefreshRun, 'startedAt' | 'finishedAt'> & { startedAt: string; finishedAt: string });
  return {
    holder: row.holder,
    leaseUntil: row.lease_until === null ? null : new Date(toSafeInteger(row.lease_until)),
    lastRun: parsed === null ? null : { ...parsed, startedAt: new Date(parsed.startedAt), finishedAt: new Date(parsed.finishedAt) },
  };
}
