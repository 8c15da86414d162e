/**
 * The billing rules, tested on Billing directly (no HTTP) against a real database: every test file that calls
 * `billingSuite` runs the same tests on its dialect (SQLite always; PostgreSQL when BRANDBASE_TEST_PG_URL is set).
 * Usage warnings go through a real SMTP server on 127.0.0.1.
 */
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../../src/billing/authenticator.js';
import { Billing, type BillingDefaults, type Hold } from '../../src/billing/billing.js';
import { createSmtpMailer, noMailer, type Mailer } from '../../src/billing/mailer.js';
import { UsageMeter } from '../../src/billing/usage-meter.js';
import { ApiError } from '../../src/domain/errors.js';
import { newId } from '../../src/domain/ids.js';
import { createLogger } from '../../src/platform/logger.js';
import type { NewOrganization, Organization } from '../../src/domain/accounts.js';
import type { BillingStore } from '../../src/billing/billing-store.js';
import { rejection } from '../helpers/api-errors.js';
import type { TempDatabase } from '../store/temp-database.js';
import { startSmtpSink, type SmtpSink } from './smtp-sink.js';

const DEFAULTS: BillingDefaults = { spendingLimitCents: 10_000, rateLimitPerMinute: 60_000 };

function thrown(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

export function billingSuite(name: string, open: () => Promise<TempDatabase>): void {
  describe(`Billing: ${name}`, () => {
    let db: TempDatabase;
    let smtp: SmtpSink;
    let now: Date;
    let logLines: string[];
    const open_: Billing[] = [];

    beforeAll(async () => {
      db = await open();
      await db.migrate();
      smtp = await startSmtpSink();
    });
    afterAll(async () => {
      await smtp.close();
      await db.cleanup();
    });
    beforeEach(() => {
      now = new Date('2026-03-15T12:00:00.000Z');
      logLines = [];
      smtp.messages.length = 0;
    });
    afterEach(async () => {
      for (const billing of open_.splice(0)) await billing.close();
    });

    const clock = () => now;

    function logger() {
      const destination = new Writable({
        write(chunk: Buffer, _enc, done) {
          logLines.push(chunk.toString());
          done();
        },
      });
      return createLogger({ level: 'info', destination });
    }

    function makeBilling(opts: { store?: BillingStore; mailer?: Mailer; defaults?: BillingDefaults; reloadMs?: number } = {}): Billing {
      const store = opts.store ?? db.stores.billing;
      const meter = new UsageMeter(store, clock, { reloadMs: opts.reloadMs ?? 5000 });
      const mailer = opts.mailer === undefined ? createSmtpMailer(smtp.url, 'Brandbase <billing@brandbase.test>') : opts.mailer;
      const billing = new Billing({ store, meter, mailer, logger: logger(), now: clock, defaults: opts.defaults ?? DEFAULTS });
      open_.push(billing);
      return billing;
    }

    async function newOrg(fields: Partial<NewOrganization> & { prepaid?: number } = {}): Promise<Principal> {
      const { prepaid, ...rest } = fields;
      const org = await db.stores.billing.createOrganization({ id: newId('org'), name: 'Acme Inc', plan: 'paid', quota: 10, createdAt: now, ...rest });
      const key = { id: newId('key'), orgId: org.id, name: 'k', secretHash: randomBytes(32).toString('hex'), prefix: 'bb_live_test', createdAt: now, revokedAt: null };
      await db.stores.billing.createApiKey(key);
      if (prepaid) await db.stores.billing.addCreditGrant({ id: newId('use'), orgId: org.id, credits: prepaid, amountCents: null, reason: 'test', createdAt: now });
      return { key, org: (await db.stores.billing.getOrganization(org.id)) as Organization };
    }

    async function spend(billing: Billing, principal: Principal, n: number): Promise<void> {
      for (let i = 0; i < n; i++) (await billing.reserve(principal, 1, 'single')).settle(1, 'brand.lookup');
    }

    /** The ledger as written, after every open Billing flushed its buffer. */
    async function summary(orgId: string) {
      for (const billing of open_) await billing.close();
      const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
      const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
      return db.stores.billing.summarizeUsage(orgId, start, end);
    }

    describe('charging order and limits', () => {
      it('charges the period quota, then the prepaid balance, then overage within the spending limit', async () => {
        const billing = makeBilling();
        const p = await newOrg({ plan: 'paid', quota: 3, prepaid: 2, spendingLimitCents: 50 });
        await spend(billing, p, 10);
        const error = await rejection(billing.reserve(p, 1, 'single'));
        expect(error).toMatchObject({ code: 'quota_exceeded', status: 429, message: 'API key quota exceeded' });
        expect(await billing.usage(p.org)).toEqual({ used: 10, quota: 3 });
        expect(await summary(p.org.id)).toEqual({ quota: 3, prepaid: 2, overage: 5, prepaidBalance: 0 });
        expect(await billing.report(p.org)).toMatchObject({ used: 10, quotaUsed: 3, prepaidUsed: 2, prepaidBalance: 0, overageCredits: 5, overageCents: 50, spendingLimitCents: 50 });
      });

      it('never gives overage on the free plan', async () => {
        const billing = makeBilling();
        const p = await newOrg({ plan: 'free', quota: 2, prepaid: 1, spendingLimitCents: 10_000 });
        await spend(billing, p, 3);
        expect((await rejection(billing.reserve(p, 1, 'single'))).code).toBe('quota_exceeded');
        expect(await summary(p.org.id)).toEqual({ quota: 2, prepaid: 1, overage: 0, prepaidBalance: 0 });
      });

      it('spending limit: 0 disables overage, null uses the default, cents round down to whole requests', async () => {
        const billing = makeBilling({ defaults: { ...DEFAULTS, spendingLimitCents: 30 } });
        const off = await newOrg({ quota: 1, spendingLimitCents: 0 });
        await spend(billing, off, 1);
        expect((await rejection(billing.reserve(off, 1, 'single'))).code).toBe('quota_exceeded');
        const byDefault = await newOrg({ quota: 1 });
        await spend(billing, byDefault, 4);
        expect((await rejection(billing.reserve(byDefault, 1, 'single'))).code).toBe('quota_exceeded');
        expect((await summary(byDefault.org.id)).overage).toBe(3);
        const odd = await newOrg({ quota: 0, spendingLimitCents: 25 });
        await spend(billing, odd, 2);
        expect((await rejection(billing.reserve(odd, 1, 'single'))).code).toBe('quota_exceeded');
        expect(await billing.report(odd.org)).toMatchObject({ overageCredits: 2, overageCents: 20, spendingLimitCents: 25 });
      });

      it('the default limit allows 1000 overage requests (100 USD at 0.10)', async () => {
        const billing = makeBilling();
        const p = await newOrg({ quota: 0 });
        const hold = await billing.reserve(p, 1000, 'batch');
        expect(hold.reserved).toBe(1000);
        hold.settle(1000, 'brand.batch');
        expect((await rejection(billing.reserve(p, 1, 'single'))).code).toBe('quota_exceeded');
        expect(await billing.report(p.org)).toMatchObject({ overageCredits: 1000, overageCents: 10_000 });
      });

      it('prepaid credits do not expire at the end of the period; the quota starts over', async () => {
        now = new Date('2026-03-31T23:59:59.000Z');
        const billing = makeBilling();
        const p = await newOrg({ plan: 'free', quota: 2, prepaid: 5 });
        await spend(billing, p, 3);
        expect(await billing.usage(p.org)).toEqual({ used: 3, quota: 2 });
        now = new Date('2026-04-01T00:00:00.000Z');
        expect(await billing.usage(p.org)).toEqual({ used: 0, quota: 2 });
        expect(await billing.approximateUsed(p.org)).toBe(0);
        await spend(billing, p, 6);
        expect((await rejection(billing.reserve(p, 1, 'single'))).code).toBe('quota_exceeded');
        expect(await summary(p.org.id)).toEqual({ quota: 2, prepaid: 4, overage: 0, prepaidBalance: 0 });
        expect(await billing.usage(p.org)).toEqual({ used: 6, quota: 2 });
      });

      it('overage starts over each period', async () => {
        now = new Date('2026-03-31T23:00:00.000Z');
        const billing = makeBilling();
        const p = await newOrg({ quota: 0, spendingLimitCents: 20 });
        await spend(billing, p, 2);
        expect((await rejection(billing.reserve(p, 1, 'single'))).code).toBe('quota_exceeded');
        now = new Date('2026-04-01T00:00:00.000Z');
        await spend(billing, p, 2);
        expect((await rejection(billing.reserve(p, 1, 'single'))).code).toBe('quota_exceeded');
        expect(await billing.report(p.org)).toMatchObject({ period: { key: '2026-04' }, overageCredits: 2, overageCents: 20 });
      });
    });

    describe('the billing rule', () => {
      it('release() charges nothing: malformed requests, rejected keys and service failures never count', async () => {
        const billing = makeBilling();
        const p = await newOrg({ quota: 1, spendingLimitCents: 0 });
        for (let i = 0; i < 5; i++) (await billing.reserve(p, 1, 'single')).release();
        const hold = await billing.reserve(p, 1, 'single');
        hold.settle(0, 'brand.lookup');
        expect(await billing.usage(p.org)).toEqual({ used: 0, quota: 1 });
        const last = await billing.reserve(p, 1, 'single');
        last.settle(1, 'brand.lookup');
        last.settle(1, 'brand.lookup');
        last.release();
        expect(await billing.usage(p.org)).toEqual({ used: 1, quota: 1 });
      });

      it('cannot charge more than it reserved', async () => {
        const billing = makeBilling();
        const p = await newOrg({ quota: 5 });
        const hold = await billing.reserve(p, 2, 'batch');
        expect(() => hold.settle(3, 'brand.batch')).toThrow(RangeError);
        hold.settle(2, 'brand.batch');
        expect(await billing.usage(p.org)).toEqual({ used: 2, quota: 5 });
      });

      it('a single reservation of several credits holds what is available', async () => {
        const billing = makeBilling();
        const p = await newOrg({ plan: 'free', quota: 2 });
        const hold = await billing.reserve(p, 5, 'single');
        expect(hold.reserved).toBe(2);
        hold.settle(2, 'brand.lookup');
        expect(await billing.usage(p.org)).toEqual({ used: 2, quota: 2 });
      });
    });

    describe('batch', () => {
      it('429 with {message, quota, used, remaining, required} when fewer credits remain; nothing charged', async () => {
        const billing = makeBilling();
        const p = await newOrg({ plan: 'free', quota: 10, prepaid: 2 });
        await spend(billing, p, 7);
        const error = await rejection(billing.reserve(p, 6, 'batch'));
        expect(error.status).toBe(429);
        expect(error.code).toBe('quota_exceeded');
        expect(error.message).toBe('API key quota exceeded');
        expect(error.body).toEqual({ quota: 10, used: 7, remaining: 5, required: 6 });
        expect(await billing.usage(p.org)).toEqual({ used: 7, quota: 10 });
        const fits = await billing.reserve(p, 5, 'batch');
        expect(fits.reserved).toBe(5);
        // Only 200 items are charged: 3 of 5 answered with a brand.
        fits.settle(3, 'brand.batch');
        expect(await billing.usage(p.org)).toEqual({ used: 10, quota: 10 });
        expect(await summary(p.org.id)).toEqual({ quota: 10, prepaid: 0, overage: 0, prepaidBalance: 2 });
      });

      it("the 429's used is exact: what every process charged, not this process's trailing counter (issue 33)", async () => {
        const peer = await db.openPeer();
        const mine = makeBilling({ reloadMs: 60_000 });
        const theirs = makeBilling({ store: peer.stores.billing });
        const p = await newOrg({ quota: 100, spendingLimitCents: 0 });
        await spend(mine, p, 5);
        await spend(theirs, p, 95);
        await theirs.close();
        // This process's counter still says 5 (it reloads every minute); the organization used all 100.
        expect(await mine.approximateUsed(p.org)).toBe(5);
        const error = await rejection(mine.reserve(p, 3, 'batch'));
        expect(error.status).toBe(429);
        expect(error.body).toEqual({ quota: 100, used: 100, remaining: 0, required: 3 });
      });

      it("the 429's used counts this process's charges not yet written, and every source", async () => {
        const billing = makeBilling({ reloadMs: 60_000 });
        const p = await newOrg({ quota: 4, prepaid: 3, spendingLimitCents: 20 });
        // 4 of the quota, 3 prepaid, 2 overage (10 cents each): 9 charged, 0 left, none of it flushed yet.
        await spend(billing, p, 9);
        const error = await rejection(billing.reserve(p, 2, 'batch'));
        expect(error.body).toEqual({ quota: 4, used: 9, remaining: 0, required: 2 });
      });

      it('a batch needing no credit reserves nothing', async () => {
        const billing = makeBilling();
        const p = await newOrg({ quota: 0, spendingLimitCents: 0 });
        const hold = await billing.reserve(p, 0, 'batch');
        expect(hold.reserved).toBe(0);
        hold.settle(0, 'brand.batch');
        hold.release();
      });
    });

    describe('exact under concurrency', () => {
      it('200 parallel singles and 20 parallel batches: used is exactly what was settled, within every limit', async () => {
        const billing = makeBilling();
        // quota 150 + prepaid 40 + overage 60 (600 cents) = 250 credits in all.
        const p = await newOrg({ plan: 'paid', quota: 150, prepaid: 40, spendingLimitCents: 600 });
        let settled = 0;
        const single = async (i: number) => {
          let hold: Hold;
          try {
            hold = await billing.reserve(p, 1, 'single');
          } catch (error) {
            expect((error as ApiError).code).toBe('quota_exceeded');
            return 'refused';
          }
          await new Promise((r) => setTimeout(r, i % 7));
          if (i % 5 === 0) hold.release();
          else {
            hold.settle(1, 'brand.lookup');
            settled += 1;
          }
          return 'held';
        };
        const batch = async (i: number) => {
          let hold: Hold;
          try {
            hold = await billing.reserve(p, 10, 'batch');
          } catch (error) {
            expect((error as ApiError).body).toMatchObject({ required: 10 });
            return 'refused';
          }
          await new Promise((r) => setTimeout(r, i % 5));
          hold.settle(7, 'brand.batch');
          settled += 7;
          return 'held';
        };
        const results = await Promise.all([...Array.from({ length: 200 }, (_, i) => single(i)), ...Array.from({ length: 20 }, (_, i) => batch(i))]);
        expect(results.filter((r) => r === 'held').length).toBeGreaterThan(0);
        const { used } = await billing.usage(p.org);
        expect(used).toBe(settled);
        const sums = await summary(p.org.id);
        expect(sums.quota + sums.prepaid + sums.overage).toBe(settled);
        expect(sums.quota).toBeLessThanOrEqual(150);
        expect(sums.prepaid).toBeLessThanOrEqual(40);
        expect(sums.overage).toBeLessThanOrEqual(60);
        expect(sums.prepaidBalance).toBeGreaterThanOrEqual(0);
      });

      it('never reserves more than quota + prepaid + allowed overage', async () => {
        const billing = makeBilling();
        const p = await newOrg({ plan: 'paid', quota: 100, prepaid: 30, spendingLimitCents: 200 });
        const holds = await Promise.all(Array.from({ length: 300 }, () => billing.reserve(p, 1, 'single').catch(() => null)));
        const held = holds.filter((h): h is Hold => h !== null);
        expect(held).toHaveLength(150);
        for (const h of held) h.settle(1, 'brand.lookup');
        expect(await summary(p.org.id)).toEqual({ quota: 100, prepaid: 30, overage: 20, prepaidBalance: 0 });
      });
    });

    describe('who may use which route (403)', () => {
      it('free plan: lookups only; prefetch and batch need prepaid credits', async () => {
        const billing = makeBilling();
        const free = await newOrg({ plan: 'free', quota: 10 });
        await expect(billing.assertCanUse(free.org, 'lookup')).resolves.toBeUndefined();
        for (const route of ['prefetch', 'batch'] as const) {
          const error = await rejection(billing.assertCanUse(free.org, route));
          expect(error).toMatchObject({ code: 'paid_plan_required', status: 403, header: 'paid_plan_required' });
        }
        const prepaid = await newOrg({ plan: 'free', quota: 10, prepaid: 5 });
        for (const route of ['lookup', 'prefetch', 'batch'] as const) await expect(billing.assertCanUse(prepaid.org, route)).resolves.toBeUndefined();
      });

      it('no credits at all: paid_plan_required on the free plan, no_credits otherwise', async () => {
        const billing = makeBilling();
        const free = await newOrg({ plan: 'free', quota: 0 });
        for (const route of ['lookup', 'prefetch', 'batch'] as const) {
          expect((await rejection(billing.assertCanUse(free.org, route))).code).toBe('paid_plan_required');
        }
        const paid = await newOrg({ plan: 'paid', quota: 0, spendingLimitCents: 0 });
        for (const route of ['lookup', 'prefetch', 'batch'] as const) {
          expect(await rejection(billing.assertCanUse(paid.org, route))).toMatchObject({ code: 'no_credits', status: 403 });
        }
        // Overage or prepaid credits are credits.
        const overage = await newOrg({ plan: 'paid', quota: 0 });
        for (const route of ['lookup', 'prefetch', 'batch'] as const) await expect(billing.assertCanUse(overage.org, route)).resolves.toBeUndefined();
        const prepaidOnly = await newOrg({ plan: 'free', quota: 0, prepaid: 3 });
        for (const route of ['lookup', 'prefetch', 'batch'] as const) await expect(billing.assertCanUse(prepaidOnly.org, route)).resolves.toBeUndefined();
      });

      it('a used-up positive quota is a 429 on reserve, not a 403', async () => {
        const billing = makeBilling();
        const p = await newOrg({ plan: 'free', quota: 1 });
        await spend(billing, p, 1);
        await expect(billing.assertCanUse(p.org, 'lookup')).resolves.toBeUndefined();
        expect((await rejection(billing.reserve(p, 1, 'single'))).status).toBe(429);
      });

      it('prepaid credits used up on the free plan close prefetch and batch again', async () => {
        const billing = makeBilling();
        const p = await newOrg({ plan: 'free', quota: 0, prepaid: 1 });
        await billing.assertCanUse(p.org, 'batch');
        await spend(billing, p, 1);
        expect((await rejection(billing.assertCanUse(p.org, 'batch'))).code).toBe('paid_plan_required');
      });
    });

    describe('throughput limit', () => {
      it('answers 429 rate_limited with the quota message past the limit, per organization, and recovers', async () => {
        const billing = makeBilling({ defaults: { ...DEFAULTS, rateLimitPerMinute: 2 } });
        const own = await newOrg({ rateLimitPerMinute: 3 });
        const byDefault = await newOrg();
        for (let i = 0; i < 3; i++) billing.admit(own.org);
        const error = thrown(() => billing.admit(own.org));
        expect(error).toMatchObject({ code: 'rate_limited', status: 429, message: 'API key quota exceeded', header: 'rate_limited' });
        billing.admit(byDefault.org);
        billing.admit(byDefault.org);
        expect(thrown(() => billing.admit(byDefault.org)).code).toBe('rate_limited');
        now = new Date(now.getTime() + 20_000); // a third of a minute: one more request for 3 per minute
        billing.admit(own.org);
        expect(thrown(() => billing.admit(own.org)).code).toBe('rate_limited');
        now = new Date(now.getTime() + 60_000);
        for (let i = 0; i < 3; i++) billing.admit(own.org);
      });

      it('0 means no limit', () => {
        const billing = makeBilling({ defaults: { ...DEFAULTS, rateLimitPerMinute: 0 } });
        const org = { id: 'org_unlimited', rateLimitPerMinute: null } as Organization;
        for (let i = 0; i < 10_000; i++) billing.admit(org);
      });
    });

    describe('exact and approximate usage', () => {
      it('usage() is exact across processes; approximateUsed may trail until the counter reloads', async () => {
        const peer = await db.openPeer();
        const mine = makeBilling({ reloadMs: 60_000 });
        const theirs = makeBilling({ store: peer.stores.billing });
        const p = await newOrg({ quota: 100 });
        await spend(mine, p, 2);
        expect(await mine.approximateUsed(p.org)).toBe(2);
        await spend(theirs, p, 3);
        await theirs.close();
        expect(await mine.usage(p.org)).toEqual({ used: 5, quota: 100 });
        expect(await mine.approximateUsed(p.org)).toBe(2);
        now = new Date(now.getTime() + 61_000);
        expect(await mine.approximateUsed(p.org)).toBe(5);
      });
    });

    describe('usage warning emails', () => {
      it('80% then 100% of the quota: one email each to the billing contacts, never again that period, again next period', async () => {
        now = new Date('2026-03-31T20:00:00.000Z');
        const billing = makeBilling();
        const p = await newOrg({ name: 'Acme Inc', plan: 'paid', quota: 10, billingContacts: ['billing@acme.test', 'cfo@acme.test'] });
        await spend(billing, p, 7);
        await billing.close();
        expect(smtp.messages).toHaveLength(0);
        await spend(billing, p, 1);
        await billing.close();
        expect(smtp.messages).toHaveLength(1);
        expect(smtp.messages[0]).toMatchObject({ from: 'billing@brandbase.test', to: ['billing@acme.test', 'cfo@acme.test'] });
        expect(smtp.messages[0]?.subject).toBe('Brandbase: Acme Inc has used 80% of its credit quota for 2026-03');
        expect(smtp.messages[0]?.raw).toContain('8 of 10');
        await spend(billing, p, 1);
        await billing.close();
        expect(smtp.messages).toHaveLength(1);
        await spend(billing, p, 1);
        await billing.close();
        expect(smtp.messages).toHaveLength(2);
        expect(smtp.messages[1]?.subject).toBe('Brandbase: Acme Inc has used its whole credit quota for 2026-03');
        expect(smtp.messages[1]?.raw).toContain('overage');
        await spend(billing, p, 5); // overage
        await billing.close();
        expect(smtp.messages).toHaveLength(2);
        // A restarted process does not send them again either.
        const restarted = makeBilling();
        await spend(restarted, p, 1);
        await restarted.close();
        expect(smtp.messages).toHaveLength(2);
        now = new Date('2026-04-01T00:00:01.000Z');
        await spend(billing, p, 8);
        await billing.close();
        expect(smtp.messages).toHaveLength(3);
        expect(smtp.messages[2]?.subject).toBe('Brandbase: Acme Inc has used 80% of its credit quota for 2026-04');
      });

      it('a batch that jumps past both thresholds sends both warnings once', async () => {
        const billing = makeBilling();
        const p = await newOrg({ quota: 10, billingContacts: ['billing@acme.test'] });
        (await billing.reserve(p, 10, 'batch')).settle(10, 'brand.batch');
        await billing.close();
        expect(smtp.messages.map((m) => m.subject).sort()).toEqual([
          'Brandbase: Acme Inc has used 80% of its credit quota for 2026-03',
          'Brandbase: Acme Inc has used its whole credit quota for 2026-03',
        ]);
      });

      it('two processes crossing the same threshold send one email: the notice row decides', async () => {
        const peer = await db.openPeer();
        const a = makeBilling({ reloadMs: 0 });
        const b = makeBilling({ store: peer.stores.billing, reloadMs: 0 });
        const p = await newOrg({ quota: 10, billingContacts: ['billing@acme.test'] });
        // One SQLite file, two handles in one thread: the two "processes" take turns (a real second process
        // would wait for the write lock; in one thread the waiting handle would block the one holding it).
        await spend(a, p, 4);
        await a.close();
        await spend(b, p, 4); // 8 of 10: b claims and sends the 80% warning
        await b.close();
        expect(smtp.messages).toHaveLength(1);
        await spend(a, p, 1); // 9 of 10: a sees 80% crossed, does not know b sent it, and loses the claim
        await a.close();
        expect(smtp.messages).toHaveLength(1);
        await spend(b, p, 1);
        await b.close();
        await spend(a, p, 1);
        await a.close();
        expect(smtp.messages.filter((m) => m.subject.includes('80%'))).toHaveLength(1);
        expect(smtp.messages.filter((m) => m.subject.includes('whole credit quota'))).toHaveLength(1);
      });

      it('two processes spending at once past both thresholds: one email each', async () => {
        const peer = await db.openPeer();
        const a = makeBilling({ reloadMs: 0 });
        const b = makeBilling({ store: peer.stores.billing, reloadMs: 0 });
        const p = await newOrg({ quota: 100, billingContacts: ['billing@acme.test'] });
        const flushEvery = async (billing: Billing) => {
          for (let i = 0; i < 12; i++) {
            await spend(billing, p, 5);
            await billing.close();
          }
        };
        await Promise.all([flushEvery(a), flushEvery(b)]);
        expect(await a.usage(p.org)).toEqual({ used: 120, quota: 100 });
        expect(smtp.messages.map((m) => m.subject).sort()).toEqual([
          'Brandbase: Acme Inc has used 80% of its credit quota for 2026-03',
          'Brandbase: Acme Inc has used its whole credit quota for 2026-03',
        ]);
      });

      it('without billing contacts or without a mail server, nothing is sent and the log says so', async () => {
        const noContacts = makeBilling();
        const p = await newOrg({ quota: 10 });
        await spend(noContacts, p, 8);
        await noContacts.close();
        expect(smtp.messages).toHaveLength(0);
        expect(logLines.join('')).toContain('usage warning not sent: the organization has no billing contacts');
        logLines.length = 0;
        const noMail = makeBilling({ mailer: noMailer });
        const q = await newOrg({ quota: 10, billingContacts: ['billing@acme.test'] });
        await spend(noMail, q, 10);
        await noMail.close();
        expect(smtp.messages).toHaveLength(0);
        const log = logLines.join('');
        expect(log).toContain('BRANDBASE_SMTP_URL is empty');
        expect(log).not.toContain('billing@acme.test');
        // A process with a mail server still sends it later in the period: nothing was claimed.
        const withMail = makeBilling();
        await spend(withMail, q, 1);
        await withMail.close();
        expect(smtp.messages).toHaveLength(2);
      });

      it('a failed send gives the claim back so a later attempt can send it', async () => {
        const broken: Mailer = { sends: true, send: () => Promise.reject(new Error('connection refused')) };
        const failing = makeBilling({ mailer: broken });
        const p = await newOrg({ quota: 10, billingContacts: ['billing@acme.test'] });
        await spend(failing, p, 8);
        await failing.close();
        expect(logLines.join('')).toContain('usage warning could not be sent');
        const working = makeBilling();
        await spend(working, p, 1);
        await working.close();
        expect(smtp.messages.map((m) => m.subject)).toEqual(['Brandbase: Acme Inc has used 80% of its credit quota for 2026-03']);
      });
    });
  });
}
