import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CrawlFailedError } from '../../src/domain/crawl-failures.js';
import { SqlJobQueue } from '../../src/jobs/sql/sql-job-queue.js';
import { JOB_NAMES, type Job } from '../../src/jobs/queue.js';
import { WorkerPool } from '../../src/jobs/worker-pool.js';
import { createLogger, silentLogger } from '../../src/platform/logger.js';
import { until } from '../helpers/until.js';
import { tempSqlite, type TempDatabase } from '../store/temp-database.js';

let db: TempDatabase;
let queue: SqlJobQueue;

beforeEach(async () => {
  db = await tempSqlite();
  await db.migrate();
  queue = new SqlJobQueue(db.database);
});
afterEach(async () => db.cleanup());

/** A job handler that runs until the test lets it finish: a job "outlives" a grace period by construction. */
function gatedHandler(): { handler: () => Promise<void>; finish: () => void } {
  let finish!: () => void;
  const gate = new Promise<void>((resolve) => (finish = resolve));
  return { handler: () => gate, finish };
}

describe('WorkerPool on the real jobs table', () => {
  it('runs queued jobs and marks them done', async () => {
    const seen: string[] = [];
    const pool = new WorkerPool(queue, { [JOB_NAMES.crawlBrand]: async (job: Job) => void seen.push((job.payload as { domain: string }).domain) }, silentLogger(), { concurrency: 2, idleMs: 20 });
    const a = await queue.enqueue('crawl.brand', 'a.test', { domain: 'a.test', refresh: false });
    const b = await queue.enqueue('crawl.brand', 'b.test', { domain: 'b.test', refresh: false });
    pool.start();
    await until(async () => (await queue.get(a.id))?.state === 'done' && (await queue.get(b.id))?.state === 'done');
    expect(seen.sort()).toEqual(['a.test', 'b.test']);
    await pool.stop(1000);
  });

  it('a job queued while a worker was claiming is run at once, not after the worker\'s idle sleep (a missed notify)', async () => {
    // The first claim stands for one whose read came before the insert: it answers "nothing due" after the notify.
    let releaseFirstClaim!: () => void;
    const firstClaimReading = new Promise<void>((resolve) => (releaseFirstClaim = resolve));
    let claimStarted!: () => void;
    const claiming = new Promise<void>((resolve) => (claimStarted = resolve));
    let claims = 0;
    const claim = async (...args: Parameters<SqlJobQueue['claim']>): ReturnType<SqlJobQueue['claim']> => {
      if (++claims > 1) return queue.claim(...args);
      claimStarted();
      await firstClaimReading;
      return null;
    };
    const racingQueue = new Proxy(queue, {
      get: (target, property) => (property === 'claim' ? claim : (Reflect.get(target, property) as (...a: unknown[]) => unknown).bind(target)),
    });
    const seen: string[] = [];
    // An hour of idle sleep: a worker that sleeps through the notify leaves the job queued and the test times out.
    const pool = new WorkerPool(racingQueue, { [JOB_NAMES.crawlBrand]: async (job: Job) => void seen.push((job.payload as { domain: string }).domain) }, silentLogger(), { concurrency: 1, idleMs: 3_600_000 });
    pool.start();
    await claiming;
    const { id } = await queue.enqueue('crawl.brand', 'late.test', { domain: 'late.test', refresh: false });
    pool.notify();
    releaseFirstClaim();
    await until(async () => (await queue.get(id))?.state === 'done');
    expect(seen).toEqual(['late.test']);
    await pool.stop(1000);
  });

  it('retries a failing job later and gives up after maxAttempts', async () => {
    let calls = 0;
    const pool = new WorkerPool(
      queue,
      {
        [JOB_NAMES.crawlBrand]: async () => {
          calls++;
          throw new Error('site down');
        },
      },
      silentLogger(),
      { concurrency: 1, idleMs: 10, retryBaseMs: 1, maxAttempts: 3 },
    );
    const { id } = await queue.enqueue('crawl.brand', 'down.test', { domain: 'down.test', refresh: false });
    pool.start();
    await until(async () => (await queue.get(id))?.state === 'failed');
    expect(calls).toBe(3);
    expect((await queue.get(id))?.lastError).toContain('site down');
    await pool.stop(1000);
  });

  it('reads the error\'s retryable flag: a crawl that cannot change on retry fails at once, a passing failure is retried', async () => {
    const calls = new Map<string, number>();
    const pool = new WorkerPool(
      queue,
      {
        [JOB_NAMES.crawlBrand]: async (job: Job) => {
          const { domain } = job.payload as { domain: string };
          calls.set(domain, (calls.get(domain) ?? 0) + 1);
          throw new CrawlFailedError(domain, domain.startsWith('robots') ? 'robots_disallowed' : 'timeout');
        },
      },
      silentLogger(),
      { concurrency: 1, idleMs: 10, retryBaseMs: 1, maxAttempts: 3 },
    );
    const refused = await queue.enqueue('crawl.brand', 'robots.test', { domain: 'robots.test', refresh: false });
    const slow = await queue.enqueue('crawl.brand', 'slow-site.test', { domain: 'slow-site.test', refresh: false });
    pool.start();
    await until(async () => (await queue.get(refused.id))?.state === 'failed' && (await queue.get(slow.id))?.state === 'failed');
    await pool.stop(1000);
    expect(calls.get('robots.test')).toBe(1);
    expect((await queue.get(refused.id))?.lastError).toContain('robots_disallowed');
    expect(calls.get('slow-site.test')).toBe(3);
  });

  it('logs a crawl that fails in one line per attempt (domain, reason, attempt), and a crash with its stack', async () => {
    const lines: string[] = [];
    const logger = createLogger({ destination: new Writable({ write: (chunk: Buffer, _enc, done) => void (lines.push(chunk.toString()), done()) }) });
    const pool = new WorkerPool(
      queue,
      {
        [JOB_NAMES.crawlBrand]: async (job: Job) => {
          const { domain } = job.payload as { domain: string };
          if (domain === 'bug.test') throw new TypeError('cannot read properties of undefined');
          throw new CrawlFailedError(domain, 'unreachable');
        },
      },
      logger,
      { concurrency: 1, idleMs: 10, retryBaseMs: 1, maxAttempts: 3 },
    );
    const down = await queue.enqueue('crawl.brand', 'down.test', { domain: 'down.test', refresh: false });
    const bug = await queue.enqueue('crawl.brand', 'bug.test', { domain: 'bug.test', refresh: false });
    pool.start();
    await until(async () => (await queue.get(down.id))?.state === 'failed' && (await queue.get(bug.id))?.state === 'failed');
    await pool.stop(1000);
    const records = lines.join('').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const failed = records.filter((r) => r.domain === 'down.test');
    expect(failed.map((r) => [r.msg, r.reason, r.attempt, r.retry])).toEqual([
      ['job failed', 'unreachable', 1, true],
      ['job failed', 'unreachable', 2, true],
      ['job failed', 'unreachable', 3, false],
    ]);
    for (const record of failed) expect(record).not.toHaveProperty('err');
    const crashed = records.filter((r) => r.msg === 'job crashed');
    expect(crashed).toHaveLength(3); // one per attempt, each with its stack
    expect((crashed[0]?.err as { stack?: string } | undefined)?.stack).toContain('cannot read properties of undefined');
  });

  it('stop() waits for a running job that finishes within the grace period', async () => {
    const { handler, finish } = gatedHandler();
    const pool = new WorkerPool(queue, { [JOB_NAMES.crawlBrand]: handler }, silentLogger(), { concurrency: 1, idleMs: 10 });
    const { id } = await queue.enqueue('crawl.brand', 'slow.test', { domain: 'slow.test', refresh: false });
    pool.start();
    await until(async () => (await queue.get(id))?.state === 'running');
    // The job ends only after stop() has begun, well within an hour's grace.
    const stopped = pool.stop(3_600_000);
    finish();
    await stopped;
    expect((await queue.get(id))?.state).toBe('done');
  });

  it('stop() puts a job that outlives the grace period back in the queue, not done and not failed', async () => {
    const { handler, finish } = gatedHandler();
    const pool = new WorkerPool(queue, { [JOB_NAMES.crawlBrand]: handler }, silentLogger(), { concurrency: 1, idleMs: 10 });
    const { id } = await queue.enqueue('crawl.brand', 'stuck.test', { domain: 'stuck.test', refresh: false });
    pool.start();
    await until(async () => (await queue.get(id))?.state === 'running');
    await pool.stop(100);
    expect((await queue.get(id))?.state).toBe('queued');
    // The job finishes late; a second stop() returns once the pool has dealt with that (its run and loop are over),
    // so the check below comes causally after anything the late finish could have recorded.
    finish();
    await pool.stop(3_600_000);
    expect((await queue.get(id))?.state).toBe('queued');
  });
});
