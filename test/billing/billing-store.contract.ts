/**
 * The billing store's contract (moved out of the Store contract, issue 30): organizations, API keys, the usage ledger,
 * prepaid credits and usage notices. Every backend runs this same suite against a real database (no mocks).
 * One database per suite run; each test uses its own random IDs so tests never see each other's rows.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import type { ApiKeyRecord, CreditGrant, Organization, UsageSource } from '../../src/domain/accounts.js';
import type { BillingStore } from '../../src/billing/billing-store.js';
import type { Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrations.js';
import { PRODUCT_MIGRATIONS } from '../../src/main/product-stores.js';

const T0 = new Date('2024-05-06T07:08:09.123Z');

function at(offsetMs: number): Date {
  return new Date(T0.getTime() + offsetMs);
}

function newOrg(overrides: Partial<Organization> = {}): Organization {
  return {
    id: newId('org'),
    name: 'Acme Inc',
    plan: 'free',
    quota: 500,
    prepaidCredits: 0,
    spendingLimitCents: null,
    billingContacts: [],
    rateLimitPerMinute: null,
    createdAt: at(7),
    ...overrides,
  };
}

function newKey(orgId: string, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  const secretHash = randomBytes(32).toString('hex');
  return { id: newId('key'), orgId, name: 'ci', secretHash, prefix: 'bb_live_ab12', createdAt: at(11), revokedAt: null, ...overrides };
}

export function billingStoreContract(name: string, open: () => Promise<{ stores: { billing: BillingStore }; database: Database; cleanup: () => Promise<void> }>): void {
  describe(`billing store contract: ${name}`, () => {
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

    describe('organizations', () => {
      it('creates, gets, lists and updates', async () => {
        const org = newOrg();
        expect(await store.createOrganization(org)).toEqual(org);
        expect(await store.getOrganization(org.id)).toEqual(org);
        expect(await store.listOrganizations()).toContainEqual(org);
        expect(await store.updateOrganization(org.id, { name: 'Acme Corp' })).toEqual({ ...org, name: 'Acme Corp' });
        const updated = await store.updateOrganization(org.id, { plan: 'paid', quota: 9_000_000_000 });
        expect(updated).toEqual({ ...org, name: 'Acme Corp', plan: 'paid', quota: 9_000_000_000 });
        expect(await store.updateOrganization(org.id, {})).toEqual(updated);
        expect(await store.getOrganization(org.id)).toEqual(updated);
      });

      it('answers null for an unknown organization', async () => {
        expect(await store.getOrganization('org_missing')).toBeNull();
        expect(await store.updateOrganization('org_missing', { name: 'x' })).toBeNull();
      });

      it('lists organizations oldest first', async () => {
        const late = await store.createOrganization(newOrg({ createdAt: at(60_000) }));
        const early = await store.createOrganization(newOrg({ createdAt: at(-60_000) }));
        const ids = (await store.listOrganizations()).map((o) => o.id);
        expect(ids.indexOf(early.id)).toBeLessThan(ids.indexOf(late.id));
      });

      it('round-trips and updates the billing settings', async () => {
        const org = newOrg({ plan: 'paid', spendingLimitCents: 2_500, billingContacts: ['billing@acme.test', 'cfo@acme.test'], rateLimitPerMinute: 120 });
        expect(await store.createOrganization(org)).toEqual(org);
        expect(await store.getOrganization(org.id)).toEqual(org);
        const updated = await store.updateOrganization(org.id, { spendingLimitCents: 0, billingContacts: ['ops@acme.test'], rateLimitPerMinute: null });
        expect(updated).toEqual({ ...org, spendingLimitCents: 0, billingContacts: ['ops@acme.test'], rateLimitPerMinute: null });
        expect(await store.updateOrganization(org.id, { spendingLimitCents: null, billingContacts: [] })).toEqual({
          ...org,
          spendingLimitCents: null,
          billingContacts: [],
          rateLimitPerMinute: null,
        });
        await expect(store.updateOrganization(org.id, { spendingLimitCents: 12.5 })).rejects.toThrow(RangeError);
      });

      it('rejects a fractional quota', async () => {
        await expect(store.createOrganization(newOrg({ quota: 1.5 }))).rejects.toThrow(RangeError);
        const org = await store.createOrganization(newOrg());
        await expect(store.updateOrganization(org.id, { quota: 0.1 })).rejects.toThrow(RangeError);
      });
    });

    describe('API keys', () => {
      it('creates, gets and finds by secret hash', async () => {
        const org = await store.createOrganization(newOrg());
        const key = newKey(org.id);
        await store.createApiKey(key);
        expect(await store.getApiKey(key.id)).toEqual(key);
        expect(await store.findApiKeyBySecretHash(key.secretHash)).toEqual(key);
        expect(await store.findApiKeyBySecretHash('0'.repeat(64))).toBeNull();
        expect(await store.getApiKey('key_missing')).toBeNull();
      });

      it('refuses a second key with the same secret hash', async () => {
        const org = await store.createOrganization(newOrg());
        const key = newKey(org.id);
        await store.createApiKey(key);
        await expect(store.createApiKey(newKey(org.id, { secretHash: key.secretHash }))).rejects.toThrow();
      });

      it('revokes once: a second revocation keeps the first time', async () => {
        const org = await store.createOrganization(newOrg());
        const key = newKey(org.id);
        await store.createApiKey(key);
        expect(await store.revokeApiKey(key.id, at(1_000))).toBe(true);
        expect(await store.revokeApiKey(key.id, at(2_000))).toBe(true);
        expect((await store.getApiKey(key.id))?.revokedAt).toEqual(at(1_000));
        expect((await store.findApiKeyBySecretHash(key.secretHash))?.revokedAt).toEqual(at(1_000));
        expect(await store.revokeApiKey('key_missing', at(1_000))).toBe(false);
      });

      it("lists one organization's keys, oldest first", async () => {
        const org = await store.createOrganization(newOrg());
        const other = await store.createOrganization(newOrg());
        const second = newKey(org.id, { createdAt: at(20) });
        const first = newKey(org.id, { createdAt: at(10), revokedAt: at(15) });
        await store.createApiKey(second);
        await store.createApiKey(first);
        await store.createApiKey(newKey(other.id));
        expect(await store.listApiKeys(org.id)).toEqual([first, second]);
        expect(await store.listApiKeys('org_missing')).toEqual([]);
      });
    });

    describe('usage ledger', () => {
      it('sums credits over [from, to) exactly', async () => {
        const org = await store.createOrganization(newOrg());
        const other = await store.createOrganization(newOrg());
        const key = newKey(org.id);
        await store.createApiKey(key);
        const from = at(10_000);
        const to = at(20_000);
        const entries = [
          { credits: 1, createdAt: at(9_999) },
          { credits: 10, createdAt: from },
          { credits: 100, createdAt: at(15_000) },
          { credits: 1_000, createdAt: at(19_999) },
          { credits: 10_000, createdAt: to },
        ];
        for (const e of entries) {
          await store.appendUsage([{ id: newId('use'), orgId: org.id, keyId: key.id, reason: 'brand.lookup', ...e }]);
        }
        await store.appendUsage([{ id: newId('use'), orgId: other.id, keyId: null, credits: 7, reason: 'brand.lookup', createdAt: at(15_000) }]);
        expect(await store.sumUsage(org.id, from, to)).toBe(1_110);
        expect(await store.sumUsage(org.id, at(0), at(30_000))).toBe(11_111);
        expect(await store.sumUsage(other.id, from, to)).toBe(7);
        expect(await store.sumUsage(org.id, to, at(20_001))).toBe(10_000);
        expect(await store.sumUsage(org.id, at(20_001), at(40_000))).toBe(0);
        expect(await store.sumUsage('org_missing', from, to)).toBe(0);
      });

      it('keeps every one of 200 concurrent appends', async () => {
        const org = await store.createOrganization(newOrg());
        await Promise.all(
          Array.from({ length: 200 }, (_, i) =>
            store.appendUsage([{ id: newId('use'), orgId: org.id, keyId: null, credits: i + 1, reason: 'brand.lookup', createdAt: at(i) }]),
          ),
        );
        expect(await store.sumUsage(org.id, at(0), at(200))).toBe((200 * 201) / 2);
      });

      it('rejects fractional credits', async () => {
        const org = await store.createOrganization(newOrg());
        const entry = { id: newId('use'), orgId: org.id, keyId: null, credits: 0.5, reason: 'brand.lookup', createdAt: at(0) };
        await expect(store.appendUsage([entry])).rejects.toThrow(RangeError);
        expect(await store.sumUsage(org.id, at(-1), at(1))).toBe(0);
      });

      it('writes a batch of 1200 entries in one call, and nothing of a batch that fails', async () => {
        const org = await store.createOrganization(newOrg());
        const good = Array.from({ length: 1200 }, (_, i) => ({ id: newId('use'), orgId: org.id, keyId: null, credits: 1, reason: 'brand.lookup', createdAt: at(i) }));
        await store.appendUsage(good);
        expect(await store.sumUsage(org.id, at(0), at(1200))).toBe(1200);
        const bad = [
          ...Array.from({ length: 600 }, (_, i) => ({ id: newId('use'), orgId: org.id, keyId: null, credits: 1, reason: 'brand.lookup', createdAt: at(5000 + i) })),
          { id: newId('use'), orgId: 'org_does_not_exist', keyId: null, credits: 1, reason: 'brand.lookup', createdAt: at(5000) },
        ];
        await expect(store.appendUsage(bad)).rejects.toThrow();
        expect(await store.sumUsage(org.id, at(5000), at(6000))).toBe(0);
      });
    });

    describe('usage sources, prepaid credits and usage notices', () => {
      const use = (orgId: string, credits: number, createdAt: Date, source?: UsageSource) => ({
        id: newId('use'),
        orgId,
        keyId: null,
        credits,
        reason: 'brand.lookup',
        createdAt,
        ...(source ? { source } : {}),
      });
      const grant = (orgId: string, credits: number, createdAt: Date, amountCents: number | null = null): CreditGrant => ({
        id: newId('use').replace('use_', 'crg_'),
        orgId,
        credits,
        amountCents,
        reason: 'purchase',
        createdAt,
      });

      it('sums each source over [from, to) and the prepaid balance over all time', async () => {
        const org = await store.createOrganization(newOrg());
        const other = await store.createOrganization(newOrg());
        const from = at(10_000);
        const to = at(20_000);
        await store.addCreditGrant(grant(org.id, 1_000, at(0), 5_000));
        await store.addCreditGrant(grant(org.id, 40, at(30_000)));
        await store.addCreditGrant(grant(other.id, 7, at(0)));
        await store.appendUsage([
          use(org.id, 3, at(9_999), 'prepaid'),
          use(org.id, 5, from),
          use(org.id, 11, at(15_000), 'quota'),
          use(org.id, 17, at(15_000), 'prepaid'),
          use(org.id, 23, at(19_999), 'overage'),
          use(org.id, 29, to, 'prepaid'),
          use(other.id, 2, at(15_000), 'prepaid'),
        ]);
        expect(await store.summarizeUsage(org.id, from, to)).toEqual({ quota: 16, prepaid: 17, overage: 23, prepaidBalance: 1_040 - 3 - 17 - 29 });
        expect(await store.sumUsage(org.id, from, to)).toBe(16 + 17 + 23);
        expect(await store.summarizeUsage(other.id, from, to)).toEqual({ quota: 0, prepaid: 2, overage: 0, prepaidBalance: 5 });
        expect(await store.summarizeUsage('org_missing', from, to)).toEqual({ quota: 0, prepaid: 0, overage: 0, prepaidBalance: 0 });
        expect((await store.getOrganization(org.id))?.prepaidCredits).toBe(991);
        expect((await store.listOrganizations()).find((o) => o.id === org.id)?.prepaidCredits).toBe(991);
        expect((await store.updateOrganization(org.id, { quota: 1 }))?.prepaidCredits).toBe(991);
      });

      it('lists credit grants oldest first and rejects fractional credits', async () => {
        const org = await store.createOrganization(newOrg());
        const late = grant(org.id, 20, at(50), 100);
        const early = grant(org.id, 500, at(10));
        await store.addCreditGrant(late);
        await store.addCreditGrant(early);
        expect(await store.listCreditGrants(org.id)).toEqual([early, late]);
        await expect(store.addCreditGrant(grant(org.id, 1.5, at(60)))).rejects.toThrow(RangeError);
        await expect(store.addCreditGrant(grant('org_missing', 5, at(60)))).rejects.toThrow();
        expect((await store.getOrganization(org.id))?.prepaidCredits).toBe(520);
      });

      it('lists grants written in the same millisecond in the order they were written, whatever their ids', async () => {
        const org = await store.createOrganization(newOrg());
        // Ids sorting against the order written, both ways: a tie broken by id would fail one of the two.
        const written = [{ ...grant(org.id, 1, at(70)), id: 'crg_zz' }, { ...grant(org.id, 2, at(70)), id: 'crg_aa' }, { ...grant(org.id, 3, at(70)), id: 'crg_mm' }];
        for (const g of written) await store.addCreditGrant(g);
        expect(await store.listCreditGrants(org.id)).toEqual(written);
      });

      it('lets exactly one of many concurrent claims of a usage notice win', async () => {
        const org = await store.createOrganization(newOrg());
        const notice = { orgId: org.id, period: '2024-05', threshold: 80, createdAt: at(0) };
        const claims = await Promise.all(Array.from({ length: 20 }, () => store.claimUsageNotice(notice)));
        expect(claims.filter(Boolean)).toHaveLength(1);
        expect(await store.claimUsageNotice(notice)).toBe(false);
        expect(await store.claimUsageNotice({ ...notice, threshold: 100 })).toBe(true);
        expect(await store.claimUsageNotice({ ...notice, period: '2024-06' })).toBe(true);
        await store.releaseUsageNotice(org.id, '2024-05', 80);
        expect(await store.claimUsageNotice(notice)).toBe(true);
        expect(await store.claimUsageNotice(notice)).toBe(false);
      });
    });
  });
}
