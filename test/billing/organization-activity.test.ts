/**
 * The dashboard's part of the billing store's contract (issue 23), on SQLite always and PostgreSQL when one answers: credits
 * summed per UTC day and source within [from, to) for one organization only; the organization's standing-access
 * purchases (newest first, limited) and MCP tokens, never another organization's.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessPurchaseCompletion, AgentPayer } from '../../src/domain/access-purchases.js';
import type { UsageEntry, UsageSource } from '../../src/domain/accounts.js';
import type { PaymentClaim } from '../../src/domain/payments.js';
import type { ProductStores } from '../../src/main/product-stores.js';
import type { BillingStore } from '../../src/billing/billing-store.js';
import { migrateToLatest } from '../../src/db/migrations.js';
import { PRODUCT_MIGRATIONS } from '../../src/main/product-stores.js';
import { PG_URL, tempPostgres, tempSqlite, type TempDatabase } from '../store/temp-database.js';
import { needsPostgres } from '../helpers/optional.js';

const NET = 'eip155:84532';
const ASSET = '0x036cbd53842c5426634e7929541ec2318f3dcf7e';
const rid = (prefix: string): string => `${prefix}_${randomBytes(10).toString('hex')}`;
const hex = (bytes: number): string => `0x${randomBytes(bytes).toString('hex')}`;
const sha = (s: string): string => createHash('sha256').update(s).digest('hex');

function entry(orgId: string, at: string, credits: number, source: UsageSource): UsageEntry {
  return { id: rid('use'), orgId, keyId: null, credits, reason: 'brand.lookup', source, createdAt: new Date(at) };
}

/** A purchase completion as AccessSales builds it (fresh organization, key and MCP token), paid at `paidAt`. */
function completion(claim: PaymentClaim, payer: AgentPayer, paidAt: Date, usd: number): AccessPurchaseCompletion {
  const orgId = rid('org');
  const keyId = rid('key');
  const secret = `bb_live_${randomBytes(32).toString('base64url')}`;
  const token = `bb_mcp_${randomBytes(32).toString('base64url')}`;
  return {
    payment: { ...claim, id: rid('pay'), claimKey: claim.key, transaction: hex(32), settledAt: paidAt },
    payer,
    usd,
    credits: usd * 20,
    grant: { id: rid('crg'), credits: usd * 20, amountCents: usd * 100, reason: 'access-purchase', createdAt: paidAt },
    fresh: {
      org: { id: orgId, name: 'Agent', plan: 'free', quota: 0, createdAt: paidAt },
      apiKey: { id: keyId, orgId, name: 'Standing access', secretHash: sha(secret), prefix: secret.slice(0, 12), createdAt: paidAt, revokedAt: null },
      mcpToken: { id: rid('mcp'), orgId, apiKeyId: keyId, tokenHash: sha(token), prefix: token.slice(0, 11), createdAt: paidAt, revokedAt: null },
      sealed: `v1.sealed-${randomBytes(8).toString('hex')}`,
    },
    topUpSealed: `v1.topup-${randomBytes(8).toString('hex')}`,
    paidAt,
  };
}

async function buy(stores: ProductStores, address: string, paidAt: Date, usd: number) {
  const claim: PaymentClaim = {
    key: `x402:${NET}:${ASSET}:${address}:${hex(32)}`,
    method: 'x402',
    network: NET,
    asset: ASSET,
    payer: address,
    payTo: hex(20),
    amount: BigInt(usd) * 1_000_000n,
    route: '/v2/agents/access',
    claimedAt: paidAt,
    validBefore: new Date(paidAt.getTime() + 300_000),
  };
  await stores.payments.claimPayment(claim);
  const purchase = await stores.access.completeAccessPurchase(completion(claim, { kind: 'wallet', network: NET, address }, paidAt, usd));
  if (!purchase) throw new Error('purchase not written');
  return purchase;
}

function organizationActivityContract(name: string, open: () => Promise<TempDatabase>): void {
  describe(`billing store contract, organization activity: ${name}`, () => {
    let temp: TempDatabase;
    let store: BillingStore;

    beforeAll(async () => {
      temp = await open();
      store = temp.stores.billing;
      await migrateToLatest(temp.database, PRODUCT_MIGRATIONS);
    });
    afterAll(async () => temp.cleanup());

    async function org(): Promise<string> {
      return (await store.createOrganization({ id: rid('org'), name: 'Daily', plan: 'paid', quota: 100, createdAt: new Date('2026-03-01T00:00:00Z') })).id;
    }

    it('sums credits per UTC day and source, within [from, to), for the organization only', async () => {
      const orgId = await org();
      const other = await org();
      await store.appendUsage([
        entry(orgId, '2026-02-28T23:59:59.999Z', 50, 'quota'), // before the range
        entry(orgId, '2026-03-01T00:00:00.000Z', 3, 'quota'), // the first instant is in
        entry(orgId, '2026-03-01T23:59:59.999Z', 4, 'quota'),
        entry(orgId, '2026-03-01T12:00:00.000Z', 2, 'prepaid'),
        entry(orgId, '2026-03-03T08:00:00.000Z', 7, 'overage'),
        entry(orgId, '2026-03-03T09:00:00.000Z', 1, 'quota'),
        entry(orgId, '2026-04-01T00:00:00.000Z', 90, 'quota'), // `to` is excluded
        entry(other, '2026-03-01T10:00:00.000Z', 1000, 'quota'),
      ]);
      const days = await store.usageByDay(orgId, new Date('2026-03-01T00:00:00Z'), new Date('2026-04-01T00:00:00Z'));
      expect(days).toEqual([
        { day: '2026-03-01', quota: 7, prepaid: 2, overage: 0 },
        { day: '2026-03-03', quota: 1, prepaid: 0, overage: 7 },
      ]);
      expect(await store.usageByDay(rid('org'), new Date('2026-03-01T00:00:00Z'), new Date('2026-04-01T00:00:00Z'))).toEqual([]);
    });

    it('agrees with summarizeUsage over the same range', async () => {
      const orgId = await org();
      const entries = Array.from({ length: 40 }, (_, i) => entry(orgId, new Date(Date.UTC(2026, 4, 1 + (i % 20), i % 24)).toISOString(), 1 + (i % 5), (['quota', 'prepaid', 'overage'] as const)[i % 3] ?? 'quota'));
      await store.appendUsage(entries);
      const from = new Date('2026-05-01T00:00:00Z');
      const to = new Date('2026-06-01T00:00:00Z');
      const days = await store.usageByDay(orgId, from, to);
      const summary = await store.summarizeUsage(orgId, from, to);
      const sum = (source: UsageSource): number => days.reduce((n, d) => n + d[source], 0);
      expect({ quota: sum('quota'), prepaid: sum('prepaid'), overage: sum('overage') }).toEqual({ quota: summary.quota, prepaid: summary.prepaid, overage: summary.overage });
      expect(days).toHaveLength(20);
      expect(days.map((d) => d.day)).toEqual([...days.map((d) => d.day)].sort());
    });

    it("lists the organization's purchases newest first (limited) and its MCP tokens, never another's", async () => {
      const address = hex(20);
      const first = await buy(temp.stores, address, new Date('2026-03-02T10:00:00Z'), 5);
      const topUp = await buy(temp.stores, address, new Date('2026-03-05T10:00:00Z'), 7);
      const stranger = await buy(temp.stores, hex(20), new Date('2026-03-06T10:00:00Z'), 1);
      expect(topUp).toMatchObject({ orgId: first.orgId, topUp: true });

      const purchases = await temp.stores.access.listAccessPurchases(first.orgId, 10);
      expect(purchases.map((p) => [p.usd, p.credits, p.topUp])).toEqual([
        [7, 140, true],
        [5, 100, false],
      ]);
      expect(purchases[0]).toEqual(await temp.stores.access.findAccessPurchase(topUp.paymentKey));
      expect(await temp.stores.access.listAccessPurchases(first.orgId, 1)).toEqual([purchases[0]]);

      const tokens = await temp.stores.access.listMcpTokens(first.orgId);
      expect(tokens).toHaveLength(1);
      expect(tokens[0]).toMatchObject({ orgId: first.orgId, apiKeyId: first.apiKeyId, revokedAt: null });
      expect((await temp.stores.access.listMcpTokens(stranger.orgId)).map((t) => t.orgId)).toEqual([stranger.orgId]);
      expect(await temp.stores.access.listAccessPurchases(rid('org'), 10)).toEqual([]);
    });
  });
}

organizationActivityContract('SQLite (temp file)', tempSqlite);
needsPostgres.describe('PostgreSQL billing store', () => {
  organizationActivityContract('PostgreSQL (fresh schema)', () => tempPostgres(PG_URL ?? ''));
});
