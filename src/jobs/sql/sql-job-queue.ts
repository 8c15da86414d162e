/**
 * The job queue as a `jobs` table in the store's own database (SQLite or PostgreSQL), so a job can be
 * enqueued next to the write that causes it and every worker process sees the same queue.
 *
 * Guarantees, all enforced by the database rather than by this process:
 * - dedup: a partial unique index on (name, key) over queued and running jobs (jobs-table.ts);
 * - claims: the dialect quirks' `claimOne` in the fair order: one UPDATE ... WHERE id = (SELECT ...) RETURNING on
 *   SQLite, FOR UPDATE SKIP LOCKED on PostgreSQL so concurrent workers pass over each other's rows instead of
 *   queueing behind them;
 * - crash recovery: a running job whose lease (locked_until) has passed is claimable again, attempts + 1.
 * Ordering is by run_at, then created_at, then id: jobs enqueued in the same millisecond have no FIFO order.
 */
import { sql } from 'kysely';
import type { Expression, ExpressionBuilder, Kysely } from 'kysely';
import { CURRENT_SCHEMA } from '../../db/dialect-quirks.js';
import type { Database as Db, DbTransaction, DialectQuirks } from '../../db/database.js';
import { newId } from '../../domain/ids.js';
import { QueueFullError } from '../queue.js';
import { queueAdmission } from '../../domain/queue-admission.js';
import type { ClaimOptions, EnqueueOptions, SettleOptions, EnqueueResult, Job, JobName, JobPayloads, JobQueue } from '../queue.js';
import { fromMillis, fromNullableMillis, toMillis, toSafeInteger } from '../../db/column-codec.js';
import { activeJobPredicate, type JobsTable, type JobTables as Database } from './jobs-table.js';

/** Error texts are kept for operators, not archived: a stack trace of a few KB is plenty. */
const MAX_ERROR_LENGTH = 4000;
/** An enqueue retries when the job it deduplicated against finished in between; twice more is generous. */
const ENQUEUE_ATTEMPTS = 3;
/** Keys per statement of makeDue. */
const MAKE_DUE_CHUNK = 500;

function rowToJob(row: JobsTable): Job {
  return {
    id: row.id,
    name: row.name as JobName,
    key: row.key,
    payload: JSON.parse(row.payload) as JobPayloads[JobName],
    state: row.state,
    attempts: toSafeInteger(row.attempts),
    runAt: fromMillis(row.run_at),
    lockedUntil: fromNullableMillis(row.locked_until),
    lastError: row.last_error,
    owner: row.owner,
  };
}

async function activeJobId(db: Kysely<Database>, name: string, key: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('jobs')
    .select('id')
    .where('name', '=', name)
    .where('key', '=', key)
    .where(activeJobPredicate())
    .executeTakeFirst();
  return row?.id;
}

/** The owner's active (queued or running) jobs of one name: one owner's deliveries never count against its crawls. */
async function countActiveOf(db: Kysely<Database>, name: string, owner: string): Promise<number> {
  const row = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
    .where('name', '=', name)
    .where('owner', '=', owner)
    .where(activeJobPredicate())
    .executeTakeFirstOrThrow();
  return toSafeInteger(row.n);
}

/**
 * The due jobs in claiming order, fair between owners: a job's turn is its rank among its owner's due jobs plus
 * the owner's running jobs (of the names claimed), so every owner's first job comes before anyone's second, and an
 * owner with work already running waits behind owners with less. Ties go to the oldest. With `maxRunning`, an owner
 * that already has that many running jobs of these names is passed over. `limit` candidates only.
 */
function fairCandidates(names: JobName[], nowMs: number, limit: number, opts: ClaimOptions) {
  const keyPrefix = opts.keyPrefix;
  // substr, not like: a prefix is matched as it is, with no wildcard to escape (same function on both dialects).
  const prefix = keyPrefix === undefined ? sql`` : sql`and substr(c.key, 1, cast(${keyPrefix.length} as integer)) = ${keyPrefix}`;
  const capped = opts.maxRunningPerOwner === undefined ? sql`` : sql`where j.running < cast(${opts.maxRunningPerOwner} as integer)`;
  return sql<{ id: string; pos: number }>`select j.id, row_number() over (order by j.rank + j.running, j.run_at, j.created_at, j.id) as pos from (
      select c.id, c.run_at, c.created_at,
        row_number() over (partition by coalesce(c.owner, '') order by c.run_at, c.created_at, c.id) as rank,
        (select count(*) from jobs r where r.state = 'running' and r.locked_until >= ${nowMs} and r.name in (${sql.join(names)})
           and coalesce(r.owner, '') = coalesce(c.owner, '')) as running
      from jobs c
      where c.name in (${sql.join(names)}) ${prefix}
        and ((c.state = 'queued' and c.run_at <= ${nowMs}) or (c.state = 'running' and c.locked_until < ${nowMs}))
    ) j
    ${capped}
    order by pos
    limit ${limit}`;
}

/** Queued jobs (not running); of one job name only when `name` is given. */
async function countQueued(db: Kysely<Database>, name?: string): Promise<number> {
  let query = db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
    .where('state', '=', 'queued');
  if (name !== undefined) query = query.where('name', '=', name);
  const row = await query.executeTakeFirstOrThrow();
  return toSafeInteger(row.n);
}

export class SqlJobQueue implements JobQueue {
  private readonly db: Kysely<Database>;
  private readonly quirks: DialectQuirks;

  constructor(database: Db) {
    this.db = database.tables<Database>();
    this.quirks = database.quirks;
  }

  async enqueue<N extends JobName>(
    name: N,
    key: string,
    payload: JobPayloads[N],
    opts: EnqueueOptions = {},
  ): Promise<EnqueueResult> {
    const now = toMillis(new Date());
    const row: JobsTable = {
      id: newId('job'),
      name,
      key,
      payload: JSON.stringify(payload),
      state: 'queued',
      attempts: 0,
      run_at: opts.runAt === undefined ? now : toMillis(opts.runAt),
      locked_until: null,
      last_error: null,
      created_at: now,
      updated_at: now,
      owner: opts.owner ?? null,
    };
    // In the caller's transaction every attempt runs in it; each statement reads the latest commits (read committed).
    const tx = opts.tx;
    const attempt = tx === undefined
      ? () => this.quirks.writeTransaction(this.db, (trx) => this.#enqueueOnce(trx, row, opts))
      : () => this.#enqueueOnce(tx as Kysely<Database>, row, opts);
    for (let i = 0; i < ENQUEUE_ATTEMPTS; i++) {
      const result = await attempt();
      if (result !== null) return result;
    }
    throw new Error(`enqueue of ${name}/${key} kept racing with jobs finishing`);
  }

  /** Null when the conflicting job finished between the insert and the look-up: the caller tries again. */
  async #enqueueOnce(trx: Kysely<Database>, row: JobsTable, opts: EnqueueOptions): Promise<EnqueueResult | null> {
    const existing = await activeJobId(trx, row.name, row.key);
    if (existing !== undefined) return { id: existing, created: false };
    if (opts.admission !== undefined) {
      // Jobs of this name only: webhook deliveries waiting for a retry never take a crawl's place (ADR 0050).
      const queued = await this.#lockedDepth(trx, row.name);
      const ownerActive = row.owner === null ? 0 : await countActiveOf(trx, row.name, row.owner);
      const decision = queueAdmission(opts.admission.standing, { queued, ownerActive }, opts.admission.rules);
      if (!decision.admitted) throw new QueueFullError(decision.count, decision.scope, decision.reason);
    }
    if (opts.maxDepth !== undefined || (opts.maxPerOwner !== undefined && row.owner !== null)) {
      const depth = await this.#lockedDepth(trx);
      if (opts.maxDepth !== undefined && depth >= opts.maxDepth) throw new QueueFullError(depth);
      if (opts.maxPerOwner !== undefined && row.owner !== null) {
        const active = await countActiveOf(trx, row.name, row.owner);
        if (active >= opts.maxPerOwner) throw new QueueFullError(active, 'owner');
      }
    }
    const inserted = await trx
      .insertInto('jobs')
      .values(row)
      .onConflict((oc) => oc.columns(['name', 'key']).where(activeJobPredicate()).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted !== undefined) return { id: inserted.id, created: true };
    const winner = await activeJobId(trx, row.name, row.key);
    return winner === undefined ? null : { id: winner, created: false };
  }

  /**
   * The queued count, read so that no concurrent enqueue can insert between this count and our insert. SQLite's
   * `begin immediate` already serializes writers; PostgreSQL's read committed does not, so bounded enqueues take a
   * transaction-scoped advisory lock (per schema, so isolated installs do not wait on each other).
   */
  async #lockedDepth(trx: Kysely<Database>, name?: string): Promise<number> {
    await this.quirks.transactionLock(trx as Kysely<unknown>, { name: ['brandbase.jobs.enqueue:', CURRENT_SCHEMA] });
    return countQueued(trx, name);
  }

  async claim(names: JobName[], leaseMs: number, now: Date = new Date(), opts: ClaimOptions = {}): Promise<Job | null> {
    if (!Number.isSafeInteger(leaseMs) || leaseMs <= 0) throw new RangeError(`leaseMs must be a positive integer, got ${leaseMs}`);
    const cap = opts.maxRunningPerOwner;
    if (cap !== undefined && (!Number.isSafeInteger(cap) || cap <= 0)) throw new RangeError(`maxRunningPerOwner must be a positive integer, got ${cap}`);
    if (names.length === 0) return null;
    const nowMs = toMillis(now);
    const lease = (eb: ExpressionBuilder<Database, 'jobs'>) => ({ state: 'running' as const, attempts: eb('attempts', '+', 1), locked_until: nowMs + leaseMs, updated_at: nowMs });
    const job = await this.quirks.claimOne(this.db as Kysely<unknown>, {
      table: 'jobs',
      candidates: (limit) => fairCandidates(names, nowMs, limit, opts),
      stillClaimable: (j) => sql`(${sql.ref(`${j}.state`)} = 'queued' and ${sql.ref(`${j}.run_at`)} <= ${nowMs}) or (${sql.ref(`${j}.state`)} = 'running' and ${sql.ref(`${j}.locked_until`)} < ${nowMs})`,
      // A bound on running jobs is read by the claim itself: capped claims take turns, so two never both pass it.
      ...(cap === undefined ? {} : { lock: { name: ['brandbase.jobs.claim.capped:', CURRENT_SCHEMA] } }),
      take: async (trx, id: Expression<string>) => {
        const row = await (trx as Kysely<Database>).updateTable('jobs').set(lease).where('id', '=', id).returningAll().executeTakeFirst();
        return row === undefined ? undefined : rowToJob(row);
      },
    });
    return job ?? null;
  }

  // complete, fail and release act on running jobs only, so a late call cannot revive a finished job.

  async complete(id: string, opts: SettleOptions = {}): Promise<void> {
    await this.#on(opts)
      .updateTable('jobs')
      .set({ state: 'done', locked_until: null, updated_at: Date.now() })
      .where('id', '=', id)
      .where('state', '=', 'running')
      .execute();
  }

  async fail(id: string, error: string, retryAt: Date | null, opts: SettleOptions = {}): Promise<void> {
    const retry = retryAt === null ? {} : { run_at: toMillis(retryAt) };
    await this.#on(opts)
      .updateTable('jobs')
      .set({
        state: retryAt === null ? 'failed' : 'queued',
        ...retry,
        locked_until: null,
        last_error: error.slice(0, MAX_ERROR_LENGTH),
        updated_at: Date.now(),
      })
      .where('id', '=', id)
      .where('state', '=', 'running')
      .execute();
  }

  /** The caller's transaction when it gave one, else the queue's own handle. */
  #on(opts: { tx?: DbTransaction<unknown> }): Kysely<Database> {
    return (opts.tx as Kysely<Database> | undefined) ?? this.db;
  }

  async makeDue(name: JobName, keys: readonly string[], at: Date, opts: { tx?: DbTransaction<unknown> } = {}): Promise<number> {
    const db = this.#on(opts);
    const atMs = toMillis(at);
    let made = 0;
    // Bounded statements: a key list may be long, and PostgreSQL and SQLite cap the parameters of one statement.
    for (let i = 0; i < keys.length; i += MAKE_DUE_CHUNK) {
      const result = await db
        .updateTable('jobs')
        .set({ run_at: atMs, updated_at: Date.now() })
        .where('name', '=', name)
        .where('key', 'in', keys.slice(i, i + MAKE_DUE_CHUNK))
        .where('state', '=', 'queued')
        .where('run_at', '>', atMs)
        .executeTakeFirst();
      made += Number(result.numUpdatedRows);
    }
    return made;
  }

  /** Undoes the claim, attempt count included: a job interrupted by shutdown has not really been tried. */
  async release(id: string): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set((eb) => ({ state: 'queued', attempts: eb('attempts', '-', 1), locked_until: null, updated_at: Date.now() }))
      .where('id', '=', id)
      .where('state', '=', 'running')
      .execute();
  }

  async depth(): Promise<number> {
    return countQueued(this.db);
  }

  async oldestQueuedAt(): Promise<Date | null> {
    // One index probe on jobs_state_run_at_idx.
    const row = await this.db.selectFrom('jobs').select('run_at').where('state', '=', 'queued').orderBy('run_at').limit(1).executeTakeFirst();
    return row === undefined ? null : fromMillis(row.run_at);
  }

  async purgeFinished(before: Date, limit: number): Promise<number> {
    // A bounded batch per call: one statement never holds the table long, however many jobs a fleet has finished.
    const batch = this.db
      .selectFrom('jobs')
      .select('id')
      .where('state', 'in', ['done', 'failed'])
      .where('updated_at', '<', toMillis(before))
      .limit(limit);
    const result = await this.db.deleteFrom('jobs').where('id', 'in', batch).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async get(id: string): Promise<Job | null> {
    const row = await this.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
    return row === undefined ? null : rowToJob(row);
  }
}

/** The queue over the Database the store uses (src/db: openSqliteDatabase / openPostgresDatabase). */
export function createSqlJobQueue(database: Db): JobQueue {
  return new SqlJobQueue(database);
}
