/**
 * Issue 22, item 1: a fleet on one PostgreSQL answers as one embedded process does. Two `brandbase serve
 * --no-worker` and two `brandbase worker` processes, each its own OS process, on one schema:
 * - lookups (live crawls in the API processes), batches and HEAD prefetches (queued crawls) go through both APIs;
 * - one worker is killed with SIGKILL while both workers hold crawls; its jobs' leases pass and the other worker
 *   finishes them: every queued crawl completes, none twice at once, none lost;
 * - every brand reads the same, byte for byte, through either API process;
 * - an organization with a quota of 500 and no overage, hammered by 400 concurrent lookups on each API process,
 *   gets exactly 500 answered and `usage.used` = 500 through both.
 * Waits poll the real state with generous deadlines; nothing asserts how long anything took.
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort, runJson, startServer, type ServerProcess } from '../helpers/brandbase-process.js';
import { sharedPostgres, type SharedDatabase } from '../helpers/shared-database.js';
import { eventually, until } from '../helpers/until.js';
import { PROCESS_HOOK_TIMEOUT_MS } from '../helpers/process-timeouts.js';
import { PG_URL } from '../store/temp-database.js';
import { startFleetSites, type FleetSites } from './fleet-sites.js';
import { needsPostgres } from '../helpers/optional.js';

const LIVE = Array.from({ length: 4 }, (_, i) => `fleet-live-${i}.test`);
const PREFETCHED = Array.from({ length: 6 }, (_, i) => `fleet-head-${i}.test`);
const BATCHED = Array.from({ length: 6 }, (_, i) => `fleet-batch-${i}.test`);
const QUEUED = [...PREFETCHED, ...BATCHED];
/** Crawl jobs one worker runs at once; both busy means 2 × this many running jobs. */
const CONCURRENCY = 2;
const QUOTA = 500;
const HAMMER = 400;
/** Home pages answer after this long: a crawl lasts seconds, so a worker is caught mid-crawl. */
const HOME_DELAY_MS = 2500;
/** Past a dead worker's lease its jobs are claimable again; longer than crawl budget + kill grace (config refuses less). */
const LEASE_MS = 26_000;
/** Hang guard for the fleet to finish every crawl after the kill (a lease plus a few crawls on a loaded machine). */
const FINISH_DEADLINE_MS = 180_000;

interface JobRow {
  state: string;
  attempts: number;
}

// One story told in steps, on one fleet of four processes (starting a fleet per test would multiply the heaviest
// setup of the suite on a 2-core machine): queue and survive a killed worker, compare the two APIs' answers of what
// was crawled, hammer the quota, stop what is left. The steps run in this order even in a shuffled run (shuffle:
// false); every other file's tests are independent of order.
needsPostgres.describe('a fleet of two API processes and two workers on one PostgreSQL', { shuffle: false }, () => {
  let database: SharedDatabase;
  let sites: FleetSites;
  let client: pg.Client;
  let env: Record<string, string>;
  let apis: ServerProcess[] = [];
  let workers: ServerProcess[] = [];
  let readerKey: string;

  const get = (api: ServerProcess, path: string, key: string, init: RequestInit = {}): Promise<Response> =>
    fetch(`${api.baseUrl}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, ...(init.headers as Record<string, string> | undefined) } });

  const crawlJobs = async (): Promise<JobRow[]> => (await client.query<JobRow>("select state, attempts from jobs where name = 'crawl.brand'")).rows;

  /** A worker has no API port: its metrics listener answers /healthz, which startServer waits for. */
  const startWorker = async (): Promise<ServerProcess> => {
    const port = String(await freePort());
    return startServer({ ...env, PORT: port, BRANDBASE_METRICS_PORT: port }, ['worker']);
  };

  beforeAll(async () => {
    database = await sharedPostgres(PG_URL ?? '');
    sites = await startFleetSites(HOME_DELAY_MS);
    const peer = database.peerSpec;
    if (peer.kind !== 'postgres') throw new Error('the fleet runs on PostgreSQL');
    client = new pg.Client({ connectionString: peer.url, options: `-c search_path=${peer.schema}` });
    await client.connect();
    env = {
      ...database.env,
      BRANDBASE_CRAWL_HOSTS: JSON.stringify(sites.hostMap([...LIVE, ...QUEUED])),
      BRANDBASE_WORKER_CONCURRENCY: String(CONCURRENCY),
      BRANDBASE_CRAWL_WORKERS: String(CONCURRENCY),
      BRANDBASE_CRAWL_TIMEOUT_MS: '20000',
      BRANDBASE_CRAWL_KILL_GRACE_MS: '2000',
      BRANDBASE_JOB_LEASE_MS: String(LEASE_MS),
      BRANDBASE_CACHE_SYNC_MS: '200',
      // One public address for the whole fleet (the load balancer's): asset URLs in records are rendered from it.
      BRANDBASE_PUBLIC_URL: 'http://brandbase.test',
      BRANDBASE_PALETTE_RENDER: 'off',
      BRANDBASE_REFRESH: 'off',
      BRANDBASE_LOG_LEVEL: 'info',
    };
    const reader = await runJson(['orgs', 'create', '--name', 'Reader', '--plan', 'paid', '--quota', '1000000'], env);
    readerKey = String((await runJson(['keys', 'create', '--org', String(reader.id)], env)).key);
    const started = await Promise.all([startServer(env, ['serve', '--no-worker']), startServer(env, ['serve', '--no-worker']), startWorker(), startWorker()]);
    apis = started.slice(0, 2);
    workers = started.slice(2);
    // Four processes starting at once on a loaded 2-core machine: a hang guard well past the usual one.
  }, 2 * PROCESS_HOOK_TIMEOUT_MS);

  afterAll(async () => {
    for (const p of [...apis, ...workers]) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await client?.end();
    await sites?.close();
    await database?.cleanup();
  });

  it('queues through both APIs, survives a worker killed mid-crawl, and completes every crawl once', async () => {
    const [a, b] = apis as [ServerProcess, ServerProcess];
    const heads = await Promise.all(PREFETCHED.map((domain, i) => get(i % 2 ? b : a, `/v2/brands/${domain}`, readerKey, { method: 'HEAD' })));
    expect(heads.map((r) => r.status)).toEqual(PREFETCHED.map(() => 202));
    const half = BATCHED.length / 2;
    const batches = await Promise.all(
      [BATCHED.slice(0, half), BATCHED.slice(half)].map(async (identifiers, i) => {
        const res = await get(i ? b : a, '/v2/brands/batch', readerKey, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ identifiers }) });
        expect(res.status).toBe(200);
        return ((await res.json()) as { results: { status: number }[] }).results.map((r) => r.status);
      }),
    );
    expect(batches.flat()).toEqual(BATCHED.map(() => 202));
    // Live lookups crawl in the API processes themselves while the workers crawl the queue.
    const lookups = LIVE.map((domain, i) => get(i % 2 ? b : a, `/v2/brands/${domain}`, readerKey));

    // Both workers hold CONCURRENCY crawls each: the one killed now is mid-crawl, its jobs leased to a dead process.
    const bothCrawling = async (): Promise<boolean> => (await crawlJobs()).filter((j) => j.state === 'running').length === 2 * CONCURRENCY && sites.pendingHomePages() > 0;
    await until(bothCrawling, 'both workers crawling', FINISH_DEADLINE_MS);
    const [victim, survivor] = workers as [ServerProcess, ServerProcess];
    victim.child.kill('SIGKILL');
    expect(await victim.exited).toBeNull();

    expect((await Promise.all(lookups)).map((r) => r.status)).toEqual(LIVE.map(() => 200));
    const jobs = await eventually(crawlJobs, (rows) => rows.length > 0 && rows.every((j) => j.state === 'done' || j.state === 'failed'), FINISH_DEADLINE_MS);
    // One job per queued domain, each completed; at least one was taken over after the dead worker's lease.
    expect(jobs.map((j) => j.state)).toEqual(QUEUED.map(() => 'done'));
    expect(jobs.filter((j) => j.attempts >= 2).length).toBeGreaterThanOrEqual(1);
    expect(survivor.child.exitCode).toBeNull();
    for (const domain of QUEUED) {
      for (const api of apis) expect((await get(api, `/v2/brands/${domain}`, readerKey, { method: 'HEAD' })).status).toBe(200);
    }
  });

  it('answers every brand identically through either API process', async () => {
    const [a, b] = apis as [ServerProcess, ServerProcess];
    for (const domain of [...LIVE, ...QUEUED]) {
      const read = async (api: ServerProcess): Promise<string> => {
        const res = await get(api, `/v2/brands/${domain}`, readerKey);
        expect(res.status).toBe(200);
        return res.text();
      };
      // Every write is done; a cache may still hold a record replaced by a re-crawl until its next write-log poll
      // (BRANDBASE_CACHE_SYNC_MS, ADR 0017), so the two answers are compared until that bound has passed.
      const [left, right] = await eventually(() => Promise.all([read(a), read(b)]), ([x, y]) => x === y, 10_000);
      expect(left).toBe(right);
      expect((JSON.parse(left) as { domain: string }).domain).toBe(domain);
    }
  });

  it('serves exactly the quota of 500 to 400 concurrent lookups on each API process, and counts 500', async () => {
    const org = await runJson(['orgs', 'create', '--name', 'Hammered', '--plan', 'paid', '--quota', String(QUOTA)], env);
    const orgId = String(org.id);
    await runJson(['orgs', 'set-spending-limit', orgId, '0'], env);
    const key = String((await runJson(['keys', 'create', '--org', orgId], env)).key);
    const brand = `/v2/brands/${LIVE[0] ?? ''}`;
    // The brand is cached in both processes (read by the reader above): every hammering lookup is a cached one.
    for (const api of apis) expect((await get(api, brand, readerKey)).status).toBe(200);

    const answers = await Promise.all(
      apis.flatMap((api) =>
        Array.from({ length: HAMMER }, async () => {
          const res = await get(api, brand, key);
          return { status: res.status, error: res.headers.get('x-bf-error'), body: (await res.json()) as unknown };
        }),
      ),
    );
    const served = answers.filter((r) => r.status === 200);
    const refused = answers.filter((r) => r.status !== 200);
    expect(served.length).toBe(QUOTA);
    expect(refused.length).toBe(2 * HAMMER - QUOTA);
    for (const r of refused) expect(r).toEqual({ status: 429, error: 'quota_exceeded', body: { message: 'API key quota exceeded' } });
    for (const api of apis) {
      const viewer = await get(api, '/v2/viewer', key);
      expect(viewer.status).toBe(200);
      expect(((await viewer.json()) as { usage: { used: number; quota: number } }).usage).toMatchObject({ used: QUOTA, quota: QUOTA });
    }
  });

  it('stops every remaining process cleanly on SIGTERM', async () => {
    const alive = [...apis, ...workers].filter((p) => p.child.exitCode === null && p.child.signalCode === null);
    expect(alive.length).toBe(3);
    for (const p of alive) p.child.kill('SIGTERM');
    expect(await Promise.all(alive.map((p) => p.exited))).toEqual(alive.map(() => 0));
  });
});
