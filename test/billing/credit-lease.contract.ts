/**
 * The credit-lease part of the billing store's port (ADR 0040), on every backend: a grant never gives more than the limit
 * minus the ledger minus every live lease, also when two OS processes grant at once; expired leases count as zero;
 * a flush moves credits from a lease to the ledger in one transaction; prepaid credits are limited by the grants.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingPeriod } from '../../src/billing/billing-period.js';
import type { UsageSource } from '../../src/domain/accounts.js';
import type { BillingStore } from '../../src/billing/billing-store.js';
import { grantSize, type CreditLeaseGrant } from '../../src/billing/credit-lease-store.js';
import type { BillingTables } from '../../src/billing/store/billing-tables.js';
import type { Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrations.js';
import { PRODUCT_MIGRATIONS } from '../../src/main/product-stores.js';

export interface CreditLeaseFixture {
  store: BillingStore;
  /** The kernel's handle under `store`, migrated by the suite. */
  database: Database;
  db: Kysely<BillingTables>;
  /** The same database through another OS process. */
  openPeer(): Promise<BillingStore>;
  cleanup(): Promise<void>;
}

const NOW = new Date('2026-03-15T12:00:00.000Z');
const PERIOD = billingPeriod(NOW);
const LEASE_MS = 30_000;

function later(ms: number): Date {
  return new Date(NOW.getTime() + ms);
}

function leaseId(): string {
  return `lse_${randomBytes(8).toString('hex')}`;
}

export function creditLeaseContract(name: string, open: () => Promise<CreditLeaseFixture>): void {
  describe(`credit leases: ${name}`, () => {
    let fixture: CreditLeaseFixture;

    beforeAll(async () => {
      fixture = await open();
      await migrateToLatest(fixture.database, PRODUCT_MIGRATIONS);
    });
    afterAll(async () => {
      await fixture?.cleanup();
    });

    async function newOrg(quota = 100): Promise<string> {
      const id = `org_${randomBytes(8).toString('hex')}`;
      await fixture.store.createOrganization({ id, name: 'Lease Co', plan: 'paid', quota, createdAt: NOW });
      return id;
    }

    function grant(orgId: string, fields: Partial<CreditLeaseGrant> = {}): CreditLeaseGrant {
      return {
        leaseId: leaseId(),
        holder: 'mtr_test',
        orgId,
        source: 'quota',
        period: PERIOD.key,
        from: PERIOD.start,
        to: PERIOD.end,
        limit: 100,
        want: 1,
        block: 10,
        endZoneBlocks: 3,
        now: NOW,
        expiresAt: later(LEASE_MS),
        ...fields,
      };
    }

    function charge(orgId: string, credits: number, source: UsageSource = 'quota', at = NOW) {
      return { id: `use_${randomBytes(8).toString('hex')}`, orgId, keyId: null, credits, reason: 'brand.lookup', source, createdAt: at };
    }

    it('gives a block while plenty is left, only what is wanted near the limit, and never more than is left', async () => {
      const { store } = fixture;
      const org = await newOrg();
      const a = grant(org);
      expect(await store.acquireCreditLease(a)).toBe(10); // 100 left ≥ 3 blocks: a block
      expect(await store.acquireCreditLease({ ...a, want: 25 })).toBe(25); // more than a block wanted: all of it
      expect(await store.leasedCredits(org, PERIOD.key, NOW)).toEqual({ quota: 35, prepaid: 0, overage: 0 });
      expect(await store.acquireCreditLease(grant(org, { want: 40 }))).toBe(40); // 65 left: still ≥ 30
      expect(await store.acquireCreditLease(grant(org, { want: 2 }))).toBe(2); // 25 left: the end zone, no block
      expect(await store.acquireCreditLease(grant(org, { want: 50 }))).toBe(23); // what is left
      expect(await store.acquireCreditLease(grant(org, { want: 1 }))).toBe(0);
      expect((await store.leasedCredits(org, PERIOD.key, NOW)).quota).toBe(100);
      // The policy itself, on its edges.
      expect([grantSize(0, 5, 10, 3), grantSize(30, 1, 10, 3), grantSize(29, 1, 10, 3), grantSize(5, 9, 10, 3)]).toEqual([0, 10, 1, 5]);
      // A busy process's burst never eats into the end zone the others share.
      expect([grantSize(1000, 1, 10, 3, 400), grantSize(100, 1, 10, 3, 400), grantSize(100, 90, 10, 3, 400)]).toEqual([400, 70, 90]);
      const busy = await newOrg();
      expect(await store.acquireCreditLease(grant(busy, { burst: 400 }))).toBe(70);
    });

    it('counts the period ledger and live leases; an expired lease counts as zero and is deleted', async () => {
      const { store, db } = fixture;
      const org = await newOrg();
      // Last month's charges do not count against this period's quota.
      await store.appendUsage([charge(org, 30), charge(org, 50, 'quota', new Date('2026-02-20T00:00:00.000Z'))]);
      const dying = grant(org, { want: 60, expiresAt: later(1000) });
      expect(await store.acquireCreditLease(dying)).toBe(60);
      expect(await store.acquireCreditLease(grant(org, { want: 20 }))).toBe(10);
      expect(await store.acquireCreditLease(grant(org, { now: later(999) }))).toBe(0);
      // At its expiry the 60 credits come back (the 10 of the live lease stay held).
      expect(await store.leasedCredits(org, PERIOD.key, later(1000))).toEqual({ quota: 10, prepaid: 0, overage: 0 });
      expect(await store.acquireCreditLease(grant(org, { want: 100, now: later(1000), expiresAt: later(1000 + LEASE_MS) }))).toBe(60);
      const rows = await db.selectFrom('credit_leases').select('id').where('org_id', '=', org).execute();
      expect(rows.map((r) => r.id)).not.toContain(dying.leaseId);
      expect(await store.renewCreditLease(dying.leaseId, later(1000), later(5000))).toBe(false);
    });

    it('quota, prepaid and overage are limited separately; prepaid by the grants, over all periods', async () => {
      const { store } = fixture;
      const org = await newOrg();
      await store.addCreditGrant({ id: `crg_${randomBytes(6).toString('hex')}`, orgId: org, credits: 12, amountCents: null, reason: 'test', createdAt: NOW });
      // A prepaid charge of last month still counts: the balance spans periods.
      await store.appendUsage([charge(org, 5, 'prepaid', new Date('2026-01-10T00:00:00.000Z'))]);
      expect(await store.acquireCreditLease(grant(org, { source: 'prepaid', period: '', want: 100, limit: 0 }))).toBe(7);
      expect(await store.acquireCreditLease(grant(org, { source: 'overage', want: 100, limit: 4 }))).toBe(4);
      expect(await store.acquireCreditLease(grant(org, { source: 'quota', want: 100 }))).toBe(100);
      expect(await store.leasedCredits(org, PERIOD.key, NOW)).toEqual({ quota: 100, prepaid: 7, overage: 4 });
      // Next period: quota and overage leases of March do not count, the prepaid lease does.
      expect(await store.leasedCredits(org, '2026-04', NOW)).toEqual({ quota: 0, prepaid: 7, overage: 0 });
    });

    it('a flush moves credits from the lease to the ledger in one transaction, never below zero', async () => {
      const { store } = fixture;
      const org = await newOrg();
      const lease = grant(org, { want: 40 });
      expect(await store.acquireCreditLease(lease)).toBe(40);
      await store.appendUsage([charge(org, 15)], [{ leaseId: lease.leaseId, credits: 15 }]);
      expect(await store.sumUsage(org, PERIOD.start, PERIOD.end)).toBe(15);
      expect((await store.leasedCredits(org, PERIOD.key, NOW)).quota).toBe(25);
      // Ledger + leases stayed at 40: 60 are left to grant.
      expect(await store.acquireCreditLease(grant(org, { want: 100 }))).toBe(60);
      // A debit larger than the lease empties it (a charge from a lease that expired and was taken over).
      await store.appendUsage([charge(org, 30)], [{ leaseId: lease.leaseId, credits: 30 }]);
      expect((await store.leasedCredits(org, PERIOD.key, NOW)).quota).toBe(60);
      // A failed flush debits nothing: the ledger insert and the debit are one transaction.
      await expect(store.appendUsage([charge('org_missing', 1)], [{ leaseId: lease.leaseId, credits: 1 }])).rejects.toThrow();
      expect(await store.sumUsage(org, PERIOD.start, PERIOD.end)).toBe(45);
    });

    it('renewal extends a live lease; release shrinks it or gives it all back', async () => {
      const { store } = fixture;
      const org = await newOrg();
      const lease = grant(org, { want: 30, expiresAt: later(1000) });
      await store.acquireCreditLease(lease);
      expect(await store.renewCreditLease(lease.leaseId, later(900), later(9000))).toBe(true);
      expect((await store.leasedCredits(org, PERIOD.key, later(5000))).quota).toBe(30);
      await store.releaseCreditLease(lease.leaseId, 12);
      expect((await store.leasedCredits(org, PERIOD.key, NOW)).quota).toBe(12);
      await store.releaseCreditLease(lease.leaseId, 20); // never grows
      expect((await store.leasedCredits(org, PERIOD.key, NOW)).quota).toBe(12);
      await store.releaseCreditLease(lease.leaseId, 0);
      expect((await store.leasedCredits(org, PERIOD.key, NOW)).quota).toBe(0);
      expect(await store.renewCreditLease(lease.leaseId, NOW, later(9000))).toBe(false);
    });

    it('two OS processes granting at once never pass the limit, and together get all of it', async () => {
      const { store } = fixture;
      const peer = await fixture.openPeer();
      const org = await newOrg(500);
      // Blocks of 3 while plenty is left, 1 at a time at the end; eight grants in flight per process. Each process
      // stops once it holds 300, so neither can take all 500 however the OS schedules them (a loaded machine once
      // let one process finish before the other started): both must get some, and together exactly 500.
      const grants = async (granter: BillingStore): Promise<number> => {
        let got = 0;
        for (let round = 0; round < 80 && got < 300; round++) {
          const sizes = await Promise.all(Array.from({ length: 8 }, () => granter.acquireCreditLease(grant(org, { limit: 500, want: 1, block: 3, endZoneBlocks: 4 }))));
          got += sizes.reduce((a, b) => a + b, 0);
          if (sizes.every((size) => size === 0)) break;
        }
        return got;
      };
      const [mine, theirs] = await Promise.all([grants(store), grants(peer)]);
      expect(mine + theirs).toBe(500);
      expect(mine).toBeGreaterThan(0);
      expect(theirs).toBeGreaterThan(0);
      expect((await store.leasedCredits(org, PERIOD.key, NOW)).quota).toBe(500);
    });
  });
}
