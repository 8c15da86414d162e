/**
 * The crawl pool (ADR 0014) on real worker processes and threads, crawling hostile and well-formed sites on
 * loopback. Each limit is shown to engage whatever the parser and decoder bounds let through: the limits here are
 * set small on purpose (a worker's memory just above what it holds idle, a 64 MB heap, a 10 s hard time limit).
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ASSET_KEY_PATTERN } from '../../src/assets/asset-store.js';
import { loadConfig } from '../../src/config/config.js';
import { openRenderer } from '../../src/crawl/fetch/render/browser-renderer.js';
import { IsolatedCrawler, type IsolatedCrawlerOptions } from '../../src/crawl/isolation/isolated-crawler.js';
import { crawlWorkerEntry } from '../../src/main/crawler.js';
import { createLogger } from '../../src/platform/logger.js';
import { SafeFetcher, USER_AGENT } from '../../src/platform/safe-fetcher.js';
import { FIXTURE_HOSTS, startFixtureSites } from '../helpers/fixture-sites.js';
import { crawlWorkerPids } from '../helpers/health-probe.js';
import { HOSTILE_HOSTS, startHostileSites, type HostileSites } from '../helpers/hostile-sites.js';
import { useProcessTimeouts } from '../helpers/process-timeouts.js';
import { until } from '../helpers/until.js';
import { CHROMIUM_PATH, needsChromium } from '../helpers/optional.js';

// Crawl worker processes and threads, hostile pages built in beforeAll: timeouts sized for a busy machine. Each
// worker process loads the crawler through tsx, 30–40 s at load 4 with the suite running; the memory case starts
// four of them (measured: 115 s next to four CPU burners, over 240 s within the whole suite).
useProcessTimeouts(600_000);

/**
 * The hard time limit in the time-limit cases. The slow site never finishes, so any limit trips on it; the limit
 * also applies to the ordinary crawl that follows, which must finish within it on a busy machine: hence not 1.5 s.
 * It stays under the crawl budget below (20 s), so it is the hard limit, not the budget, that ends the slow crawl.
 */
const HARD_LIMIT_MS = 10_000;

let sites: HostileSites;
let dir: string;
const pools: IsolatedCrawler[] = [];
let logLines: string[] = [];

beforeAll(async () => {
  sites = await startHostileSites();
  dir = await mkdtemp(path.join(tmpdir(), 'brandbase-pool-'));
});

afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

afterAll(async () => {
  await sites?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

function pool(options: Partial<IsolatedCrawlerOptions> = {}, hostMap = sites.hostMap, env: Record<string, string> = {}): IsolatedCrawler {
  logLines = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });
  const config = loadConfig({ BRANDBASE_DATA_DIR: dir, BRANDBASE_CRAWL_HOSTS: JSON.stringify(hostMap), BRANDBASE_CRAWL_TIMEOUT_MS: '20000', ...env });
  const created = new IsolatedCrawler({
    entry: crawlWorkerEntry(),
    config,
    assetsDir: path.join(dir, 'assets'),
    logger: createLogger({ level: 'info', destination: sink }),
    mode: 'process',
    workers: 1,
    memoryMb: 1024,
    heapMb: 1024,
    hardLimitMs: 30_000,
    ...options,
  });
  pools.push(created);
  return created;
}

function residentMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'latin1'))?.[1] ?? 0) / 1024;
}

describe('crawls in worker processes', () => {
  it('a crawl runs in a child process that writes the files; the draft holds their keys; renditions run there too', async () => {
    const crawler = pool();
    await crawler.warm();
    expect(crawlWorkerPids(process.pid)).toHaveLength(1);
    const outcome = await crawler.crawl(HOSTILE_HOSTS.benign);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const original = outcome.draft.logos[0]?.formats[0];
    expect(original?.src).toMatch(ASSET_KEY_PATTERN);
    expect(existsSync(path.join(dir, 'assets', original?.src ?? ''))).toBe(true);
    const completed = await crawler.renditions(outcome.draft.logos);
    const formats = completed?.[0]?.formats ?? [];
    expect(formats.map((f) => f.format)).toEqual(['svg', 'png', 'webp']);
    for (const format of formats) expect(existsSync(path.join(dir, 'assets', format.src))).toBe(true);
    expect(crawler.stats()).toMatchObject({ started: 1, timedOut: 0, overMemory: 0, died: 0 });
    await crawler.close();
    await until(() => crawlWorkerPids(process.pid).length === 0, 'the crawl worker exiting after close()');
  });

  it('crawls past the number of workers wait in line and all finish', async () => {
    const crawler = pool({ workers: 1 });
    const outcomes = await Promise.all([HOSTILE_HOSTS.benign, HOSTILE_HOSTS.formatting, HOSTILE_HOSTS.deep].map((host) => crawler.crawl(host)));
    expect(outcomes.map((o) => o.ok)).toEqual([true, true, true]);
    expect(crawler.stats().started).toBe(1);
  });

  it('crawls waiting for a worker take turns between owners: one organization\'s backlog does not hold another\'s', async () => {
    const benign = sites.hostMap[HOSTILE_HOSTS.benign] ?? '';
    const aliases = Object.fromEntries(['a1', 'a2', 'a3', 'b1', 'op'].map((name) => [`${name}.test`, benign]));
    const crawler = pool({ workers: 1 }, { ...sites.hostMap, ...aliases });
    const finished: string[] = [];
    const crawl = (domain: string, owner: string | null) => crawler.crawl(domain, owner).then(() => void finished.push(domain));
    await Promise.all([crawl('a1.test', 'org_a'), crawl('a2.test', 'org_a'), crawl('a3.test', 'org_a'), crawl('b1.test', 'org_b'), crawl('op.test', null)]);
    // One worker, so tasks finish in the order they were given the worker: org_a's first, then each other owner's.
    expect(finished).toEqual(['a1.test', 'b1.test', 'op.test', 'a2.test', 'a3.test']);
  });

  it('past its memory limit a worker is killed: the crawl fails with crawl_error, a fresh worker runs the next one', async () => {
    // What a worker needs for a small, well-formed site (its peak, VmHWM)...
    const probe = pool();
    expect((await probe.crawl(HOSTILE_HOSTS.benign)).ok).toBe(true);
    const neededMb = residentMb(crawlWorkerPids(process.pid)[0] ?? 0, 'VmHWM');
    await probe.close();
    expect(neededMb).toBeGreaterThan(0);
    // ...and a limit just above it: the flat 2 MB page needs more than that once the parser's element bound is
    // lifted (the isolation must hold for what the bounds do not catch; with the bounds on, it stays near the probe).
    const unbounded = { BRANDBASE_HTML_MAX_ELEMENTS: '10000000', BRANDBASE_HTML_MAX_DEPTH: '100000' };
    const crawler = pool({ memoryMb: Math.ceil(neededMb) + 12 }, sites.hostMap, unbounded);
    const outcome = await crawler.crawl(HOSTILE_HOSTS.flat);
    expect(outcome).toMatchObject({ ok: false, reason: 'crawl_error', message: expect.stringContaining('used more than') });
    expect(crawler.stats()).toMatchObject({ overMemory: 1 });
    expect(logLines.join('')).toContain('crawl worker stopped at the memory limit');
    // The next crawl runs in a fresh worker (whether it fits this tight limit is not the point here; the heap and
    // time limit cases below show a replacement crawling a site as usual).
    await crawler.crawl(HOSTILE_HOSTS.benign);
    expect(crawler.stats().started).toBe(2);
  });

  it("past its V8 heap limit a worker process dies: crawl_error, and the next crawl runs", async () => {
    const crawler = pool({ heapMb: 64 });
    const outcome = await crawler.crawl(HOSTILE_HOSTS.flat);
    expect(outcome).toMatchObject({ ok: false, reason: 'crawl_error', message: 'the crawl ran out of memory and was stopped' });
    expect(crawler.stats()).toMatchObject({ died: 1 });
    expect((await crawler.crawl(HOSTILE_HOSTS.benign)).ok).toBe(true);
  });

  it('past the hard time limit a worker is killed: the crawl fails with timeout, and the next crawl runs', async () => {
    const crawler = pool({ hardLimitMs: HARD_LIMIT_MS });
    await crawler.warm();
    // The crawl's own budget is 20 s and the hard limit 10 s: the counter and the log line say which one ended
    // it, not a clock.
    const outcome = await crawler.crawl(HOSTILE_HOSTS.slow);
    expect(outcome).toMatchObject({ ok: false, reason: 'timeout' });
    expect(crawler.stats()).toMatchObject({ timedOut: 1 });
    expect(logLines.join('')).toContain('crawl worker stopped at the hard time limit');
    expect((await crawler.crawl(HOSTILE_HOSTS.benign)).ok).toBe(true);
  });

  it('close() ends a running crawl and leaves no worker behind', async () => {
    const crawler = pool();
    await crawler.warm();
    const slowRequests = () => sites.requests[HOSTILE_HOSTS.slow]?.length ?? 0;
    const before = slowRequests();
    const running = crawler.crawl(HOSTILE_HOSTS.slow).then(
      () => 'settled',
      () => 'rejected',
    );
    // Closed once the worker is crawling (the site has its request), not after a guessed pause.
    await until(() => slowRequests() > before, 'the worker reaching the slow site');
    await crawler.close();
    expect(await running).toBe('rejected');
    await until(() => crawlWorkerPids(process.pid).length === 0, 'the crawl worker exiting after close()');
  });
});

describe('crawls in worker threads (BRANDBASE_CRAWL_ISOLATION=thread)', () => {
  it('past its V8 heap limit a thread is stopped (ERR_WORKER_OUT_OF_MEMORY): crawl_error, and the next crawl runs', async () => {
    const crawler = pool({ mode: 'thread', heapMb: 64 });
    const outcome = await crawler.crawl(HOSTILE_HOSTS.flat);
    expect(outcome).toMatchObject({ ok: false, reason: 'crawl_error', message: 'the crawl ran out of memory and was stopped' });
    expect((await crawler.crawl(HOSTILE_HOSTS.benign)).ok).toBe(true);
    expect(crawler.stats()).toMatchObject({ started: 2, died: 1 });
  });

  it('past the hard time limit a thread is terminated: timeout', async () => {
    const crawler = pool({ mode: 'thread', hardLimitMs: HARD_LIMIT_MS });
    await crawler.warm();
    expect(await crawler.crawl(HOSTILE_HOSTS.slow)).toMatchObject({ ok: false, reason: 'timeout' });
    expect((await crawler.crawl(HOSTILE_HOSTS.benign)).ok).toBe(true);
  });
});

const chromiumPath = CHROMIUM_PATH;

needsChromium('render').describe('rendering stays in the main process', () => {
  it('a worker gets a JavaScript-built page rendered by the one Chromium, every request through the main fetcher', async () => {
    const fixtures = await startFixtureSites();
    const renderer = openRenderer({ chromiumPath, fetcher: new SafeFetcher({ hostMap: fixtures.hostMap }), userAgent: USER_AGENT, logger: createLogger({ level: 'silent' }) });
    try {
      // Chromium is started here, so the crawl's render budget (12 s) goes to the page, not to starting a browser
      // on a busy machine.
      await renderer?.render(`http://${FIXTURE_HOSTS.plainfield}/`, { timeoutMs: 120_000 });
      const crawler = pool({ renderer }, fixtures.hostMap);
      const outcome = await crawler.crawl(FIXTURE_HOSTS.spashell);
      expect(outcome.ok).toBe(true);
      if (!outcome.ok) return;
      expect(outcome.draft.logos.length).toBeGreaterThan(0);
      // The script is only ever requested by Chromium, whose requests the main side's fetcher answers.
      expect(fixtures.sites.spashell.requests).toContain('/static/js/main.js');
    } finally {
      await renderer?.close();
      await fixtures.close();
    }
  });
});
