import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CrawlFailedError } from '../../src/domain/crawl-failures.js';
import { SqlJobQueue } from '../../src/jobs/sql/sql-job-queue.js';
import { JOB_NAMES, type Job } from '../../src/jobs/queue.js';
import { WorkerPool } from '../../src/jobs/worker-pool.js';
import { silentLogger } from '../../src/platform/logger.js';
import { tempSqlite, type TempDatabase } from '../store/temp-database.js';

let db: TempDatabase;
let queue: SqlJobQueue;

beforeEach(async () => {
  db = await tempSqlite();
  await db.store.migrate();
  queue = new SqlJobQueue(db.db, 'sqlite');
});
afterEach(async () => db.cleanup());

async function until(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
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

  it('stop() waits for a running job that finishes within the grace period', async () => {
    const pool = new WorkerPool(queue, { [JOB_NAMES.crawlBrand]: () => new Promise((r) => setTimeout(r, 200)) }, silentLogger(), { concurrency: 1, idleMs: 10 });
    const { id } = await queue.enqueue('crawl.brand', 'slow.test', { domain: 'slow.test', refresh: false });
    pool.start();
    await until(async () => (await queue.get(id))?.state === 'running');
    await pool.stop(5000);
    expect((await queue.get(id))?.state).toBe('done');
  });

  it('stop() puts a job that outlives the grace period back in the queue, not done and not failed', async () => {
    const pool = new WorkerPool(queue, { [JOB_NAMES.crawlBrand]: () => new Promise((r) => setTimeout(r, 1500)) }, silentLogger(), { concurrency: 1, idleMs: 10 });
    const { id } = await queue.enqueue('crawl.brand', 'stuck.test', { domain: 'stuck.test', refresh: false });
    pool.start();
    await until(async () => (await queue.get(id))?.state === 'running');
    await pool.stop(100);
    expect((await queue.get(id))?.state).toBe('queued');
    await new Promise((r) => setTimeout(r, 1600));
    expect((await queue.get(id))?.state).toBe('queued');
  });
});
