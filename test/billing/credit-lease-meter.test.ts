/**
 * The usage meter over credit leases in one process (ADR 0040), on a real SQLite store whose calls are counted (a
 * Proxy over the real store, not a mock): requests served from a block cost no store call; a block used up within a
 * second makes the next grant larger; refusals of an exhausted source cost no store call until the retry time;
 * `forget` (a credit purchase) asks the store again at once.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { billingPeriod } from '../../src/billing/billing-period.js';
import { UsageMeter } from '../../src/billing/usage-meter.js';
import type { BillingStore } from '../../src/billing/billing-store.js';
import { tempSqlite, type TempDatabase } from '../store/temp-database.js';

let db: TempDatabase;
let now: Date;
let calls: Map<string, number>;
let counted: BillingStore;
const ORG = 'org_lease_meter';

beforeEach(async () => {
  db = await tempSqlite();
  now = new Date('2026-03-15T12:00:00.000Z');
  await db.migrate();
  await db.stores.billing.createOrganization({ id: ORG, name: 'Lease Meter', plan: 'paid', quota: 100_000, createdAt: now });
  calls = new Map();
  counted = new Proxy(db.stores.billing, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof property !== 'string' || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.set(property, (calls.get(property) ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
});
afterEach(async () => db.cleanup());

const limits = { quota: 100_000, overage: 0 };

describe('UsageMeter over credit leases', () => {
  it('serves a block from memory: one grant for 200 reservations, then one flush', async () => {
    const meter = new UsageMeter(counted, () => now, { flushMs: 60_000, leases: { block: 200 } });
    for (let i = 0; i < 200; i++) {
      const reservation = await meter.reserveFromSources(ORG, null, 1, limits, false);
      meter.commit(reservation!, 'brand.lookup');
    }
    expect(calls.get('acquireCreditLease')).toBe(1);
    expect(calls.get('appendUsage') ?? 0).toBe(0);
    await meter.close();
    expect(calls.get('appendUsage')).toBe(1);
    const period = billingPeriod(now);
    expect(await db.stores.billing.sumUsage(ORG, period.start, period.end)).toBe(200);
    // close() gave the lease back: nothing is held any more.
    expect(await db.stores.billing.leasedCredits(ORG, period.key, now)).toEqual({ quota: 0, prepaid: 0, overage: 0 });
  });

  it('a block used up within a second makes the next grant twice as large, up to the cap', async () => {
    const meter = new UsageMeter(counted, () => now, { leases: { block: 10, maxBurstBlocks: 4 } });
    const period = billingPeriod(now);
    const leased = async () => (await db.stores.billing.leasedCredits(ORG, period.key, now)).quota;
    const sizes: number[] = [];
    let before = 0;
    for (let i = 0; i < 150; i++) {
      const reservation = await meter.reserveFromSources(ORG, null, 1, limits, false);
      meter.commit(reservation!, 'brand.lookup');
      await meter.flush();
      const after = await leased();
      if (after > before - 1) sizes.push(after - (before - 1));
      before = after;
    }
    expect(sizes).toEqual([10, 20, 40, 40, 40]);
    await meter.close();
  });

  it('an exhausted source is refused without a store call until the retry time; forget asks again at once', async () => {
    await db.stores.billing.updateOrganization(ORG, { quota: 3 });
    const meter = new UsageMeter(counted, () => now, { leases: { exhaustedRetryMs: 1000 } });
    const small = { quota: 3, overage: 0 };
    const held = await meter.reserveFromSources(ORG, null, 5, small, false);
    expect(held?.credits).toBe(3);
    const grants = calls.get('acquireCreditLease');
    for (let i = 0; i < 50; i++) expect(await meter.reserveFromSources(ORG, null, 1, small, false)).toBeNull();
    expect(calls.get('acquireCreditLease')).toBe(grants);
    now = new Date(now.getTime() + 1001);
    expect(await meter.reserveFromSources(ORG, null, 1, small, false)).toBeNull();
    expect(calls.get('acquireCreditLease')).toBe((grants ?? 0) + 1);
    meter.forget(ORG);
    expect(await meter.reserveFromSources(ORG, null, 1, small, false)).toBeNull();
    expect(calls.get('acquireCreditLease')).toBe((grants ?? 0) + 2);
    meter.cancel(held!);
    // Cancelled credits go back to this process's block: reserved again from memory.
    expect((await meter.reserveFromSources(ORG, null, 3, small, true))?.credits).toBe(3);
    expect(calls.get('acquireCreditLease')).toBe((grants ?? 0) + 2);
    await meter.close();
  });
});
