import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { billingPeriod } from '../../src/billing/billing-period.js';
import { UsageMeter } from '../../src/billing/usage-meter.js';
import { tempSqlite, type TempDatabase } from '../store/temp-database.js';

let db: TempDatabase;
let now: Date;
const ORG = 'org_meter';

beforeEach(async () => {
  db = await tempSqlite();
  now = new Date('2026-03-31T23:59:59.000Z');
  await db.migrate();
  await db.stores.billing.createOrganization({ id: ORG, name: 'Meter', plan: 'paid', quota: 10, createdAt: now });
  await db.stores.billing.createApiKey({ id: 'key_a', orgId: ORG, name: 'k', secretHash: 'a'.repeat(64), prefix: 'bb_live_abcd', createdAt: now, revokedAt: null });
});
afterEach(async () => db.cleanup());

describe('UsageMeter on a real SQLite ledger', () => {
  it('reserve → commit appends one integer entry; cancel appends nothing', async () => {
    const meter = new UsageMeter(db.stores.billing, () => now);
    const a = await meter.reserve(ORG, 'key_a', 1, 10);
    const b = await meter.reserve(ORG, 'key_a', 1, 10);
    expect(a && b).toBeTruthy();
    meter.commit(a!, 'brand.lookup');
    meter.cancel(b!);
    expect(await meter.exactUsed(ORG)).toBe(1);
    const period = billingPeriod(now);
    expect(await db.stores.billing.sumUsage(ORG, period.start, period.end)).toBe(1);
  });

  it('refuses a reservation beyond the quota, counting reservations in flight', async () => {
    const meter = new UsageMeter(db.stores.billing, () => now);
    const held = await Promise.all(Array.from({ length: 5 }, () => meter.reserve(ORG, null, 1, 3)));
    expect(held.filter(Boolean)).toHaveLength(3);
    meter.cancel(held[0]!);
    expect(await meter.reserve(ORG, null, 1, 3)).not.toBeNull();
  });

  it('a new billing period starts from zero', async () => {
    const meter = new UsageMeter(db.stores.billing, () => now);
    meter.charge(ORG, null, 4, 'brand.lookup');
    expect(await meter.exactUsed(ORG)).toBe(4);
    now = new Date('2026-04-01T00:00:00.000Z');
    expect(await meter.exactUsed(ORG)).toBe(0);
    expect(await meter.approximateUsed(ORG)).toBe(0);
    expect(await meter.reserve(ORG, null, 1, 1)).not.toBeNull();
  });

  it('picks up charges made by another process when its counter reloads', async () => {
    const peer = await db.openPeer();
    const mine = new UsageMeter(db.stores.billing, () => now, { reloadMs: 0 });
    const theirs = new UsageMeter(peer.stores.billing, () => now);
    mine.charge(ORG, null, 2, 'brand.lookup');
    theirs.charge(ORG, null, 3, 'brand.lookup');
    await theirs.flush();
    await mine.flush();
    expect(await mine.approximateUsed(ORG)).toBe(5);
    expect(await mine.reserve(ORG, null, 1, 5)).toBeNull();
  });

  it('a failed flush keeps its entries and writes them on the next flush', async () => {
    const meter = new UsageMeter(db.stores.billing, () => now, { flushMs: 60_000 });
    meter.charge('org_missing', null, 1, 'brand.lookup');
    meter.charge(ORG, null, 1, 'brand.lookup');
    await expect(meter.flush()).rejects.toThrow();
    await db.stores.billing.createOrganization({ id: 'org_missing', name: 'Late', plan: 'paid', quota: 10, createdAt: now });
    await meter.flush();
    expect(await meter.exactUsed('org_missing')).toBe(1);
    expect(await meter.exactUsed(ORG)).toBe(1);
    await meter.close();
  });

  it('groups the charges of one window into one ledger entry per (org, key, reason), summing exactly', async () => {
    const meter = new UsageMeter(db.stores.billing, () => now, { flushMs: 60_000 });
    for (let i = 0; i < 100; i++) meter.charge(ORG, 'key_a', 1, 'brand.lookup');
    for (let i = 0; i < 7; i++) meter.charge(ORG, null, 1, 'brand.lookup');
    await meter.flush();
    const rows = await db.db.selectFrom('usage_ledger').select(['credits', 'key_id']).where('org_id', '=', ORG).orderBy('credits', 'desc').execute();
    expect(rows.map((r) => Number(r.credits))).toEqual([100, 7]);
    expect(await meter.exactUsed(ORG)).toBe(107);
  });

  it('close() flushes buffered charges', async () => {
    const meter = new UsageMeter(db.stores.billing, () => now, { flushMs: 60_000 });
    for (let i = 0; i < 25; i++) meter.charge(ORG, 'key_a', 1, 'brand.lookup');
    await meter.close();
    const period = billingPeriod(now);
    expect(await db.stores.billing.sumUsage(ORG, period.start, period.end)).toBe(25);
  });

  it('rejects non-integer or non-positive charges', () => {
    const meter = new UsageMeter(db.stores.billing, () => now);
    expect(() => meter.charge(ORG, null, 0.5, 'x')).toThrow();
    expect(() => meter.charge(ORG, null, 0, 'x')).toThrow();
    expect(() => meter.charge(ORG, null, -1, 'x')).toThrow();
  });
});

describe('billingPeriod', () => {
  it('is the calendar month in UTC', () => {
    const p = billingPeriod(new Date('2026-12-31T23:00:00-05:00'));
    expect(p.key).toBe('2027-01');
    expect(p.start.toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(p.end.toISOString()).toBe('2027-02-01T00:00:00.000Z');
  });
});

describe('UsageMeter sources', () => {
  it('a reservation made before the period ends and settled after it leaves the new quota whole', async () => {
    const meter = new UsageMeter(db.stores.billing, () => now);
    const late = await meter.reserveFromSources(ORG, null, 3, { quota: 3, overage: 0 }, true);
    expect(late?.parts).toEqual({ quota: 3, prepaid: 0, overage: 0 });
    now = new Date('2026-04-01T00:00:01.000Z');
    expect(await meter.available(ORG, { quota: 3, overage: 0 })).toEqual({ quota: 3, prepaid: 0, overage: 0 });
    meter.cancel(late!);
    expect(await meter.available(ORG, { quota: 3, overage: 0 })).toEqual({ quota: 3, prepaid: 0, overage: 0 });
  });

  it('charges a partly used reservation in charging order and releases the rest', async () => {
    await db.stores.billing.addCreditGrant({ id: 'crg_1', orgId: ORG, credits: 4, amountCents: null, reason: 'test', createdAt: now });
    const meter = new UsageMeter(db.stores.billing, () => now);
    const r = await meter.reserveFromSources(ORG, 'key_a', 9, { quota: 2, overage: 5 }, true);
    expect(r?.parts).toEqual({ quota: 2, prepaid: 4, overage: 3 });
    meter.commit(r!, 'brand.batch', 5);
    const summary = await meter.exactSummary(ORG);
    expect(summary).toMatchObject({ quota: 2, prepaid: 3, overage: 0, prepaidBalance: 1 });
    expect(await meter.available(ORG, { quota: 2, overage: 5 })).toEqual({ quota: 0, prepaid: 1, overage: 5 });
  });

  it('counts prepaid credits still in the write buffer against the balance', async () => {
    await db.stores.billing.addCreditGrant({ id: 'crg_2', orgId: ORG, credits: 2, amountCents: null, reason: 'test', createdAt: now });
    const meter = new UsageMeter(db.stores.billing, () => now, { flushMs: 60_000 });
    meter.charge(ORG, null, 2, 'brand.lookup', 'prepaid');
    expect((await meter.snapshot(ORG)).prepaidBalance).toBe(0);
    expect(await meter.reserveFromSources(ORG, null, 1, { quota: 0, overage: 0 }, false)).toBeNull();
    await meter.close();
  });
});
