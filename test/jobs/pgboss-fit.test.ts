/**
 * Why the queue port is not on pg-boss 10 (ADR 0041), pinned on the real library and a real PostgreSQL: each test is
 * one behaviour of pg-boss 10.4 that breaks a rule of the queue contract (test/jobs/queue.contract.ts). When one of
 * them starts failing after a pg-boss upgrade, the reason it pins is gone: read ADR 0041 again.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { until } from '../helpers/until.js';
import { PG_URL } from '../store/temp-database.js';
import { needsPostgres } from '../helpers/optional.js';

const QUEUE = 'crawl.brand';

needsPostgres.describe('pg-boss 10 against the queue contract (ADR 0041)', () => {
  const url = PG_URL ?? '';
  let schema: string;
  let boss: PgBoss;
  let client: pg.Client;

  beforeEach(async () => {
    schema = `pgbf_${randomBytes(6).toString('hex')}`;
    boss = new PgBoss({ connectionString: url, schema, max: 2, schedule: false, supervise: false });
    boss.on('error', (error) => {
      throw error;
    });
    await boss.start();
    client = new pg.Client({ connectionString: url });
    await client.connect();
  });

  afterEach(async () => {
    await boss.stop({ graceful: false, wait: true });
    await client.query(`drop schema if exists ${schema} cascade`);
    await client.end();
  });

  async function dbNow(): Promise<Date> {
    const { rows } = await client.query<{ now: Date }>('select clock_timestamp() as now');
    return rows[0]?.now ?? new Date(Number.NaN);
  }

  async function fetchOne(): Promise<PgBoss.Job<{ owner: string }> | undefined> {
    return (await boss.fetch<{ owner: string }>(QUEUE))[0];
  }

  it('fetches in creation order whoever queued: a flood comes out before a later owner\'s first job', async () => {
    await boss.createQueue(QUEUE, { name: QUEUE, policy: 'stately' });
    for (let i = 0; i < 4; i++) await boss.send(QUEUE, { owner: 'org_a' }, { singletonKey: `flood-${i}.test` });
    await boss.send(QUEUE, { owner: 'org_b' }, { singletonKey: 'b-1.test' });
    const owners: string[] = [];
    for (let job = await fetchOne(); job !== undefined; job = await fetchOne()) owners.push(job.data.owner);
    // The contract's fair order would be org_a, org_b, org_a, org_a, org_a.
    expect(owners).toEqual(['org_a', 'org_a', 'org_a', 'org_a', 'org_b']);
  });

  it('fetches by creation, not by when a job became due', async () => {
    await boss.createQueue(QUEUE, { name: QUEUE, policy: 'standard' });
    const now = await dbNow();
    const dueLater = await boss.send(QUEUE, { owner: 'x' }, { startAfter: new Date(now.getTime() - 10_000) });
    await boss.send(QUEUE, { owner: 'x' }, { startAfter: new Date(now.getTime() - 20_000) });
    expect((await fetchOne())?.id).toBe(dueLater);
  });

  it('keeps no single active job per key: a stately queue takes a second job while the first runs', async () => {
    await boss.createQueue(QUEUE, { name: QUEUE, policy: 'stately' });
    const first = await boss.send(QUEUE, { owner: 'x' }, { singletonKey: 'acme.com' });
    // A duplicate of a queued job is refused with null, not the id of the job that holds the key.
    expect(await boss.send(QUEUE, { owner: 'x' }, { singletonKey: 'acme.com' })).toBeNull();
    expect((await fetchOne())?.id).toBe(first);
    const second = await boss.send(QUEUE, { owner: 'x' }, { singletonKey: 'acme.com' });
    expect(second).not.toBeNull();
    expect(second).not.toBe(first);
  });

  it('fail() takes no retry time: the retry is due after the queue\'s fixed delay', async () => {
    await boss.createQueue(QUEUE, { name: QUEUE, policy: 'standard', retryLimit: 1, retryDelay: 0 });
    const id = await boss.send(QUEUE, { owner: 'x' });
    await fetchOne();
    await boss.fail(QUEUE, id ?? '', { message: 'fetch timed out' });
    // The port's fail(id, error, retryAt) would have it wait until retryAt; here it is fetchable at once.
    expect((await fetchOne())?.id).toBe(id);
  });

  it('leases for the queue\'s expireInSeconds, set before any claim, and frees an expired job only in maintenance', async () => {
    await boss.createQueue(QUEUE, { name: QUEUE, policy: 'standard', retryLimit: 1, expireInSeconds: 1 });
    const id = await boss.send(QUEUE, { owner: 'x' });
    expect((await fetchOne())?.id).toBe(id);
    const started = (await boss.getJobById(QUEUE, id ?? ''))?.startedOn ?? new Date(Number.NaN);
    await until(async () => (await dbNow()).getTime() > started.getTime() + 1_500, 'the lease to expire');
    // Expired, yet not claimable: only maintenance (every 120 s by default) moves it back to retry.
    expect(await fetchOne()).toBeUndefined();
    expect((await boss.getJobById(QUEUE, id ?? ''))?.state).toBe('active');
    await boss.maintain();
    expect((await fetchOne())?.id).toBe(id);
  });

  it('keeps one partition per queue: a statement over every queue locks every owner\'s tables', async () => {
    const owners = 10;
    for (let i = 0; i < owners; i++) await boss.createQueue(`${QUEUE}.org_${i}`, { name: `${QUEUE}.org_${i}`, policy: 'stately' });
    await client.query('begin');
    await client.query(`select count(*) from ${schema}.job where state = 'active'`);
    const { rows } = await client.query<{ n: string }>(`select count(*) as n from pg_locks where pid = pg_backend_pid() and locktype = 'relation'`);
    await client.query('rollback');
    // A table and its indexes per owner queue: the lock count grows with the number of owners.
    expect(Number(rows[0]?.n)).toBeGreaterThan(owners * 2);
  });
});
