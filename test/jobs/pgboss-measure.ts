/**
 * The figures of ADR 0041 (pg-boss 10 as the PostgreSQL queue), on a real PostgreSQL, each in a fresh schema dropped
 * afterwards:
 * 1. the flood: one organization queues its whole share (100 jobs), then another queues one; at which claim does the
 *    second organization's job come out, from one pg-boss queue and from the jobs-table queue;
 * 2. per-owner pg-boss queues (the way to fairness through pg-boss's own calls): what 1,000 owners cost to create,
 *    what one fetch costs with 1 queue and with 1,000 in the schema, what one fair claim costs when it fetches
 *    queue after queue (idle, and one job at the far end), what the owners' active counts cost; and how
 *    many locks one statement over pg-boss's whole job table takes (its maintenance runs such statements);
 * 3. the claim latency of the jobs-table queue with 1,000 owners holding one queued job each, for comparison.
 * Run: `node --import tsx test/jobs/pgboss-measure.ts` (BRANDBASE_TEST_PG_URL, or the default test server).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { JOB_NAMES } from '../../src/jobs/queue.js';
import type { JobQueue } from '../../src/jobs/queue.js';
import { createSqlJobQueue } from '../../src/jobs/sql/sql-job-queue.js';
import { openPostgresStore } from '../store/open-store.js';
import { DEFAULT_TEST_PG_URL } from '../setup/optional-backends.js';

const URL = process.env['BRANDBASE_TEST_PG_URL'] ?? DEFAULT_TEST_PG_URL;
const NAME = JOB_NAMES.crawlBrand;
const FLOOD = 100;
const OWNERS = 1000;
const SAMPLES = 20;

function schemaName(prefix: string): string {
  return `${prefix}_${randomBytes(5).toString('hex')}`;
}

async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: URL });
  await client.connect();
  await client.query(`drop schema if exists ${schema} cascade`);
  await client.end();
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const result = await run();
  return [result, performance.now() - start];
}

function progress(step: string): void {
  process.stderr.write(`${new Date().toISOString()} ${step}\n`);
}

async function startBoss(schema: string): Promise<PgBoss> {
  const boss = new PgBoss({ connectionString: URL, schema, max: 4, schedule: false, supervise: false });
  boss.on('error', (error) => console.error(error));
  await boss.start();
  return boss;
}

/** 1a. One pg-boss queue: at which fetch does org_b's only job come out after org_a's flood? */
async function floodPositionPgBoss(): Promise<number> {
  const schema = schemaName('pgbm');
  const boss = await startBoss(schema);
  try {
    await boss.createQueue(NAME, { name: NAME, policy: 'stately' });
    for (let i = 0; i < FLOOD; i++) await boss.send(NAME, { owner: 'org_a' }, { singletonKey: `a-${i}.test` });
    await boss.send(NAME, { owner: 'org_b' }, { singletonKey: 'b-0.test' });
    for (let position = 1; ; position++) {
      const [job] = await boss.fetch<{ owner: string }>(NAME);
      if (job === undefined) return -1;
      if (job.data.owner === 'org_b') return position;
    }
  } finally {
    await boss.stop({ graceful: false, wait: true });
    await dropSchema(schema);
  }
}

async function withSqlQueue<T>(run: (queue: JobQueue) => Promise<T>): Promise<T> {
  const schema = schemaName('sqlm');
  const { migrate, close, database } = await openPostgresStore({ url: URL, schema });
  try {
    await migrate();
    return await run(createSqlJobQueue(database));
  } finally {
    await close();
    await dropSchema(schema);
  }
}

/** 1b. The same flood on the jobs-table queue. */
async function floodPositionSql(): Promise<number> {
  return withSqlQueue(async (queue) => {
    for (let i = 0; i < FLOOD; i++) await queue.enqueue(NAME, `a-${i}.test`, { domain: `a-${i}.test`, refresh: false }, { owner: 'org_a' });
    await queue.enqueue(NAME, 'b-0.test', { domain: 'b-0.test', refresh: false }, { owner: 'org_b' });
    for (let position = 1; ; position++) {
      const job = await queue.claim([NAME], 60_000);
      if (job === null) return -1;
      if (job.owner === 'org_b') return position;
    }
  });
}

/** A fair claim through pg-boss's calls only: fetch the owners' queues in turn from `cursor` until one has a job. */
async function roundRobinFetch(boss: PgBoss, queues: string[], cursor: number): Promise<{ found: boolean; fetches: number }> {
  for (let i = 0; i < queues.length; i++) {
    const [job] = await boss.fetch(queues[(cursor + i) % queues.length] ?? '');
    if (job !== undefined) return { found: true, fetches: i + 1 };
  }
  return { found: false, fetches: queues.length };
}

interface PerOwnerFigures {
  /** Median of one fetch on an empty queue, with this many queues (partitions) in pg-boss's schema. */
  oneFetchMs: number;
  createMs: number;
  relations: number;
  idleClaimMs: number;
  farClaimMs: number;
  fetchesPerIdleClaim: number;
  activeCountsMs: number;
}

/**
 * Drops pg-boss's schema one partition per transaction: one `drop schema` of 1,000 queues needs a lock per table
 * and index (about 7,000), more than a default server's lock table holds (it fails "out of shared memory").
 */
async function dropPgBossSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: URL });
  await client.connect();
  const { rows } = await client.query<{ name: string }>(`select partition_name as name from ${schema}.queue`);
  for (const { name } of rows) await client.query(`drop table if exists ${schema}.${name}`);
  await client.end();
  await dropSchema(schema);
}

async function withOwnerQueues<T>(owners: number, run: (boss: PgBoss, schema: string, queues: string[], createMs: number) => Promise<T>): Promise<T> {
  const schema = schemaName('pgbo');
  const boss = await startBoss(schema);
  const queues = Array.from({ length: owners }, (_, i) => `${NAME}.org_${String(i).padStart(4, '0')}`);
  try {
    const [, createMs] = await timed(async () => {
      for (const name of queues) await boss.createQueue(name, { name, policy: 'stately' });
    });
    progress(`created ${owners} queues in ${Math.round(createMs)} ms`);
    return await run(boss, schema, queues, createMs);
  } finally {
    await boss.stop({ graceful: false, wait: true });
    await dropPgBossSchema(schema);
  }
}

async function relationCount(schema: string): Promise<number> {
  const client = new pg.Client({ connectionString: URL });
  await client.connect();
  const { rows } = await client.query<{ n: string }>(`select count(*) as n from pg_class c join pg_namespace s on s.oid = c.relnamespace where s.nspname = $1`, [schema]);
  await client.end();
  return Number(rows[0]?.n ?? 0);
}

async function oneFetchMs(boss: PgBoss, queue: string): Promise<number> {
  const samples: number[] = [];
  for (let s = 0; s < 50; s++) samples.push((await timed(() => boss.fetch(queue)))[1]);
  return median(samples);
}

/** 2a. The same empty-queue fetch with a single queue in the schema, as the baseline. */
async function oneQueueFetch(): Promise<number> {
  return withOwnerQueues(1, (boss, _schema, queues) => oneFetchMs(boss, queues[0] ?? ''));
}

/** 2. One pg-boss queue per owner, 1,000 owners: only calls that name one queue (each locks one partition). */
async function perOwnerQueues(): Promise<PerOwnerFigures> {
  return withOwnerQueues(OWNERS, async (boss, schema, queues, createMs) => {
    const oneFetch = await oneFetchMs(boss, queues[0] ?? '');
    const idle: number[] = [];
    const far: number[] = [];
    let fetchesPerIdleClaim = 0;
    for (let s = 0; s < 5; s++) {
      const [empty, idleMs] = await timed(() => roundRobinFetch(boss, queues, 0));
      fetchesPerIdleClaim = empty.fetches;
      idle.push(idleMs);
      await boss.send(queues[OWNERS - 1] ?? '', {}, { singletonKey: `far-${s}.test` });
      const [hit, farMs] = await timed(() => roundRobinFetch(boss, queues, 0));
      if (!hit.found) throw new Error('the far job was not found');
      far.push(farMs);
    }
    progress('round-robin claims measured');
    // Weighting by running work needs each owner's active count: one getQueueSize per owner.
    const [, activeCountsMs] = await timed(async () => {
      for (const name of queues) await boss.getQueueSize(name, { before: 'completed' });
    });
    return { oneFetchMs: oneFetch, createMs, relations: await relationCount(schema), idleClaimMs: median(idle), farClaimMs: median(far), fetchesPerIdleClaim, activeCountsMs };
  });
}

/**
 * Locks one statement over pg-boss's whole job table takes (as its maintenance runs, and as a one-statement fair
 * pick would), with 100 owner queues: measured at 100, not 1,000, so this run cannot fill the shared lock table.
 */
async function locksOfOneWideStatement(owners: number): Promise<{ owners: number; locks: number; lockTableSlots: number }> {
  return withOwnerQueues(owners, async (_boss, schema) => {
    const client = new pg.Client({ connectionString: URL });
    await client.connect();
    try {
      await client.query('begin');
      await client.query(`select count(*) from ${schema}.job where state = 'active'`);
      const { rows } = await client.query<{ n: string }>(`select count(*) as n from pg_locks where pid = pg_backend_pid() and locktype = 'relation'`);
      const settings = await client.query<{ slots: string }>(
        `select current_setting('max_locks_per_transaction')::int * (current_setting('max_connections')::int + current_setting('max_prepared_transactions')::int) as slots`,
      );
      await client.query('rollback');
      return { owners, locks: Number(rows[0]?.n ?? 0), lockTableSlots: Number(settings.rows[0]?.slots ?? 0) };
    } finally {
      await client.end();
    }
  });
}

/** 3. The jobs-table queue's claim with 1,000 owners holding one queued job each. */
async function sqlClaimWithOwners(): Promise<number> {
  return withSqlQueue(async (queue) => {
    for (let i = 0; i < OWNERS; i++) await queue.enqueue(NAME, `o-${i}.test`, { domain: `o-${i}.test`, refresh: false }, { owner: `org_${i}` });
    const samples: number[] = [];
    for (let s = 0; s < SAMPLES; s++) samples.push((await timed(() => queue.claim([NAME], 60_000)))[1]);
    return median(samples);
  });
}

async function main(): Promise<void> {
  const figures = {
    floodPositionPgBoss: await floodPositionPgBoss(),
    floodPositionSql: await floodPositionSql(),
    wideStatementLocks: await locksOfOneWideStatement(100),
    oneFetchMsWithOneQueue: await oneQueueFetch(),
    perOwner: await perOwnerQueues(),
    sqlClaimMsWith1000Owners: await sqlClaimWithOwners(),
  };
  console.log(JSON.stringify(figures, (_key, value: unknown) => (typeof value === 'number' ? Math.round(value * 10) / 10 : value), 2));
}

await main();
