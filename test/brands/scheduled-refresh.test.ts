/**
 * Scheduled refresh end to end, wired as `brandbase serve` wires it (test-stack.ts; crawls in the service's own
 * thread): a brand looked up over HTTP is counted, ages past the refresh age, the leader's tick queues it, the
 * worker pool re-crawls it from the fixture site, and the re-crawl reuses the analysis of every file (the log line
 * of the save says so). Real SQLite store, jobs table, worker pool and fixture site on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkerPool } from '../../src/main/serve.js';
import { FIXTURE_HOSTS, startFixtureSites, type FixtureSites } from '../helpers/fixture-sites.js';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';
import { until } from '../helpers/until.js';

const DAY = 86_400_000;
let sites: FixtureSites;
let stack: TestStack;

beforeAll(async () => {
  sites = await startFixtureSites();
  stack = await startTestStack({ BRANDBASE_CRAWL_HOSTS: JSON.stringify(sites.hostMap), BRANDBASE_CRAWL_ISOLATION: 'off', BRANDBASE_PALETTE_RENDER: 'off' });
});
afterAll(async () => {
  await stack?.close();
  await sites?.close();
});

describe('scheduled refresh, as serve runs it', () => {
  it('a looked-up brand that went stale is queued by the leader, re-crawled by a worker, with every analysis reused', async () => {
    const { key } = await stack.newKey();
    const first = await stack.app.inject({ method: 'GET', url: `/v2/brands/${FIXTURE_HOSTS.northwind}`, headers: bearer(key) });
    expect(first.statusCode).toBe(200);
    await stack.app.inject({ method: 'GET', url: `/v2/brands/${FIXTURE_HOSTS.northwind}`, headers: bearer(key) });
    const store = stack.services.stores.brands;
    const held = await store.findBrandByIdentifier({ kind: 'domain', value: FIXTURE_HOSTS.northwind });
    if (!held) throw new Error('not held');
    await stack.services.popularity.flush();
    expect(await store.brandLookups(held.brand.id)).toBe(2);

    // Nothing is due while the record is fresh.
    expect((await stack.services.refresh.tick()).run?.queued).toBe(0);
    // The record ages past the refresh age (30 days by default): written back as crawled 40 days ago.
    const old = new Date(Date.now() - 40 * DAY);
    await store.saveBrand({ ...held, crawledAt: old, updatedAt: old }, [{ kind: 'domain', value: FIXTURE_HOSTS.northwind }]);

    const pool = createWorkerPool(stack.services);
    stack.services.onJobQueued(() => pool.notify());
    pool.start();
    try {
      const tick = await stack.services.refresh.tick();
      expect(tick.leader).toBe(true);
      expect(tick.queuedBrands).toMatchObject([{ domain: FIXTURE_HOSTS.northwind, lookups: 2, subscribed: false }]);
      await until(async () => ((await store.findBrandByIdentifier({ kind: 'domain', value: FIXTURE_HOSTS.northwind }))?.crawledAt ?? old) > old, 'the refresh crawl');
    } finally {
      await pool.stop(30_000);
    }
    const indexed = stack
      .logs()
      .split('\n')
      .filter((line) => line.includes('"brand indexed"'))
      .map((line) => JSON.parse(line) as { reused?: number; analysed?: number });
    expect(indexed).toHaveLength(2);
    expect(indexed[0]?.reused).toBe(0);
    expect(indexed[1]).toMatchObject({ reused: indexed[0]?.analysed, analysed: 0 });
    expect((await stack.services.refresh.status()).stale).toBe(0);
  });
});
