/**
 * The JobQueue contract: every queue backend runs this suite against a real database (no mocks).
 * Each test gets a fresh database, because claims see every job in it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JOB_NAMES, QueueFullError } from '../../src/jobs/queue.js';
import type { JobQueue } from '../../src/jobs/queue.js';
import type { DbTransaction } from '../../src/db/database.js';
import type { QueueAdmissionRules, QueueStanding } from '../../src/domain/queue-admission.js';

const NAME = JOB_NAMES.crawlBrand;
const T0 = new Date('2030-01-01T00:00:00.000Z');
const LEASE = 30_000;

function at(offsetMs: number): Date {
  return new Date(T0.getTime() + offsetMs);
}

export interface QueueHarness {
  queue: JobQueue;
  /**
   * A queue over a second, independent connection to the same database, as another worker process holds.
   * `close()` drops it abruptly, like a crash; cleanup closes any peer still open.
   */
  openPeer(): Promise<{ queue: JobQueue; close(): Promise<void> }>;
  /** Inserts a raw active job row bypassing the queue, to prove the database itself enforces dedup. */
  insertActiveRow(id: string, name: string, key: string): Promise<void>;
  /** Runs `fn` in a write transaction of the queue's database, as a caller's save does; a throw rolls it back. */
  transaction<T>(fn: (tx: DbTransaction<unknown>) => Promise<T>): Promise<T>;
  cleanup(): Promise<void>;
}

export function queueContract(name: string, open: () => Promise<QueueHarness>): void {
  describe(`JobQueue contract: ${name}`, () => {
    let h: QueueHarness;
    let queue: JobQueue;

    beforeEach(async () => {
      h = await open();
      queue = h.queue;
    });
    afterEach(async () => {
      await h.cleanup();
    });

    async function enqueue(key: string, runAt = T0) {
      return queue.enqueue(NAME, key, { domain: key, refresh: false }, { runAt });
    }

    describe('fairness between owners', () => {
      const owned = (key: string, owner: string | null, runAt: Date, extra: { maxPerOwner?: number } = {}) =>
        queue.enqueue(NAME, key, { domain: key, refresh: false }, { runAt, owner, ...extra });

      async function claimOrder(count: number): Promise<string[]> {
        const keys: string[] = [];
        for (let i = 0; i < count; i++) {
          const job = await queue.claim([NAME], LEASE, at(1000));
          if (!job) break;
          keys.push(job.key);
        }
        return keys;
      }

      it('takes turns: every owner\'s oldest job before anyone\'s second, however early the flood came', async () => {
        for (let i = 0; i < 4; i++) await owned(`flood-${i}.test`, 'org_a', at(i));
        await owned('b-1.test', 'org_b', at(10));
        await owned('b-2.test', 'org_b', at(11));
        await owned('cli.test', null, at(12));
        expect(await claimOrder(7)).toEqual(['flood-0.test', 'b-1.test', 'cli.test', 'flood-1.test', 'b-2.test', 'flood-2.test', 'flood-3.test']);
      });

      it('an owner with jobs running waits behind an owner with none', async () => {
        await owned('a-1.test', 'org_a', at(0));
        await owned('a-2.test', 'org_a', at(1));
        expect((await queue.claim([NAME], LEASE, at(1000)))?.key).toBe('a-1.test');
        await owned('b-1.test', 'org_b', at(500));
        expect((await queue.claim([NAME], LEASE, at(1000)))?.key).toBe('b-1.test');
        expect((await queue.claim([NAME], LEASE, at(1000)))?.key).toBe('a-2.test');
      });

      it('bounds one owner\'s active jobs (QueueFullError scope owner) without refusing other owners', async () => {
        await owned('a-1.test', 'org_a', T0, { maxPerOwner: 2 });
        // Due a millisecond after a-1, so the claim below has one job due and no tie to break by random id.
        await owned('a-2.test', 'org_a', at(1), { maxPerOwner: 2 });
        const refused = await owned('a-3.test', 'org_a', T0, { maxPerOwner: 2 }).catch((error: unknown) => error);
        expect(refused).toBeInstanceOf(QueueFullError);
        expect((refused as QueueFullError).scope).toBe('owner');
        expect(await owned('a-1.test', 'org_a', T0, { maxPerOwner: 2 })).toMatchObject({ created: false });
        // Due a millisecond later: jobs due at the same instant are claimed in job-id order, which is random.
        expect((await owned('b-1.test', 'org_b', at(1), { maxPerOwner: 2 })).created).toBe(true);
        // A finished job frees its place: the oldest first-turn job is org_a's.
        const claimed = await queue.claim([NAME], LEASE, at(0));
        expect(claimed?.key).toBe('a-1.test');
        await queue.complete(claimed?.id ?? '');
        expect((await owned('a-4.test', 'org_a', T0, { maxPerOwner: 2 })).created).toBe(true);
      });

      it('counts an owner\'s active jobs per name: its jobs of another name never use up its bound', async () => {
        await queue.enqueue(JOB_NAMES.webhookDeliver, 'msg_1', { deliveryId: 'msg_1' }, { runAt: T0, owner: 'org_a' });
        await queue.enqueue(JOB_NAMES.webhookDeliver, 'msg_2', { deliveryId: 'msg_2' }, { runAt: T0, owner: 'org_a' });
        expect((await owned('a-1.test', 'org_a', T0, { maxPerOwner: 1 })).created).toBe(true);
        await expect(owned('a-2.test', 'org_a', T0, { maxPerOwner: 1 })).rejects.toBeInstanceOf(QueueFullError);
      });

      it('passes over an owner at maxRunningPerOwner, however many of its jobs are due, and takes it again when one ends', async () => {
        for (let i = 0; i < 5; i++) await owned(`flood-${i}.test`, 'org_a', at(i));
        const cap = { maxRunningPerOwner: 2 };
        const first = await queue.claim([NAME], LEASE, at(1000), cap);
        const second = await queue.claim([NAME], LEASE, at(1000), cap);
        expect([first?.key, second?.key]).toEqual(['flood-0.test', 'flood-1.test']);
        // org_a is at its cap: nothing of it is claimed, but another owner's later job is.
        expect(await queue.claim([NAME], LEASE, at(1000), cap)).toBeNull();
        await owned('b-1.test', 'org_b', at(900));
        expect((await queue.claim([NAME], LEASE, at(1000), cap))?.key).toBe('b-1.test');
        // Without the option the flood is claimable as before.
        expect((await queue.claim([NAME], LEASE, at(1000)))?.key).toBe('flood-2.test');
        await queue.complete(first?.id ?? '');
        await queue.complete(second?.id ?? '');
        expect((await queue.claim([NAME], LEASE, at(1000), cap))?.key).toBe('flood-3.test');
        expect(await queue.claim([NAME], LEASE, at(1000), cap)).toBeNull();
      });

      it('counts toward maxRunningPerOwner only running jobs of the names claimed, with a live lease', async () => {
        await queue.enqueue(JOB_NAMES.webhookDeliver, 'msg_1', { deliveryId: 'msg_1' }, { runAt: T0, owner: 'org_a' });
        await owned('a-1.test', 'org_a', T0);
        const cap = { maxRunningPerOwner: 1 };
        expect((await queue.claim([JOB_NAMES.webhookDeliver], LEASE, at(1000), cap))?.key).toBe('msg_1');
        // org_a's running delivery does not hold back its crawl.
        expect((await queue.claim([NAME], LEASE, at(1000), cap))?.key).toBe('a-1.test');
        await owned('a-2.test', 'org_a', T0);
        expect(await queue.claim([NAME], LEASE, at(1000), cap)).toBeNull();
        // The crawl's lease ran out (its worker died): it no longer counts, and is itself claimable again.
        const later = at(1000 + LEASE + 1);
        expect((await queue.claim([NAME], LEASE, later, cap))?.key).toBe('a-1.test');
        expect(await queue.claim([NAME], LEASE, later, cap)).toBeNull();
      });

      it('refuses a maxRunningPerOwner that is not a positive integer', async () => {
        await expect(queue.claim([NAME], LEASE, at(0), { maxRunningPerOwner: 0 })).rejects.toThrow(RangeError);
      });
    });

    describe('fair admission (ADR 0050): the policy decided under the enqueue lock', () => {
      const RULES: QueueAdmissionRules = { maxDepth: 6, paidReserve: 3, maxPerOrg: 4, maxPerNewOrg: 1, maxPerClientId: 1, newOrgAgeMs: 1000, paidMinSpendCents: 1000 };
      const paid: QueueStanding = { channel: 'api', plan: 'paid', ageMs: 0, spentCents: 0 };
      const fresh: QueueStanding = { channel: 'api', plan: 'free', ageMs: 0, spentCents: 100 };
      let due = 0;
      const admit = (key: string, owner: string | null, standing: QueueStanding, rules = RULES, q = queue) =>
        q.enqueue(NAME, key, { domain: key, refresh: false }, { runAt: at(due++), owner, admission: { standing, rules } });
      const refusal = (key: string, owner: string | null, standing: QueueStanding) =>
        admit(key, owner, standing).then(() => null, (error: unknown) => error);

      it('keeps the reserve for paid organizations: new unpaid ones get a small share of the rest', async () => {
        for (const org of ['org_u1', 'org_u2', 'org_u3']) expect((await admit(`${org}.test`, org, fresh)).created).toBe(true);
        expect(await refusal('org_u1-2.test', 'org_u1', fresh)).toMatchObject({ scope: 'owner', reason: 'share', depth: 1 });
        const reserve = await refusal('org_u4.test', 'org_u4', fresh);
        expect(reserve).toBeInstanceOf(QueueFullError);
        expect(reserve).toMatchObject({ scope: 'queue', reason: 'reserve', depth: 3 });
        // A duplicate is answered whatever the bounds.
        expect(await admit('org_u1.test', 'org_u1', fresh)).toMatchObject({ created: false });
        expect((await admit('paid.test', 'org_paid', paid)).created).toBe(true);
        // Real spend counts as paid on the free plan; a client ID never queues from the reserve.
        expect((await admit('spent.test', 'org_spent', { ...fresh, spentCents: 1000 })).created).toBe(true);
        expect(await refusal('client.test', 'org_paid:client', { ...paid, channel: 'client' })).toMatchObject({ scope: 'queue', reason: 'reserve' });
        expect(await queue.depth()).toBe(5);
      });

      it('back-pressure inside the reserve refuses the biggest holders first; an owner with none gets the last place', async () => {
        for (let i = 0; i < 3; i++) await admit(`a-${i}.test`, 'org_a', paid);
        expect((await admit('b-0.test', 'org_b', paid)).created).toBe(true);
        // Four queued: room 2 of a reserve of 3, so the cap is ceil(4 * 2 / 3) = 3; org_a holds 3.
        expect(await refusal('a-3.test', 'org_a', paid)).toMatchObject({ scope: 'queue', reason: 'pressure', depth: 4 });
        expect((await admit('b-1.test', 'org_b', paid)).created).toBe(true);
        // Five queued: the cap is ceil(4 * 1 / 3) = 2; org_b holds 2, org_c none.
        expect(await refusal('b-2.test', 'org_b', paid)).toMatchObject({ reason: 'pressure' });
        expect((await admit('c-0.test', 'org_c', paid)).created).toBe(true);
        expect(await refusal('d-0.test', 'org_d', paid)).toMatchObject({ scope: 'queue', reason: 'depth', depth: 6 });
        // The operator's own work is bounded by the depth alone.
        expect(await refusal('cli.test', null, { channel: 'operator', plan: null, ageMs: null, spentCents: 0 })).toMatchObject({ reason: 'depth' });
      });

      it('counts a client ID\'s crawls as an owner of their own, so they never use the organization\'s share', async () => {
        const client: QueueStanding = { ...paid, channel: 'client' };
        expect((await admit('c-0.test', 'org_a:client', client)).created).toBe(true);
        expect(await refusal('c-1.test', 'org_a:client', client)).toMatchObject({ scope: 'owner', reason: 'share', depth: 1 });
        for (let i = 0; i < 3; i++) expect((await admit(`a-${i}.test`, 'org_a', paid)).created).toBe(true);
        // A running job counts toward its owner's share, not toward the depth.
        expect((await queue.claim([NAME], LEASE, at(1_000)))?.owner).toBe('org_a:client');
        expect(await refusal('c-2.test', 'org_a:client', client)).toMatchObject({ scope: 'owner', reason: 'share' });
        expect((await admit('a-3.test', 'org_a', paid)).created).toBe(true);
        expect(await refusal('a-4.test', 'org_a', paid)).toMatchObject({ scope: 'owner', reason: 'share', depth: 4 });
      });

      it('counts jobs of the same name only: other work waiting in the queue takes no crawl\'s place', async () => {
        for (let i = 0; i < 8; i++) {
          await queue.enqueue(JOB_NAMES.webhookDeliver, `del_${i}`, { deliveryId: `del_${i}` }, { runAt: at(60_000), owner: 'org_a' });
        }
        for (let i = 0; i < 4; i++) expect((await admit(`a-${i}.test`, 'org_a', paid)).created).toBe(true);
        expect(await refusal('a-4.test', 'org_a', paid)).toMatchObject({ scope: 'owner', reason: 'share', depth: 4 });
      });

      it('never admits past maxDepth under concurrent enqueues of two connections', async () => {
        const { queue: peer } = await h.openPeer();
        const settled = await Promise.allSettled(
          Array.from({ length: 12 }, (_, i) => admit(`k${i}.test`, `org_${i}`, paid, { ...RULES, maxDepth: 5, paidReserve: 2 }, i % 2 === 0 ? queue : peer)),
        );
        expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(5);
        for (const r of settled) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(QueueFullError);
        expect(await queue.depth()).toBe(5);
      });
    });

    describe('enqueue', () => {
      it('stores a queued job', async () => {
        const { id, created } = await queue.enqueue(NAME, 'acme.com', { domain: 'acme.com', refresh: true }, { runAt: at(5) });
        expect(created).toBe(true);
        expect(id).toMatch(/^job_/);
        expect(await queue.get(id)).toEqual({
          id,
          name: NAME,
          key: 'acme.com',
          payload: { domain: 'acme.com', refresh: true },
          state: 'queued',
          attempts: 0,
          runAt: at(5),
          lockedUntil: null,
          lastError: null,
          owner: null,
        });
        expect(await queue.get('job_missing')).toBeNull();
      });

      it('defaults runAt to now', async () => {
        const before = Date.now();
        const { id } = await queue.enqueue(NAME, 'now.com', { domain: 'now.com', refresh: false });
        const runAt = (await queue.get(id))?.runAt.getTime() ?? 0;
        expect(runAt).toBeGreaterThanOrEqual(before);
        expect(runAt).toBeLessThanOrEqual(Date.now());
      });

      it('deduplicates queued and running jobs by (name, key), not finished ones', async () => {
        const first = await enqueue('acme.com');
        expect(await enqueue('acme.com')).toEqual({ id: first.id, created: false });
        await queue.claim([NAME], LEASE, at(0));
        expect(await enqueue('acme.com')).toEqual({ id: first.id, created: false });
        await queue.complete(first.id);
        const again = await enqueue('acme.com');
        expect(again.created).toBe(true);
        expect(again.id).not.toBe(first.id);
        expect((await enqueue('other.com')).created).toBe(true);
      });

      it('lets the database refuse a second active job with the same (name, key)', async () => {
        const { id } = await enqueue('acme.com');
        await expect(h.insertActiveRow('job_dup', NAME, 'acme.com')).rejects.toThrow();
        await queue.claim([NAME], LEASE, at(0));
        await queue.fail(id, 'boom', null);
        await expect(h.insertActiveRow('job_dup', NAME, 'acme.com')).resolves.toBeUndefined();
      });

      it('creates exactly one job when two connections enqueue the same key at once', async () => {
        const { queue: peer } = await h.openPeer();
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? queue : peer).enqueue(NAME, 'race.com', { domain: 'race.com', refresh: false })),
        );
        expect(results.filter((r) => r.created)).toHaveLength(1);
        expect(new Set(results.map((r) => r.id)).size).toBe(1);
        expect(await queue.depth()).toBe(1);
      });
    });

    describe('enqueue in the caller\'s transaction (tx)', () => {
      class Rollback extends Error {}

      it('leaves no job when the transaction rolls back', async () => {
        let id = '';
        const outcome = await h
          .transaction(async (tx) => {
            const result = await queue.enqueue(NAME, 'rolled.com', { domain: 'rolled.com', refresh: false }, { tx, runAt: T0 });
            expect(result.created).toBe(true);
            id = result.id;
            throw new Rollback();
          })
          .catch((error: unknown) => error);
        expect(outcome).toBeInstanceOf(Rollback);
        expect(await queue.get(id)).toBeNull();
        expect(await queue.depth()).toBe(0);
        expect(await queue.claim([NAME], LEASE, at(1000))).toBeNull();
      });

      it('leaves exactly one job when the transaction commits, deduplicated within it', async () => {
        const [first, second] = await h.transaction(async (tx) => [
          await queue.enqueue(NAME, 'kept.com', { domain: 'kept.com', refresh: false }, { tx, runAt: T0, maxDepth: 10 }),
          await queue.enqueue(NAME, 'kept.com', { domain: 'kept.com', refresh: false }, { tx, runAt: T0, maxDepth: 10 }),
        ]);
        expect(first?.created).toBe(true);
        expect(second).toEqual({ id: first?.id, created: false });
        expect(await queue.depth()).toBe(1);
        const claimed = await queue.claim([NAME], LEASE, at(1000));
        expect(claimed).toMatchObject({ id: first?.id, key: 'kept.com', state: 'running', attempts: 1 });
      });
    });

    describe('depth and maxDepth', () => {
      it('counts queued jobs only', async () => {
        const a = await enqueue('a.com');
        await enqueue('b.com');
        await enqueue('c.com', at(60_000));
        expect(await queue.depth()).toBe(3);
        await queue.claim([NAME], LEASE, at(0));
        expect(await queue.depth()).toBe(2);
        await queue.complete(a.id);
        expect(await queue.depth()).toBe(2);
      });

      it('oldestQueuedAt: the earliest runAt of a queued job; running and finished jobs do not count', async () => {
        expect(await queue.oldestQueuedAt()).toBeNull();
        const a = await enqueue('a.com', at(0));
        await enqueue('b.com', at(5_000));
        await enqueue('c.com', at(60_000));
        expect((await queue.oldestQueuedAt())?.getTime()).toBe(at(0).getTime());
        const claimed = await queue.claim([NAME], LEASE, at(1_000));
        expect(claimed?.id).toBe(a.id);
        expect((await queue.oldestQueuedAt())?.getTime()).toBe(at(5_000).getTime());
        await queue.complete(a.id);
        const b = await queue.claim([NAME], LEASE, at(6_000));
        expect(b?.key).toBe('b.com');
        await queue.fail(b?.id ?? 'missing', 'boom', null);
        expect((await queue.oldestQueuedAt())?.getTime()).toBe(at(60_000).getTime());
      });

      it('throws QueueFullError at maxDepth but still answers a duplicate', async () => {
        const a = await queue.enqueue(NAME, 'a.com', { domain: 'a.com', refresh: false }, { maxDepth: 2 });
        await queue.enqueue(NAME, 'b.com', { domain: 'b.com', refresh: false }, { maxDepth: 2 });
        const full = queue.enqueue(NAME, 'c.com', { domain: 'c.com', refresh: false }, { maxDepth: 2 });
        await expect(full).rejects.toBeInstanceOf(QueueFullError);
        await expect(full).rejects.toMatchObject({ depth: 2 });
        expect(await queue.enqueue(NAME, 'a.com', { domain: 'a.com', refresh: false }, { maxDepth: 2 })).toEqual({ id: a.id, created: false });
        expect(await queue.depth()).toBe(2);
        await queue.claim([NAME], LEASE);
        expect((await queue.enqueue(NAME, 'c.com', { domain: 'c.com', refresh: false }, { maxDepth: 2 })).created).toBe(true);
      });

      it('never exceeds maxDepth under concurrent enqueues', async () => {
        const { queue: peer } = await h.openPeer();
        const settled = await Promise.allSettled(
          Array.from({ length: 12 }, (_, i) =>
            (i % 2 === 0 ? queue : peer).enqueue(NAME, `k${i}.com`, { domain: `k${i}.com`, refresh: false }, { maxDepth: 5 }),
          ),
        );
        const rejected = settled.filter((s) => s.status === 'rejected');
        expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(5);
        for (const r of rejected) expect(r.status === 'rejected' && r.reason).toBeInstanceOf(QueueFullError);
        expect(await queue.depth()).toBe(5);
      });
    });

    describe('claim', () => {
      it('claims the oldest due job first and leases it', async () => {
        const late = await enqueue('late.com', at(20));
        const early = await enqueue('early.com', at(0));
        const middle = await enqueue('middle.com', at(10));
        await enqueue('future.com', at(60_000));
        const now = at(1_000);
        const first = await queue.claim([NAME], LEASE, now);
        expect(first).toMatchObject({ id: early.id, state: 'running', attempts: 1, lockedUntil: at(1_000 + LEASE) });
        expect(await queue.get(early.id)).toEqual(first);
        expect((await queue.claim([NAME], LEASE, now))?.id).toBe(middle.id);
        expect((await queue.claim([NAME], LEASE, now))?.id).toBe(late.id);
        expect(await queue.claim([NAME], LEASE, now)).toBeNull();
      });

      it('answers null on an empty queue or no names', async () => {
        expect(await queue.claim([NAME], LEASE, at(0))).toBeNull();
        await enqueue('acme.com');
        expect(await queue.claim([], LEASE, at(0))).toBeNull();
      });

      it('makes a job claimable again once its lease has expired, counting attempts', async () => {
        const { id } = await enqueue('acme.com');
        const peer = await h.openPeer();
        // The peer claims and then crashes: it never completes the job.
        expect((await peer.queue.claim([NAME], LEASE, at(0)))?.id).toBe(id);
        await peer.close();
        expect(await queue.claim([NAME], LEASE, at(LEASE - 1))).toBeNull();
        expect(await queue.claim([NAME], LEASE, at(LEASE))).toBeNull();
        const reclaimed = await queue.claim([NAME], LEASE, at(LEASE + 1));
        expect(reclaimed).toMatchObject({ id, state: 'running', attempts: 2, lockedUntil: at(2 * LEASE + 1) });
      });

      it('never gives the same job to two concurrent claimers', async () => {
        const total = 40;
        for (let i = 0; i < total; i++) await enqueue(`site${i}.com`, at(i));
        const { queue: peer } = await h.openPeer();
        const claimed: string[] = [];
        async function drain(q: JobQueue): Promise<void> {
          for (let job = await q.claim([NAME], LEASE, at(total)); job !== null; job = await q.claim([NAME], LEASE, at(total))) {
            claimed.push(job.id);
          }
        }
        await Promise.all([drain(queue), drain(peer), drain(queue), drain(peer)]);
        expect(claimed).toHaveLength(total);
        expect(new Set(claimed).size).toBe(total);
      });

      it('never passes maxRunningPerOwner when claimers of two connections claim at once', async () => {
        for (let i = 0; i < 10; i++) await queue.enqueue(NAME, `flood-${i}.test`, { domain: `flood-${i}.test`, refresh: false }, { runAt: at(i), owner: 'org_a' });
        const { queue: peer } = await h.openPeer();
        const claims = [queue, peer, queue, peer, queue, peer].map((q) => q.claim([NAME], LEASE, at(100), { maxRunningPerOwner: 2 }));
        const claimed = (await Promise.all(claims)).filter((job) => job !== null);
        expect(claimed).toHaveLength(2);
      });
    });

    describe('claim by key prefix and makeDue (ADR 0049)', () => {
      it('claims only jobs whose key starts with the prefix, taken as it is (no wildcard)', async () => {
        await enqueue('a_b/one.com', at(0));
        const theirs = await enqueue('axb/two.com', at(1));
        const mine = await enqueue('a_b/three.com', at(2));
        expect((await queue.claim([NAME], LEASE, at(3), { keyPrefix: 'a_b/' }))?.key).toBe('a_b/one.com');
        expect((await queue.claim([NAME], LEASE, at(3), { keyPrefix: 'a_b/' }))?.id).toBe(mine.id);
        expect(await queue.claim([NAME], LEASE, at(3), { keyPrefix: 'a_b/' })).toBeNull();
        expect((await queue.claim([NAME], LEASE, at(3)))?.id).toBe(theirs.id);
      });

      it('makeDue brings queued jobs of those keys forward, never later and never a running one', async () => {
        const later = await enqueue('later.com', at(60_000));
        const early = await enqueue('early.com', at(0));
        const running = await enqueue('running.com', at(0));
        await queue.claim([NAME], LEASE, at(0));
        await queue.claim([NAME], LEASE, at(0));
        expect(await queue.makeDue(NAME, ['later.com', 'early.com', 'running.com', 'unknown.com'], at(10))).toBe(1);
        expect(await queue.get(later.id)).toMatchObject({ state: 'queued', runAt: at(10) });
        expect((await queue.get(early.id))?.state).toBe('running');
        expect((await queue.get(running.id))?.state).toBe('running');
        expect((await queue.claim([NAME], LEASE, at(10)))?.id).toBe(later.id);
      });
    });

    describe('complete, fail and release', () => {
      it('completes a job: done, unleased, never claimed again', async () => {
        const { id } = await enqueue('acme.com');
        await queue.claim([NAME], LEASE, at(0));
        await queue.complete(id);
        expect(await queue.get(id)).toMatchObject({ state: 'done', lockedUntil: null, attempts: 1 });
        expect(await queue.claim([NAME], LEASE, at(10 * LEASE))).toBeNull();
      });

      it('retries a failed job at retryAt and keeps the error', async () => {
        const { id } = await enqueue('acme.com');
        await queue.claim([NAME], LEASE, at(0));
        await queue.fail(id, 'fetch timed out', at(5_000));
        expect(await queue.get(id)).toMatchObject({ state: 'queued', runAt: at(5_000), lockedUntil: null, lastError: 'fetch timed out', attempts: 1 });
        expect(await queue.depth()).toBe(1);
        expect(await queue.claim([NAME], LEASE, at(4_999))).toBeNull();
        expect(await queue.claim([NAME], LEASE, at(5_000))).toMatchObject({ id, attempts: 2 });
      });

      it('ends a job failed when there is no retry', async () => {
        const { id } = await enqueue('acme.com');
        await queue.claim([NAME], LEASE, at(0));
        await queue.fail(id, 'robots.txt forbids', null);
        expect(await queue.get(id)).toMatchObject({ state: 'failed', lockedUntil: null, lastError: 'robots.txt forbids' });
        expect(await queue.claim([NAME], LEASE, at(10 * LEASE))).toBeNull();
        expect(await queue.depth()).toBe(0);
      });

      it('does not revive a finished job', async () => {
        const { id } = await enqueue('acme.com');
        await queue.claim([NAME], LEASE, at(0));
        await queue.complete(id);
        await queue.fail(id, 'late', at(1));
        await queue.release(id);
        expect(await queue.get(id)).toMatchObject({ state: 'done', lastError: null });
      });

      it('releases a claimed job back to the queue untouched', async () => {
        const { id } = await enqueue('acme.com');
        const before = await queue.get(id);
        await queue.claim([NAME], LEASE, at(0));
        await queue.release(id);
        expect(await queue.get(id)).toEqual(before);
        expect(await queue.claim([NAME], LEASE, at(0))).toMatchObject({ id, attempts: 1 });
      });
    });

    describe('retention', () => {
      it('purges finished jobs older than the cut-off, in batches, and never a queued or running one', async () => {
        const done = await Promise.all(['a.com', 'b.com', 'c.com'].map((key) => enqueue(key)));
        for (let i = 0; i < done.length; i++) await queue.claim([NAME], LEASE, at(0));
        for (const job of done) await queue.complete(job.id);
        const failed = await enqueue('failed.com');
        await queue.claim([NAME], LEASE, at(0));
        await queue.fail(failed.id, 'robots.txt forbids', null);
        const running = await enqueue('running.com');
        await queue.claim([NAME], LEASE, at(0));
        const queued = await enqueue('queued.com');

        // Finished just now: an hour-old cut-off keeps them (updated_at is when they ended, on the service's clock).
        expect(await queue.purgeFinished(new Date(Date.now() - 3_600_000), 100)).toBe(0);
        const later = new Date(Date.now() + 60_000);
        expect(await queue.purgeFinished(later, 3)).toBe(3);
        expect(await queue.purgeFinished(later, 3)).toBe(1);
        expect(await queue.purgeFinished(later, 3)).toBe(0);
        for (const job of [...done, failed]) expect(await queue.get(job.id)).toBeNull();
        expect(await queue.get(running.id)).toMatchObject({ state: 'running' });
        expect(await queue.get(queued.id)).toMatchObject({ state: 'queued' });
        // A purged key is free: the same crawl can be queued again.
        expect(await enqueue('a.com')).toMatchObject({ created: true });
      });
    });
  });
}
