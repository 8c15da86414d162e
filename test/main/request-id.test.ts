/**
 * One request id from the API into the worker (issue 22 item 4, ADR 0039): a HEAD prefetch on an API service set
 * queues a crawl; a second service set over the same SQLite file, with its own logger, runs it in its worker pool
 * (as `brandbase worker` would), and its lines about that crawl carry the API request's `reqId`. Real crawls of
 * fixture sites on loopback through the host map; both loggers' pino output captured and parsed.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { createWorkerPool } from '../../src/main/serve.js';
import { createServices, type Services } from '../../src/main/services.js';
import type { WorkerPool } from '../../src/jobs/worker-pool.js';
import { createLogger } from '../../src/platform/logger.js';
import { FIXTURE_HOSTS, startFixtureSites, type FixtureSites } from '../helpers/fixture-sites.js';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';
import { UNBOUNDED_BUDGETS_ENV } from '../helpers/unbounded-budget.js';

type Line = Record<string, unknown>;

let fixtures: FixtureSites;
let api: TestStack;
let worker: Services;
let pool: WorkerPool;
const workerLines: string[] = [];
/** Called after every line the worker writes: workerLine waits on these instead of polling on a timer. */
const onWorkerWrite = new Set<() => void>();
let key: string;

function parsed(text: string): Line[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Line);
}

beforeAll(async () => {
  fixtures = await startFixtureSites();
  const env = {
    BRANDBASE_CRAWL_HOSTS: JSON.stringify(fixtures.hostMap),
    BRANDBASE_CRAWL_ISOLATION: 'off',
    BRANDBASE_PALETTE_RENDER: 'off',
    BRANDBASE_REFRESH: 'off',
    ...UNBOUNDED_BUDGETS_ENV,
  };
  api = await startTestStack(env);
  ({ key } = await api.newKey({ quota: 100 }));
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      workerLines.push(chunk.toString('utf8'));
      for (const listener of onWorkerWrite) listener();
      done();
    },
  });
  const config = loadConfig({ BRANDBASE_DATA_DIR: api.dataDir, BRANDBASE_PUBLIC_URL: 'http://brandbase.test', ...env });
  worker = await createServices(config, createLogger({ level: 'info', destination: sink }));
  pool = createWorkerPool(worker);
  pool.start();
});

afterAll(async () => {
  await pool?.stop(5_000);
  await worker?.close();
  await api?.close();
  await fixtures?.close();
});

/** The API's request line for the HEAD of `domain` answered `status` (request-logging.ts): found by its domain, so
 * the HEADs of the other tests, in whatever order they ran, are not mistaken for it. */
function requestIdOf(status: number, domain: string): string {
  const lines = parsed(api.logs()).filter((l) => l.msg === 'request' && l.method === 'HEAD' && l.status === status && l.domain === domain);
  expect(lines, 'the API logged the HEAD once').toHaveLength(1);
  const line = lines[0];
  expect(line, 'the API logged the HEAD').toBeDefined();
  expect(typeof line?.reqId).toBe('string');
  return String(line?.reqId);
}

/**
 * Waits, without a clock, until the worker has logged a line matching `match` (the test's own timeout bounds it):
 * looks again after each line the worker writes. The worker pool is woken once; its own idle poll finds the job
 * the API process queued if the wake came before the enqueue was visible.
 */
async function workerLine(match: (line: Line) => boolean): Promise<Line> {
  const seen = (): Line | undefined => parsed(workerLines.join('')).find(match);
  const found = seen();
  if (found) return found;
  return new Promise<Line>((resolve) => {
    const listener = (): void => {
      const line = seen();
      if (!line) return;
      onWorkerWrite.delete(listener);
      resolve(line);
    };
    onWorkerWrite.add(listener);
    pool.notify();
  });
}

describe('a request id followed from the API into the worker', () => {
  it('a crawl queued by a HEAD prefetch is logged by the worker with the request id of that HEAD', async () => {
    const res = await api.app.inject({ method: 'HEAD', url: `/v2/brands/${FIXTURE_HOSTS.newname}`, headers: bearer(key) });
    expect(res.statusCode).toBe(202);
    const reqId = requestIdOf(202, FIXTURE_HOSTS.newname);
    const indexed = await workerLine((l) => l.msg === 'brand indexed' && l.domain === FIXTURE_HOSTS.newname);
    expect(indexed.reqId).toBe(reqId);
    // Nothing in the API process logged the crawl: the id crossed through the job, not through a shared logger.
    expect(parsed(api.logs()).some((l) => l.msg === 'brand indexed')).toBe(false);
    // And the brand the worker indexed answers through the API.
    expect((await api.app.inject({ method: 'HEAD', url: `/v2/brands/${FIXTURE_HOSTS.newname}`, headers: bearer(key) })).statusCode).toBe(200);
  });

  it('a failed queued crawl is logged by the worker pool with the request id too', async () => {
    const res = await api.app.inject({ method: 'HEAD', url: `/v2/brands/${FIXTURE_HOSTS.robotsBlocked}`, headers: bearer(key) });
    expect(res.statusCode).toBe(202);
    const reqId = requestIdOf(202, FIXTURE_HOSTS.robotsBlocked);
    // Each request has its own id, whichever HEADs the other tests sent before this one.
    const ids = parsed(api.logs()).filter((l) => l.msg === 'request').map((l) => String(l.reqId));
    expect(new Set(ids).size).toBe(ids.length);
    const failed = await workerLine((l) => l.msg === 'job failed' && l.domain === FIXTURE_HOSTS.robotsBlocked);
    expect(failed.reqId).toBe(reqId);
    expect(failed.reason).toBe('robots_disallowed');
  });

  it('a crawl queued by a batch miss carries the batch request\'s id', async () => {
    const res = await api.app.inject({ method: 'POST', url: '/v2/brands/batch', headers: bearer(key), payload: { identifiers: [FIXTURE_HOSTS.nightjar] } });
    expect(res.statusCode).toBe(200);
    const line = parsed(api.logs()).find((l) => l.msg === 'request' && l.method === 'POST' && l.status === 200);
    expect(typeof line?.reqId).toBe('string');
    const indexed = await workerLine((l) => (l.msg === 'brand indexed' || l.msg === 'job failed') && l.domain === FIXTURE_HOSTS.nightjar);
    expect(indexed.reqId).toBe(line?.reqId);
  });

  it('jobs without a request (the operator\'s own) carry no reqId', async () => {
    await worker.scheduler.schedule(FIXTURE_HOSTS.plainfield, null);
    const indexed = await workerLine((l) => (l.msg === 'brand indexed' || l.msg === 'job failed') && l.domain === FIXTURE_HOSTS.plainfield);
    expect(indexed).not.toHaveProperty('reqId');
  });
});
