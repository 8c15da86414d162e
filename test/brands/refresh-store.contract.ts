/**
 * The refresh part of the brand store's contract (RefreshStore, brands/store/refresh-rows.ts, migration 0014, ADR 0030), run on every
 * backend against a real database: popularity counts added in batches, mark signatures (first one stays), the
 * analysis cache per domain with least-recently-used eviction, the scheduler's due brands in refresh order, its
 * counts, the leader lease (one winner, expiry, release) and the last run.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqlJobQueue } from '../../src/jobs/sql/sql-job-queue.js';
import { JOB_NAMES } from '../../src/jobs/queue.js';
import type { Database } from '../helpers/all-tables.js';
import type { TestDialect } from '../store/temp-database.js';
import type { Database as KernelDatabase } from '../../src/db/database.js';
import type { SearchIndexStore } from '../../src/search/search-store.js';
import type { BillingStore } from '../../src/billing/billing-store.js';
import type { BrandStore, RefreshStore } from '../../src/brands/brand-store.js';
import type { WebhookAdminStore } from '../../src/webhooks/webhook-store.js';
import { openProductStores, PRODUCT_MIGRATIONS } from '../../src/main/product-stores.js';
import { migrateToLatest } from '../../src/db/migrations.js';
import { sampleBrand } from '../store/sample-brand.js';

const T0 = new Date('2026-03-04T05:06:07.890Z');
const at = (ms: number): Date => new Date(T0.getTime() + ms);
const DAY = 86_400_000;

interface Opened {
  /** For the other products this contract's rows meet: organizations, webhooks (`stores.webhooks`), the search's popularity read. */
  migrate(): Promise<void>;
  stores: { brands: BrandStore & RefreshStore; search: SearchIndexStore; webhooks: WebhookAdminStore; billing: BillingStore };
  database: KernelDatabase;
  db: Kysely<Database>;
  dialect: TestDialect;
  openPeer(): Promise<{ database: KernelDatabase }>;
  cleanup(): Promise<void>;
}

export function refreshStoreContract(name: string, open: () => Promise<Opened>): void {
  describe(`brand store contract, refresh: ${name}`, () => {
    let opened: Opened;
    let brands: BrandStore & RefreshStore;
    let queue: SqlJobQueue;

    beforeAll(async () => {
      opened = await open();
      brands = opened.stores.brands;
      await migrateToLatest(opened.database, PRODUCT_MIGRATIONS);
      queue = new SqlJobQueue(opened.database);
    });
    afterAll(async () => {
      await opened.cleanup();
    });

    const unique = (label: string) => `${label}-${randomBytes(5).toString('hex')}.test`;

    async function held(domain: string, crawledAt: Date): Promise<string> {
      const brand = sampleBrand(domain);
      await brands.saveBrand({ brand, status: 'indexed', crawledAt, createdAt: crawledAt, updatedAt: crawledAt }, [{ kind: 'domain', value: domain }]);
      return brand.id;
    }

    describe('popularity', () => {
      it('adds counted lookups per brand, keeps the latest lookup time, and search reads the same counts', async () => {
        const [a, b] = [await held(unique('pop-a'), T0), await held(unique('pop-b'), T0)];
        expect(await brands.brandLookups(a)).toBe(0);
        await brands.addBrandLookups([{ brandId: a, lookups: 3, lastLookupAt: at(5_000) }, { brandId: b, lookups: 1, lastLookupAt: at(1) }]);
        await brands.addBrandLookups([{ brandId: a, lookups: 4, lastLookupAt: at(2_000) }]);
        expect(await brands.brandLookups(a)).toBe(7);
        expect(await brands.brandLookups(b)).toBe(1);
        expect(await opened.stores.search.searchLookups([a, b, 'brand_unknown'])).toEqual(new Map([[a, 7], [b, 1]]));
      });

      it('writes a batch larger than one statement takes (chunked)', async () => {
        const counts = Array.from({ length: 1_201 }, (_, i) => ({ brandId: `brand_bulk_${name.length}_${i}`, lookups: i + 1, lastLookupAt: at(i) }));
        await brands.addBrandLookups(counts);
        expect(await brands.brandLookups('brand_bulk_' + name.length + '_1200')).toBe(1_201);
        expect(await brands.brandLookups('brand_bulk_' + name.length + '_0')).toBe(1);
      });
    });

    describe('mark signatures', () => {
      it('round-trips signatures by content key; the first one written for a key stays', async () => {
        const [k1, k2, k3] = [0, 1, 2].map(() => `${randomBytes(32).toString('hex')}.png`) as [string, string, string];
        await brands.saveMarkSignatures(new Map([[k1, { dhash: '00ff00ff00ff00ff', aspect: 3.25 }], [k2, { dhash: 'ffffffffffffffff', aspect: null }]]), T0);
        await brands.saveMarkSignatures(new Map([[k1, { dhash: '0000000000000000', aspect: 1 }]]), at(1));
        const found = await brands.markSignatures([k1, k2, k3, k1]);
        expect(found).toEqual(new Map([[k1, { dhash: '00ff00ff00ff00ff', aspect: 3.25 }], [k2, { dhash: 'ffffffffffffffff', aspect: null }]]));
      });

      it('reads and writes more keys than one statement binds', async () => {
        const marks = new Map(Array.from({ length: 1_100 }, (_, i) => [`${randomBytes(32).toString('hex')}.svg`, { dhash: i.toString(16).padStart(16, '0'), aspect: 1 }] as const));
        await brands.saveMarkSignatures(marks, T0);
        expect((await brands.markSignatures([...marks.keys()])).size).toBe(1_100);
      });
    });

    describe('analysis cache', () => {
      it('returns nothing for a domain never crawled, then what its last crawl used, replacing older entries', async () => {
        const domain = unique('cache');
        expect(await brands.loadAnalyses(domain, T0)).toEqual([]);
        const text = JSON.stringify({ colors: ['#ff5a1f'], note: 'Ünïcödé "quoted" ✓' });
        await brands.saveAnalyses(domain, [{ key: 'ingest:v1:aa', analysis: text }, { key: 'kind:v1:bb', analysis: 'null' }, { key: 'ingest:v1:aa', analysis: text }], T0, 1_000_000);
        expect(sortByKey(await brands.loadAnalyses(domain, at(1)))).toEqual([{ key: 'ingest:v1:aa', analysis: text }, { key: 'kind:v1:bb', analysis: 'null' }]);
        // The next crawl no longer met bb: its entry goes.
        await brands.saveAnalyses(domain, [{ key: 'ingest:v1:aa', analysis: text }, { key: 'ingest:v1:cc', analysis: '{}' }], at(2), 1_000_000);
        expect(sortByKey(await brands.loadAnalyses(domain, at(3))).map((e) => e.key)).toEqual(['ingest:v1:aa', 'ingest:v1:cc']);
        // Another domain with the same content key keeps its own entry.
        const other = unique('cache-other');
        await brands.saveAnalyses(other, [{ key: 'ingest:v1:aa', analysis: '{"other":true}' }], at(4), 1_000_000);
        expect(await brands.loadAnalyses(other, at(5))).toEqual([{ key: 'ingest:v1:aa', analysis: '{"other":true}' }]);
        expect(sortByKey(await brands.loadAnalyses(domain, at(6))).map((e) => e.key)).toEqual(['ingest:v1:aa', 'ingest:v1:cc']);
      });

      it('evicts the least recently used rows beyond the bound; a load counts as a use', async () => {
        const [old, read, fresh] = [unique('lru-old'), unique('lru-read'), unique('lru-new')];
        const entries = (n: number) => Array.from({ length: n }, (_, i) => ({ key: `ingest:v1:${i}`, analysis: '{}' }));
        const t = 10 * DAY;
        // A bound of 3 leaves old's 3 rows alone: every row used earlier (other tests') goes.
        await brands.saveAnalyses(old, entries(3), at(t + 1), 3);
        expect(await brands.analysisCacheSize()).toBe(3);
        await brands.saveAnalyses(read, entries(3), at(t + 2), 6);
        expect(await brands.loadAnalyses(read, at(t + 3))).toHaveLength(3);
        // 3 + 3 + 4 rows with room for 7: the 3 least recently used (old's) go; read's were used later.
        await brands.saveAnalyses(fresh, entries(4), at(t + 4), 7);
        expect(await brands.analysisCacheSize()).toBe(7);
        expect(await brands.loadAnalyses(old, at(t + 5))).toEqual([]);
        expect(await brands.loadAnalyses(read, at(t + 6))).toHaveLength(3);
        expect(await brands.loadAnalyses(fresh, at(t + 7))).toHaveLength(4);
      });
    });

    describe('scheduler rows', () => {
      // Far in the future of every other test's brands: only this block's brands are stale before `now`.
      const now = new Date('2100-01-01T00:00:00Z');
      const staleBefore = new Date(now.getTime() - 30 * DAY);
      const crawled = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY);

      it('lists stale held brands: subscribed first, then most looked up, then oldest; fresh, removed and queued ones not', async () => {
        const prefix = unique('due');
        const d = (label: string) => `${label}.${prefix}`;
        const ids = {
          oldest: await held(d('oldest'), crawled(400)),
          older: await held(d('older'), crawled(300)),
          popular: await held(d('popular'), crawled(40)),
          subscribed: await held(d('subscribed'), crawled(31)),
          fresh: await held(d('fresh'), crawled(5)),
          removed: await held(d('removed'), crawled(500)),
          queued: await held(d('queued'), crawled(600)),
          running: await held(d('running'), crawled(600)),
          done: await held(d('done'), crawled(200)),
        };
        await brands.setBrandStatus(ids.removed, 'removed', now);
        await brands.addBrandLookups([{ brandId: ids.popular, lookups: 50, lastLookupAt: now }, { brandId: ids.older, lookups: 2, lastLookupAt: now }]);
        const orgId = `org_${randomBytes(8).toString('hex')}`;
        await opened.stores.billing.createOrganization({ id: orgId, name: 'Hooks', plan: 'paid', quota: 10, createdAt: T0 });
        await opened.stores.webhooks.insertWebhook({
          id: `whk_${randomBytes(8).toString('hex')}`, orgId, name: 'r', url: 'https://hooks.example.com/', events: ['brand.rebranded'], enabled: true, disabledReason: null,
          hasAuthorization: false, createdAt: T0, updatedAt: T0, lastAcceptedAt: null, secretSealed: 'v1.s', authorizationSealed: null, previousSecretSealed: null, previousSecretExpiresAt: null,
        });
        const [webhook] = await opened.stores.webhooks.listWebhooks(orgId, null, 1);
        await opened.stores.webhooks.addWebhookSubscriptions(orgId, webhook?.id ?? '', [d('subscribed')], T0);
        // Crawls other tests of this store left queued are finished first: the claims below must take this test's own.
        for (let left = await queue.claim([JOB_NAMES.crawlBrand], 60_000); left; left = await queue.claim([JOB_NAMES.crawlBrand], 60_000)) await queue.complete(left.id);
        // One crawl running, one finished (a finished crawl does not hold a brand back), one still queued.
        await queue.enqueue(JOB_NAMES.crawlBrand, d('running'), { domain: d('running'), refresh: true });
        expect((await queue.claim([JOB_NAMES.crawlBrand], 60_000))?.key).toBe(d('running'));
        await queue.enqueue(JOB_NAMES.crawlBrand, d('done'), { domain: d('done'), refresh: true });
        const done = await queue.claim([JOB_NAMES.crawlBrand], 60_000);
        expect(done?.key).toBe(d('done'));
        await queue.complete(done?.id ?? '');
        await queue.enqueue(JOB_NAMES.crawlBrand, d('queued'), { domain: d('queued'), refresh: true });

        const due = (await brands.dueBrands(staleBefore, 1_000)).filter((b) => b.domain.endsWith(prefix));
        expect(due.map((b) => b.domain)).toEqual(['subscribed', 'popular', 'older', 'oldest', 'done'].map(d));
        expect(due[0]).toMatchObject({ brandId: ids.subscribed, subscribed: true, lookups: 0, crawledAt: crawled(31) });
        expect(due[1]).toMatchObject({ brandId: ids.popular, subscribed: false, lookups: 50 });
        expect((await brands.dueBrands(staleBefore, 2)).length).toBe(2);
        expect(await brands.dueBrands(staleBefore, 0)).toEqual([]);
      });

      it('waits for a recent crawl failure of the domain; an older one does not hold it back', async () => {
        const [failed, failedLongAgo] = [unique('failed'), unique('failed-long-ago')];
        await held(failed, crawled(1_000));
        await held(failedLongAgo, crawled(1_000));
        await brands.recordCrawlFailure({ domain: failed, reason: 'unreachable', message: 'down', failedAt: new Date(now.getTime() - 3_600_000) });
        await brands.recordCrawlFailure({ domain: failedLongAgo, reason: 'unreachable', message: 'down', failedAt: new Date(now.getTime() - 2 * DAY) });
        const domains = async (since?: Date) => (await brands.dueBrands(staleBefore, 1_000, since)).map((b) => b.domain);
        const since = new Date(now.getTime() - 6 * 3_600_000);
        expect(await domains(since)).toContain(failedLongAgo);
        expect(await domains(since)).not.toContain(failed);
        expect(await domains()).toContain(failed);
      });

      it('counts stale held brands and the refresh crawls queued and running (not other crawls)', async () => {
        const farFuture = new Date('2200-01-01T00:00:00Z');
        const before = await brands.refreshCounts(farFuture);
        const domain = unique('counted');
        await held(domain, crawled(100));
        await queue.enqueue(JOB_NAMES.crawlBrand, domain, { domain, refresh: true });
        const lookupCrawl = unique('lookup-crawl');
        await queue.enqueue(JOB_NAMES.crawlBrand, lookupCrawl, { domain: lookupCrawl, refresh: false });
        const after = await brands.refreshCounts(farFuture);
        expect(after.stale).toBe(before.stale + 1);
        expect(after.queued + after.running).toBe(before.queued + before.running + 1);
      });

      it('gives the lease to one holder at a time: renewal, expiry, release, and one winner between connections', async () => {
        const schedule = `refresh-${randomBytes(4).toString('hex')}`;
        expect(await brands.refreshState(schedule)).toEqual({ holder: null, leaseUntil: null, lastRun: null });
        expect(await brands.acquireRefreshLease(schedule, 'a', 1_000, T0)).toEqual({ holder: 'a', until: at(1_000) });
        expect(await brands.acquireRefreshLease(schedule, 'b', 1_000, at(500))).toBeNull();
        expect(await brands.acquireRefreshLease(schedule, 'a', 1_000, at(900))).toEqual({ holder: 'a', until: at(1_900) });
        expect(await brands.acquireRefreshLease(schedule, 'b', 1_000, at(1_899))).toBeNull();
        // a stopped renewing: b takes over once the lease has expired.
        expect(await brands.acquireRefreshLease(schedule, 'b', 1_000, at(1_901))).toEqual({ holder: 'b', until: at(2_901) });
        await brands.releaseRefreshLease(schedule, 'a', at(2_000));
        expect((await brands.refreshState(schedule)).holder).toBe('b');
        await brands.releaseRefreshLease(schedule, 'b', at(2_000));
        expect(await brands.refreshState(schedule)).toMatchObject({ holder: null, leaseUntil: null });
        expect(await brands.acquireRefreshLease(schedule, 'c', 1_000, at(2_001))).toEqual({ holder: 'c', until: at(3_001) });

        const race = `refresh-${randomBytes(4).toString('hex')}`;
        const peer = openProductStores((await opened.openPeer()).database).brands;
        const results = await Promise.all([
          ...Array.from({ length: 4 }, (_, i) => brands.acquireRefreshLease(race, `here-${i}`, 60_000, T0)),
          ...Array.from({ length: 4 }, (_, i) => peer.acquireRefreshLease(race, `peer-${i}`, 60_000, T0)),
        ]);
        const winners = results.filter((r) => r !== null);
        expect(winners).toHaveLength(1);
        expect((await brands.refreshState(race)).holder).toBe(winners[0]?.holder);
      });

      it('keeps the last run next to the lease', async () => {
        const schedule = `refresh-${randomBytes(4).toString('hex')}`;
        await brands.acquireRefreshLease(schedule, 'leader', 60_000, T0);
        const run = { startedAt: at(10), finishedAt: at(25), queued: 7, deferred: 1_234, by: 'leader' };
        await brands.recordRefreshRun(schedule, run);
        expect(await brands.refreshState(schedule)).toEqual({ holder: 'leader', leaseUntil: at(60_000), lastRun: run });
        const other = `refresh-${randomBytes(4).toString('hex')}`;
        await brands.recordRefreshRun(other, { ...run, by: 'cli' });
        expect(await brands.refreshState(other)).toEqual({ holder: null, leaseUntil: null, lastRun: { ...run, by: 'cli' } });
      });
    });
  });
}

function sortByKey<T extends { key: string }>(entries: T[]): T[] {
  return [...entries].sort((a, b) => a.key.localeCompare(b.key));
}
