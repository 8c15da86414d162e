/**
 * The refresh scheduler (src/brands/refresh-scheduler.ts, docs/refresh.md) on a real SQLite store and its real
 * jobs-table queue, time simulated through the clock: order, spreading (per tick, at most so many active, never past
 * the queue bound), one leader through the store lease, take-over after a leader stops or dies, resumption after a
 * restart from the store alone, and failed sites waiting for the failure memory.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RefreshScheduler, type RefreshSettings } from '../../src/brands/refresh-scheduler.js';
import { JOB_NAMES, type CrawlBrandPayload } from '../../src/jobs/queue.js';
import { SqlJobQueue } from '../../src/jobs/sql/sql-job-queue.js';
import { silentLogger } from '../../src/platform/logger.js';
import type { ProductStores } from '../../src/main/product-stores.js';
import { until } from '../helpers/until.js';
import { sampleBrand } from '../store/sample-brand.js';
import { tempSqlite, type TempDatabase } from '../store/temp-database.js';

const DAY = 86_400_000;
const START = new Date('2026-11-28T00:00:00Z');
const SETTINGS: RefreshSettings = { maxAgeMs: 30 * DAY, intervalMs: 60_000, perTick: 3, maxActive: 5, maxDepth: 100, failurePauseMs: 6 * 3_600_000 };

let db: TempDatabase;
let queue: SqlJobQueue;
let clock: Date;
const now = () => clock;

beforeEach(async () => {
  db = await tempSqlite();
  await db.migrate();
  queue = new SqlJobQueue(db.database);
  clock = START;
});
afterEach(async () => db.cleanup());

function scheduler(overrides: Partial<RefreshSettings> = {}, holder?: string, store: ProductStores['brands'] = db.stores.brands, wakes?: { count: number }): RefreshScheduler {
  return new RefreshScheduler(
    { store, queue: new SqlJobQueue(db.database), logger: silentLogger(), now, ...(holder ? { holder } : {}), notify: () => void (wakes && wakes.count++) },
    { ...SETTINGS, ...overrides },
  );
}

async function hold(domain: string, daysAgo: number, store: ProductStores['brands'] = db.stores.brands): Promise<string> {
  const crawledAt = new Date(clock.getTime() - daysAgo * DAY);
  const brand = sampleBrand(domain);
  await store.saveBrand({ brand, status: 'indexed', crawledAt, createdAt: crawledAt, updatedAt: crawledAt }, [{ kind: 'domain', value: domain }]);
  return brand.id;
}

/** A paid organization's webhook subscribed to `domain` (what puts a brand first in line). */
async function subscribe(domain: string): Promise<void> {
  const orgId = 'org_watcher';
  await db.stores.billing.createOrganization({ id: orgId, name: 'Watcher', plan: 'paid', quota: 10, createdAt: clock });
  const id = 'whk_watcher';
  await db.stores.webhooks.insertWebhook({
    id, orgId, name: 'receiver', url: 'https://hooks.example.com/', events: ['brand.rebranded'], enabled: true, disabledReason: null, hasAuthorization: false,
    createdAt: clock, updatedAt: clock, lastAcceptedAt: null, secretSealed: 'v1.s', authorizationSealed: null, previousSecretSealed: null, previousSecretExpiresAt: null,
  });
  await db.stores.webhooks.addWebhookSubscriptions(orgId, id, [domain], clock);
}

/** Claims every due crawl job (as workers would) and returns their payloads, in claim order. */
async function claimAll(): Promise<{ id: string; payload: CrawlBrandPayload; owner: string | null }[]> {
  const jobs = [];
  for (;;) {
    // Jobs are due from the real time they were queued at: claimed as of the real time too.
    const job = await queue.claim([JOB_NAMES.crawlBrand], 600_000);
    if (!job) return jobs;
    jobs.push({ id: job.id, payload: job.payload as CrawlBrandPayload, owner: job.owner });
  }
}

/** What a worker does with a refresh job: the brand is crawled again (saved with a new crawl time), the job done. */
async function crawlAndComplete(jobs: { id: string; payload: CrawlBrandPayload }[]): Promise<void> {
  for (const job of jobs) {
    await hold(job.payload.domain, 0);
    await queue.complete(job.id);
  }
}

describe('RefreshScheduler', () => {
  it('queues stale brands as refresh crawls in order: subscribed, most looked up, oldest; fresh ones never', async () => {
    await hold('old.test', 90);
    await hold('older.test', 120);
    const popular = await hold('popular.test', 31);
    await hold('fresh.test', 29);
    await hold('watched.test', 32);
    await db.stores.brands.addBrandLookups([{ brandId: popular, lookups: 40, lastLookupAt: clock }]);
    await subscribe('watched.test');
    const wakes = { count: 0 };
    const tick = await scheduler({ perTick: 10 }, undefined, db.stores.brands, wakes).tick();
    expect(tick.leader).toBe(true);
    expect(tick.queuedBrands.map((b) => b.domain)).toEqual(['watched.test', 'popular.test', 'older.test', 'old.test']);
    expect(tick.run).toMatchObject({ queued: 4, deferred: 0 });
    expect(wakes.count).toBe(1);
    // The tick's order is asserted above; jobs queued within one millisecond are claimed in any order (the queue
    // breaks run_at ties by job id), so the claims are compared as a set.
    const jobs = await claimAll();
    const byDomain = (a: [CrawlBrandPayload, string | null], b: [CrawlBrandPayload, string | null]) => a[0].domain.localeCompare(b[0].domain);
    expect(jobs.map((j): [CrawlBrandPayload, string | null] => [j.payload, j.owner]).sort(byDomain)).toEqual([
      [{ domain: 'old.test', refresh: true }, null],
      [{ domain: 'older.test', refresh: true }, null],
      [{ domain: 'popular.test', refresh: true }, null],
      [{ domain: 'watched.test', refresh: true }, null],
    ]);
  });

  it('spreads a large stale store: at most perTick per tick and maxActive at once, the rest on later ticks', async () => {
    for (let i = 0; i < 12; i++) await hold(`brand-${String(i).padStart(2, '0')}.test`, 100 + i);
    const s = scheduler();
    const first = await s.tick();
    expect(first.run).toMatchObject({ queued: 3, deferred: 9 });
    const second = await s.tick();
    // 3 already queued: room for 2 more under maxActive 5.
    expect(second.run).toMatchObject({ queued: 2, deferred: 7 });
    expect((await s.tick()).run).toMatchObject({ queued: 0, deferred: 7 });
    expect(await queue.depth()).toBe(5);
    // Workers crawl them: the next ticks go on with the rest, oldest first, never a domain twice.
    const seen: string[] = [];
    for (let round = 0; round < 5; round++) {
      const jobs = await claimAll();
      seen.push(...jobs.map((j) => j.payload.domain));
      await crawlAndComplete(jobs);
      clock = new Date(clock.getTime() + SETTINGS.intervalMs);
      await s.tick();
    }
    expect(seen).toHaveLength(12);
    expect(new Set(seen).size).toBe(12);
    // The first tick queued the three oldest (claimed in any order within one millisecond, see above).
    expect(first.queuedBrands.map((b) => b.domain)).toEqual(['brand-11.test', 'brand-10.test', 'brand-09.test']);
    expect(seen.slice(0, 3).sort()).toEqual(['brand-09.test', 'brand-10.test', 'brand-11.test']);
    expect((await s.status()).stale).toBe(0);
  });

  it('never fills the queue: live crawls keep the room above maxDepth', async () => {
    for (let i = 0; i < 5; i++) await hold(`stale-${i}.test`, 60);
    for (let i = 0; i < 8; i++) await queue.enqueue(JOB_NAMES.crawlBrand, `prefetch-${i}.test`, { domain: `prefetch-${i}.test`, refresh: false }, { owner: 'org_a' });
    const s = scheduler({ maxDepth: 10, perTick: 5 });
    const tick = await s.tick();
    expect(tick.run?.queued).toBe(2);
    expect(await queue.depth()).toBe(10);
    expect((await s.tick()).run).toMatchObject({ queued: 0, deferred: 3 });
  });

  it('lets one process lead at a time; another takes over when the leader stops, or when its lease runs out', async () => {
    for (let i = 0; i < 30; i++) await hold(`lead-${i}.test`, 45);
    const peer = await db.openPeer();
    const a = scheduler({}, 'process-a');
    const b = scheduler({}, 'process-b', peer.stores.brands);
    const [ta, tb] = await Promise.all([a.tick(), b.tick()]);
    expect([ta.leader, tb.leader].filter(Boolean)).toHaveLength(1);
    const [leader, follower] = ta.leader ? [a, b] : [b, a];
    expect((await follower.tick()).leader).toBe(false);
    expect((await leader.tick()).leader).toBe(true);
    // A graceful stop gives the lease up: the other leads at its next tick.
    await leader.stop();
    expect((await follower.tick()).leader).toBe(true);
    // The new leader dies without a word: nobody leads until its lease has expired, then the next one does.
    const third = scheduler({}, 'process-c');
    expect((await third.tick()).leader).toBe(false);
    clock = new Date(clock.getTime() + follower.leaseMs - 1);
    expect((await third.tick()).leader).toBe(false);
    clock = new Date(clock.getTime() + 2);
    const takeover = await third.tick();
    expect(takeover.leader).toBe(true);
    expect((await db.stores.brands.refreshState('refresh')).holder).toBe('process-c');
  });

  it('resumes after a restart from what the store holds: queued crawls are not queued again, the last run is kept', async () => {
    for (let i = 0; i < 6; i++) await hold(`resume-${i}.test`, 50 + i);
    const before = scheduler({ perTick: 4, maxActive: 100 }, 'before-restart');
    const first = await before.tick();
    expect(first.queuedBrands).toHaveLength(4);
    // The process is killed: no stop, no release. A new process (new holder, its own connection) starts.
    const reopened = await db.openPeer();
    const after = scheduler({ perTick: 4, maxActive: 100 }, 'after-restart', reopened.stores.brands);
    const status = await after.status();
    expect(status).toMatchObject({ stale: 6, queued: 4, running: 0, state: { holder: 'before-restart', lastRun: { queued: 4, deferred: 2, by: 'before-restart' } } });
    expect(status.next.map((b) => b.domain)).toEqual(['resume-1.test', 'resume-0.test']);
    expect((await after.tick()).leader).toBe(false);
    clock = new Date(clock.getTime() + before.leaseMs + 1);
    const resumed = await after.tick();
    expect(resumed.queuedBrands.map((b) => b.domain)).toEqual(['resume-1.test', 'resume-0.test']);
    expect(await queue.depth()).toBe(6);
  });

  it('leaves a site whose crawl failed recently for later, and runs now from the CLI without the lease', async () => {
    await hold('down.test', 40);
    await hold('up.test', 35);
    await db.stores.brands.recordCrawlFailure({ domain: 'down.test', reason: 'unreachable', message: 'The brand website could not be reached.', failedAt: new Date(clock.getTime() - 3_600_000) });
    const leader = scheduler({}, 'leader');
    await leader.tick();
    expect((await claimAll()).map((j) => j.payload.domain)).toEqual(['up.test']);
    // The operator runs it by hand while a leader holds the lease: same order and rules, recorded as `cli`.
    clock = new Date(clock.getTime() + 7 * 3_600_000);
    const manual = await scheduler().runNow('cli', 10);
    expect(manual.queuedBrands.map((b) => b.domain)).toEqual(['down.test']);
    expect((await db.stores.brands.refreshState('refresh')).lastRun).toMatchObject({ by: 'cli', queued: 1 });
    expect((await db.stores.brands.refreshState('refresh')).holder).toBe('leader');
  });

  it('ticks on its own once started (a worker process), and a stop gives the lease up', async () => {
    await hold('timer.test', 40);
    const s = scheduler({}, 'worker-process');
    s.start();
    await until(async () => (await queue.depth()) === 1, 'the first tick');
    expect((await db.stores.brands.refreshState('refresh')).holder).toBe('worker-process');
    await s.stop();
    expect((await db.stores.brands.refreshState('refresh')).holder).toBeNull();
  });
});
