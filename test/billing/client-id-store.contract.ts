/**
 * The client-ID part of the billing store's contract (migration 0017, ADR 0033), on every backend against a real database:
 * client IDs round-trip with their referrer rules, revocation keeps its first time, and request counts add up per
 * (client ID, product, month) and per organization, concurrent adds included.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientIdRecord } from '../../src/domain/client-id-record.js';
import type { BillingStore } from '../../src/billing/billing-store.js';
import type { Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrations.js';
import { PRODUCT_MIGRATIONS } from '../../src/main/product-stores.js';

const T0 = new Date('2026-03-04T05:06:07.123Z');
const at = (ms: number): Date => new Date(T0.getTime() + ms);

function cid(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  return `cid_${[...randomBytes(24)].map((b) => alphabet[b & 31]).join('')}`;
}

export function clientIdStoreContract(name: string, open: () => Promise<{ stores: { billing: BillingStore }; database: Database; cleanup: () => Promise<void> }>): void {
  describe(`billing store contract, client IDs: ${name}`, () => {
    let store: BillingStore;
    let cleanup: () => Promise<void>;

    beforeAll(async () => {
      let database: Database;
      let stores: { billing: BillingStore };
      ({ stores, database, cleanup } = await open());
      store = stores.billing;
      await migrateToLatest(database, PRODUCT_MIGRATIONS);
    });
    afterAll(async () => {
      await cleanup();
    });

    async function org(): Promise<string> {
      const created = await store.createOrganization({ id: `org_${randomBytes(6).toString('hex')}`, name: 'Widgets', plan: 'free', quota: 0, createdAt: T0 });
      return created.id;
    }

    function record(orgId: string, overrides: Partial<ClientIdRecord> = {}): ClientIdRecord {
      return { id: cid(), orgId, name: 'web "shop" ✓', allowedReferrers: ['shop.example', '*.example.org'], requireReferrer: true, createdAt: at(0), revokedAt: null, ...overrides };
    }

    it('round-trips a client ID exactly and lists an organization’s IDs in creation order', async () => {
      const orgId = await org();
      const first = record(orgId);
      const second = record(orgId, { name: 'default', allowedReferrers: [], requireReferrer: false, createdAt: at(5) });
      await store.createClientId(second);
      await store.createClientId(first);
      expect(await store.getClientId(first.id)).toEqual(first);
      expect(await store.listClientIds(orgId)).toEqual([first, second]);
      expect(await store.listClientIds(await org())).toEqual([]);
      expect(await store.getClientId(cid())).toBeNull();
    });

    it('revokes once (a second revocation keeps the first time) and says false for an unknown ID', async () => {
      const r = record(await org());
      await store.createClientId(r);
      expect(await store.revokeClientId(r.id, at(10))).toBe(true);
      expect(await store.revokeClientId(r.id, at(20))).toBe(true);
      expect((await store.getClientId(r.id))?.revokedAt).toEqual(at(10));
      expect(await store.revokeClientId(cid(), at(10))).toBe(false);
    });

    it('replaces the referrer rules', async () => {
      const r = record(await org());
      await store.createClientId(r);
      expect(await store.setClientIdReferrers(r.id, ['app.example'], false)).toBe(true);
      expect(await store.getClientId(r.id)).toEqual({ ...r, allowedReferrers: ['app.example'], requireReferrer: false });
      expect(await store.setClientIdReferrers(cid(), [], false)).toBe(false);
    });

    it('adds usage per client ID, product and period, and sums an organization over its IDs', async () => {
      const orgId = await org();
      const a = record(orgId);
      const b = record(orgId);
      await store.createClientId(a);
      await store.createClientId(b);
      await store.addClientIdUsage([
        { clientId: a.id, orgId, product: 'search', period: '2026-03', requests: 40 },
        { clientId: b.id, orgId, product: 'search', period: '2026-03', requests: 2 },
        { clientId: a.id, orgId, product: 'logo', period: '2026-03', requests: 1000 },
        { clientId: a.id, orgId, product: 'search', period: '2026-02', requests: 7 },
      ]);
      await store.addClientIdUsage([{ clientId: a.id, orgId, product: 'search', period: '2026-03', requests: 3 }]);
      // A request given back (a search that could not answer) is a negative count.
      await store.addClientIdUsage([{ clientId: b.id, orgId, product: 'search', period: '2026-03', requests: -1 }]);
      expect(await store.clientIdUsage(orgId, 'search', '2026-03')).toBe(44);
      expect(await store.clientIdUsage(orgId, 'logo', '2026-03')).toBe(1000);
      expect(await store.clientIdUsage(orgId, 'search', '2026-02')).toBe(7);
      expect(await store.clientIdUsage(orgId, 'search', '2026-04')).toBe(0);
      await store.addClientIdUsage([]);
    });

    it('counts concurrent adds for the same group exactly once each', async () => {
      const orgId = await org();
      const r = record(orgId);
      await store.createClientId(r);
      await Promise.all(Array.from({ length: 8 }, () => store.addClientIdUsage([{ clientId: r.id, orgId, product: 'search', period: '2026-03', requests: 5 }])));
      expect(await store.clientIdUsage(orgId, 'search', '2026-03')).toBe(40);
    });
  });
}
