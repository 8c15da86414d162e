/**
 * The standing-access part of the Store contract (migration 0012, ADR 0029), on every backend against a real
 * database: the purchase is one transaction (payment row, settled claim, organization, key, MCP token, credits);
 * one payment buys once, also from two connections at once; a wallet owns one organization, even when it pays
 * twice at the same moment; each card purchase is its own organization; delivery is taken once; the embedded card
 * processor's tokens are charged once.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessPurchaseCompletion, AgentPayer, CardCharge } from '../../src/domain/access-purchases.js';
import type { PaymentClaim } from '../../src/domain/payments.js';
import type { AccessStore } from '../../src/payments/access-store.js';
import type { PaymentStore } from '../../src/payments/payment-store.js';
import type { BillingStore } from '../../src/billing/billing-store.js';
import type { TempDatabase } from '../store/temp-database.js';

const NET = 'eip155:84532';
const ASSET = '0x036cbd53842c5426634e7929541ec2318f3dcf7e';
const T0 = new Date('2026-03-04T05:06:07.000Z');
const at = (ms: number): Date => new Date(T0.getTime() + ms);
const hex = (bytes: number): string => `0x${randomBytes(bytes).toString('hex')}`;
const sha = (s: string): string => createHash('sha256').update(s).digest('hex');
const rid = (prefix: string): string => `${prefix}_${randomBytes(10).toString('hex')}`;

function claimFor(payer: string): PaymentClaim {
  return {
    key: `x402:${NET}:${ASSET}:${payer}:${hex(32)}`,
    method: 'x402',
    network: NET,
    asset: ASSET,
    payer,
    payTo: hex(20),
    amount: 5_000_000n,
    route: '/v2/agents/access',
    claimedAt: at(0),
    validBefore: at(300_000),
  };
}

/** A completion as AccessSales builds it: fresh ids and secrets, their hashes, a sealed stand-in. */
function completion(claim: PaymentClaim, payer: AgentPayer, usd = 5): AccessPurchaseCompletion & { secret: string; token: string } {
  const orgId = rid('org');
  const keyId = rid('key');
  const secret = `bb_live_${randomBytes(32).toString('base64url')}`;
  const token = `bb_mcp_${randomBytes(32).toString('base64url')}`;
  return {
    secret,
    token,
    payment: { ...claim, id: rid('pay'), claimKey: claim.key, transaction: hex(32), settledAt: at(10) },
    payer,
    usd,
    credits: usd * 20,
    grant: { id: rid('crg'), credits: usd * 20, amountCents: usd * 100, reason: 'access-purchase', createdAt: at(10) },
    fresh: {
      org: { id: orgId, name: 'Agent', plan: 'free', quota: 0, createdAt: at(10) },
      apiKey: { id: keyId, orgId, name: 'Standing access', secretHash: sha(secret), prefix: secret.slice(0, 12), createdAt: at(10), revokedAt: null },
      mcpToken: { id: rid('mcp'), orgId, apiKeyId: keyId, tokenHash: sha(token), prefix: token.slice(0, 11), createdAt: at(10), revokedAt: null },
      sealed: `v1.sealed-new-${randomBytes(8).toString('hex')}`,
    },
    topUpSealed: `v1.sealed-topup-${randomBytes(8).toString('hex')}`,
    paidAt: at(10),
  };
}

/**
 * `peerRaces`: concurrent calls alternate between the two connections. Off for SQLite in one thread, where a second
 * better-sqlite3 handle would block the thread waiting for a lock the first handle can then never release.
 */
export function accessStoreContract(name: string, open: () => Promise<TempDatabase>, peerRaces: boolean): void {
  describe(`Store contract, standing access: ${name}`, () => {
    let temp: TempDatabase;
    /** Billing's store: the organizations, keys and grants a purchase writes. */
    let store: BillingStore;
    let peer: BillingStore;
    let access: AccessStore;
    let peerAccess: AccessStore;
    let payments: PaymentStore;
    let peerPayments: PaymentStore;
    const racer = (i: number): AccessStore => (peerRaces && i % 2 ? peerAccess : access);

    beforeAll(async () => {
      temp = await open();
      store = temp.stores.billing;
      ({ access, payments } = temp.stores);
      await temp.migrate();
      const other = await temp.openPeer();
      peer = other.stores.billing;
      ({ access: peerAccess, payments: peerPayments } = other.stores);
    });
    afterAll(async () => temp.cleanup());

    async function purchase(payer: AgentPayer, address = hex(20)) {
      const claim = claimFor(address);
      await payments.claimPayment(claim);
      const c = completion(claim, payer);
      return { c, claim, purchase: await access.completeAccessPurchase(c) };
    }

    it('writes a wallet purchase in one go: payment row, settled claim, organization, key, MCP token, credits', async () => {
      const address = hex(20);
      const payer: AgentPayer = { kind: 'wallet', network: NET, address };
      const { c, claim, purchase: p } = await purchase(payer, address);
      expect(p).toEqual({
        paymentKey: claim.key,
        method: 'x402',
        payer,
        usd: 5,
        credits: 100,
        orgId: c.fresh.org.id,
        apiKeyId: c.fresh.apiKey.id,
        topUp: false,
        paidAt: at(10),
        deliveredAt: null,
      });
      expect(await peerAccess.findAccessPurchase(claim.key)).toEqual(p);
      expect((await peerPayments.findPaymentClaim(claim.key))?.state).toBe('settled');
      expect((await peerPayments.listPayments({ limit: 10_000 })).find((r) => r.claimKey === claim.key)).toMatchObject({ route: '/v2/agents/access', amount: 5_000_000n });
      expect((await peer.getOrganization(c.fresh.org.id))?.prepaidCredits).toBe(100);
      expect((await peer.findApiKeyBySecretHash(sha(c.secret)))?.id).toBe(c.fresh.apiKey.id);
      expect(await peerAccess.findMcpTokenByHash(sha(c.token))).toEqual({ ...c.fresh.mcpToken });
      expect(await peerAccess.agentOfApiKey(c.fresh.apiKey.id)).toEqual(payer);
    });

    it('tops up the organization a wallet owns: same organization and key, credits added, nothing new created', async () => {
      const address = hex(20);
      const payer: AgentPayer = { kind: 'wallet', network: NET, address };
      const first = await purchase(payer, address);
      const orgs = (await store.listOrganizations()).length;
      const second = await purchase(payer, address);
      expect(second.purchase).toMatchObject({ orgId: first.c.fresh.org.id, apiKeyId: first.c.fresh.apiKey.id, topUp: true });
      expect((await store.listOrganizations()).length).toBe(orgs);
      expect(await store.findApiKeyBySecretHash(sha(second.c.secret))).toBeNull();
      expect(await access.findMcpTokenByHash(sha(second.c.token))).toBeNull();
      expect((await store.getOrganization(first.c.fresh.org.id))?.prepaidCredits).toBe(200);
      // The same address on another network is another wallet.
      const other = await purchase({ kind: 'wallet', network: 'eip155:8453', address }, address);
      expect(other.purchase?.topUp).toBe(false);
    });

    it('gives every card purchase its own organization and key', async () => {
      const a = await purchase({ kind: 'card' });
      const b = await purchase({ kind: 'card' });
      expect(a.purchase?.orgId).not.toBe(b.purchase?.orgId);
      expect(b.purchase?.topUp).toBe(false);
      expect(await access.agentOfApiKey(a.c.fresh.apiKey.id)).toEqual({ kind: 'card' });
    });

    it('buys once per payment, also with 20 concurrent completions', async () => {
      const claim = claimFor(hex(20));
      await payments.claimPayment(claim);
      const payer: AgentPayer = { kind: 'wallet', network: NET, address: claim.payer };
      const orgs = (await store.listOrganizations()).length;
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => racer(i).completeAccessPurchase(completion(claim, payer))));
      expect(results.filter((r) => r !== null)).toHaveLength(1);
      expect((await store.listOrganizations()).length).toBe(orgs + 1);
      expect((await payments.listPayments({ limit: 10_000 })).filter((r) => r.claimKey === claim.key)).toHaveLength(1);
    });

    it('keeps one organization per wallet when it pays ten times at once', async () => {
      const address = hex(20);
      const payer: AgentPayer = { kind: 'wallet', network: NET, address };
      const orgs = (await store.listOrganizations()).length;
      const claims = Array.from({ length: 10 }, () => claimFor(address));
      for (const c of claims) await payments.claimPayment(c);
      const results = await Promise.all(claims.map((c, i) => racer(i).completeAccessPurchase(completion(c, payer))));
      expect(results.every((r) => r !== null)).toBe(true);
      expect(new Set(results.map((r) => r?.orgId)).size).toBe(1);
      expect(results.filter((r) => r?.topUp === false)).toHaveLength(1);
      expect((await store.listOrganizations()).length).toBe(orgs + 1);
      expect((await store.getOrganization(results[0]?.orgId ?? ''))?.prepaidCredits).toBe(1000);
    });

    it('hands delivery to one caller, only with an accepted seal and within the window, and wipes the seal', async () => {
      const { c, claim } = await purchase({ kind: 'card' });
      const seen: (string | null)[] = [];
      expect(await access.takeAccessDelivery(claim.key, at(20), at(-1), () => false)).toBeNull();
      expect(await access.takeAccessDelivery(claim.key, at(20), at(11), () => true)).toBeNull();
      const takes = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          racer(i).takeAccessDelivery(claim.key, at(30), at(0), (sealed) => {
            seen.push(sealed);
            return true;
          }),
        ),
      );
      const won = takes.filter((t) => t !== null);
      expect(won).toHaveLength(1);
      expect(won[0]).toMatchObject({ sealed: c.fresh.sealed, purchase: { deliveredAt: at(30) } });
      expect(seen[0]).toBe(c.fresh.sealed);
      expect((await access.findAccessPurchase(claim.key))?.deliveredAt).toEqual(at(30));
      expect(await access.takeAccessDelivery(claim.key, at(40), at(0), () => true)).toBeNull();
    });

    it('wipes the seals of purchases paid before a time', async () => {
      const { claim } = await purchase({ kind: 'card' });
      expect(await access.wipeAccessSeals(at(11))).toBeGreaterThanOrEqual(1);
      const after: (string | null)[] = [];
      await access.takeAccessDelivery(claim.key, at(20), at(0), (sealed) => {
        after.push(sealed);
        return false;
      });
      expect(after).toEqual([null]);
    });

    it('has no agent for a key created any other way', async () => {
      const org = await store.createOrganization({ id: rid('org'), name: 'Dashboard', plan: 'paid', quota: 10, createdAt: at(0) });
      const keyId = rid('key');
      await store.createApiKey({ id: keyId, orgId: org.id, name: 'k', secretHash: sha(hex(32)), prefix: 'bb_live_abcd', createdAt: at(0), revokedAt: null });
      expect(await access.agentOfApiKey(keyId)).toBeNull();
      expect(await access.findMcpTokenByHash(sha('nothing'))).toBeNull();
    });

    describe('card tokens (embedded card processor)', () => {
      const charge = (tokenHash: string, over: Partial<CardCharge> = {}): CardCharge => ({
        tokenHash,
        amount: 500n,
        currency: 'usd',
        idempotencyHash: sha(hex(16)),
        paymentIntent: rid('pi'),
        at: at(1_000),
        ...over,
      });
      async function issued(maxAmount = 500n, expiresAt = at(60_000)): Promise<string> {
        const tokenHash = sha(hex(32));
        await access.issueCardToken({ tokenHash, currency: 'usd', maxAmount, expiresAt, createdAt: at(0) });
        return tokenHash;
      }

      it('charges a token once; the same idempotency key answers the same charge again, another key is refused', async () => {
        const token = await issued();
        const first = charge(token);
        expect(await access.chargeCardToken(first)).toEqual({ ok: true, paymentIntent: first.paymentIntent, replayed: false });
        expect(await access.cardTokenCharge(token)).toBe(first.paymentIntent);
        expect(await peerAccess.chargeCardToken({ ...first, paymentIntent: rid('pi') })).toEqual({ ok: true, paymentIntent: first.paymentIntent, replayed: true });
        expect(await access.chargeCardToken(charge(token))).toEqual({ ok: false, reason: 'token_used' });
      });

      it('refuses unknown, expired, over-limit and other-currency charges without using the token', async () => {
        expect(await access.chargeCardToken(charge(sha('never issued')))).toEqual({ ok: false, reason: 'no_such_token' });
        expect(await access.chargeCardToken(charge(await issued(500n, at(1_000))))).toEqual({ ok: false, reason: 'token_expired' });
        const small = await issued(499n);
        expect(await access.chargeCardToken(charge(small))).toEqual({ ok: false, reason: 'amount_too_large' });
        expect(await access.chargeCardToken(charge(small, { currency: 'eur', amount: 100n }))).toEqual({ ok: false, reason: 'currency_mismatch' });
        expect(await access.cardTokenCharge(small)).toBeNull();
        expect((await access.chargeCardToken(charge(small, { amount: 499n }))).ok).toBe(true);
      });

      it('charges a token once when ten charges with different keys race', async () => {
        const token = await issued();
        const results = await Promise.all(Array.from({ length: 10 }, (_, i) => racer(i).chargeCardToken(charge(token))));
        expect(results.filter((r) => r.ok)).toHaveLength(1);
        expect(results.filter((r) => !r.ok && r.reason === 'token_used')).toHaveLength(9);
      });
    });
  });
}
