import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JobRetention } from '../../src/jobs/job-retention.js';
import { JOB_NAMES, type JobQueue } from '../../src/jobs/queue.js';
import { createSqlJobQueue } from '../../src/jobs/sql/sql-job-queue.js';
import { createLogger } from '../../src/platform/logger.js';
import { tempSqlite } from '../store/temp-database.js';

describe('JobRetention (the worker processes’ sweep of finished jobs)', () => {
  let temp: Awaited<ReturnType<typeof tempSqlite>>;
  let queue: JobQueue;
  let lines: string[];
  const logger = () =>
    createLogger({
      level: 'info',
      destination: new Writable({
        write(chunk: Buffer, _enc, done) {
          lines.push(chunk.toString('utf8'));
          done();
        },
      }),
    });

  beforeEach(async () => {
    temp = await tempSqlite();
    await temp.migrate();
    queue = createSqlJobQueue(temp.database);
    lines = [];
  });
  afterEach(async () => temp.cleanup());

  async function finish(count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const { id } = await queue.enqueue(JOB_NAMES.crawlBrand, `site-${i}.com`, { domain: `site-${i}.com`, refresh: false });
      await queue.claim([JOB_NAMES.crawlBrand], 30_000);
      await queue.complete(id);
      ids.push(id);
    }
    return ids;
  }

  it('deletes every finished job past the retention, batch after batch, and says how many in one line', async () => {
    const ids = await finish(7);
    const live = await queue.enqueue(JOB_NAMES.crawlBrand, 'live.com', { domain: 'live.com', refresh: false });
    // A clock a day ahead with a retention of an hour: every job finished now is past it.
    const retention = new JobRetention(queue, logger(), { retentionMs: 3_600_000, everyMs: 60_000, batch: 3, now: () => new Date(Date.now() + 86_400_000) });
    expect(await retention.sweep()).toBe(7);
    for (const id of ids) expect(await queue.get(id)).toBeNull();
    expect(await queue.get(live.id)).toMatchObject({ state: 'queued' });
    expect(lines.join('')).toContain('"deleted":7');
    expect(await retention.sweep()).toBe(0);
    await retention.stop();
  });

  it('keeps finished jobs still within the retention', async () => {
    const ids = await finish(2);
    const retention = new JobRetention(queue, logger(), { retentionMs: 3_600_000, everyMs: 60_000 });
    expect(await retention.sweep()).toBe(0);
    for (const id of ids) expect(await queue.get(id)).toMatchObject({ state: 'done' });
    expect(lines.join('')).toBe('');
  });
});
