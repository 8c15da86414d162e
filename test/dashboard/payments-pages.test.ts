/**
 * The payments page (issue 23) on the real service: an organization bought through standing access (a wallet's
 * x402 payment, then a top-up from the same wallet, written by the store's purchase transaction as AccessSales
 * writes it) shows its purchases, the key and MCP token they issued (prefixes only, never a hash or secret), and
 * every prepaid credit grant, the operator's included; members may look; another organization's page is 404. In
 * Chromium: zero serious axe violations, no overflow at 375 and 1440 px.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BillingAdmin } from '../../src/billing/billing-admin.js';
import { billingDefaults } from '../../src/billing/billing-defaults.js';
import type { AccessPurchase, AccessPurchaseCompletion } from '../../src/domain/access-purchases.js';
import { newId } from '../../src/domain/ids.js';
import type { PaymentClaim } from '../../src/domain/payments.js';
import type { ProductStores } from '../../src/main/product-stores.js';
import { addMember, signInThroughEmail } from '../helpers/dashboard-sign-in.js';
import { openBrowser, startOrgPages, textOf, type OrgPagesFixture, type Person } from './org-pages-fixture.js';
import { describeEachBackend } from '../helpers/backends.js';
import { needsChromium } from '../helpers/optional.js';

describeEachBackend('payments page', (backend) => {
  const NET = 'eip155:84532';
  const ASSET = '0x036cbd53842c5426634e7929541ec2318f3dcf7e';
  const WALLET = `0x${randomBytes(20).toString('hex')}`;
  const sha = (s: string): string => createHash('sha256').update(s).digest('hex');

  let f: OrgPagesFixture;
  let agentOrg: string;
  let agentOwner: Person;
  let first: AccessPurchase;
  const secrets = { key: `bb_live_${randomBytes(32).toString('base64url')}`, token: `bb_mcp_${randomBytes(32).toString('base64url')}` };
  const page = (orgId: string): string => `/dashboard/orgs/${orgId}/payments`;

  /** One x402 payment of `usd` from WALLET, completed as AccessSales completes it (a new organization, or a top-up). */
  async function pay(stores: ProductStores, usd: number, paidAt: Date): Promise<AccessPurchase> {
    const claim: PaymentClaim = {
      key: `x402:${NET}:${ASSET}:${WALLET}:0x${randomBytes(32).toString('hex')}`,
      method: 'x402',
      network: NET,
      asset: ASSET,
      payer: WALLET,
      payTo: `0x${randomBytes(20).toString('hex')}`,
      amount: BigInt(usd) * 1_000_000n,
      route: '/v2/agents/access',
      claimedAt: paidAt,
      validBefore: new Date(paidAt.getTime() + 300_000),
    };
    await stores.payments.claimPayment(claim);
    const orgId = newId('org');
    const keyId = newId('key');
    const completion: AccessPurchaseCompletion = {
      payment: { ...claim, id: newId('pay'), claimKey: claim.key, transaction: `0x${randomBytes(32).toString('hex')}`, settledAt: paidAt },
      payer: { kind: 'wallet', network: NET, address: WALLET },
      usd,
      credits: usd * 20,
      grant: { id: newId('use').replace(/^use_/, 'crg_'), credits: usd * 20, amountCents: usd * 100, reason: 'access-purchase', createdAt: paidAt },
      fresh: {
        org: { id: orgId, name: 'Agent wallet org', plan: 'free', quota: 0, createdAt: paidAt },
        apiKey: { id: keyId, orgId, name: 'Standing access', secretHash: sha(secrets.key), prefix: secrets.key.slice(0, 12), createdAt: paidAt, revokedAt: null },
        mcpToken: { id: `mcp_${randomBytes(12).toString('hex')}`, orgId, apiKeyId: keyId, tokenHash: sha(secrets.token), prefix: secrets.token.slice(0, 11), createdAt: paidAt, revokedAt: null },
        sealed: 'v1.sealed-stand-in',
      },
      topUpSealed: 'v1.topup-stand-in',
      paidAt,
    };
    const purchase = await stores.access.completeAccessPurchase(completion);
    if (!purchase) throw new Error('purchase not written');
    return purchase;
  }

  beforeAll(async () => {
    f = await startOrgPages({ backend });
    const { services } = f.stack;
    first = await pay(services.stores, 5, new Date(Date.now() - 3_600_000));
    await pay(services.stores, 12, new Date());
    agentOrg = first.orgId;
    await new BillingAdmin(services.stores.billing, billingDefaults(services.config)).addCredits(agentOrg, 40, null);
    await addMember(services, agentOrg, 'agent-owner@acme.test', 'owner');
    await addMember(services, agentOrg, f.memberA.email, 'member');
    agentOwner = { email: 'agent-owner@acme.test', ...(await signInThroughEmail(f.stack.app, f.smtp, 'agent-owner@acme.test')) };
  });
  afterAll(async () => f?.close());

  describe('payments page', () => {
    it('lists the purchases, the key and MCP token they issued, and every credit grant', async () => {
      const res = await f.get(agentOwner, page(agentOrg));
      expect(res.statusCode).toBe(200);
      const text = textOf(res.body);
      expect(text).toContain('2 standing-access purchases, $17.00 in all');
      expect(text).toMatch(/x402 wallet 0x[0-9a-f]{40} \(eip155:84532\) \$12\.00 240 top-up/);
      expect(text).toMatch(/x402 wallet 0x[0-9a-f]{40} \(eip155:84532\) \$5\.00 100 new key not delivered/);
      expect(text).toContain(WALLET);
      // The key and token by prefix only: never the secret, never the stored hash.
      expect(text).toContain(`Standing access ${secrets.key.slice(0, 12)}…`);
      expect(text).toContain(`${secrets.token.slice(0, 11)}… Standing access`);
      expect(res.body).not.toContain(secrets.key);
      expect(res.body).not.toContain(sha(secrets.key));
      expect(res.body).not.toContain(sha(secrets.token));
      // Grants, newest first: the operator's 40, then the two purchases.
      expect(text).toMatch(/Prepaid credits added .*40 — added by the operator .*240 \$12\.00 standing-access purchase .*100 \$5\.00 standing-access purchase/);
    });

    it('shows an organization without purchases what standing access is', async () => {
      const text = textOf((await f.get(f.ownerA, page(f.orgA))).body);
      expect(text).toContain('0 standing-access purchases, $0.00 in all');
      expect(text).toContain('No standing-access purchases.');
      expect(text).toContain('No keys were bought through standing access.');
    });

    it('lets members look, and answers 404 for an organization the person is not in', async () => {
      expect((await f.get(f.memberA, page(agentOrg))).statusCode).toBe(200);
      const refused = await f.get(f.ownerB, page(agentOrg));
      expect(refused.statusCode).toBe(404);
      expect(refused.body).not.toContain(WALLET);
      expect((await f.get(agentOwner, page(f.orgA))).statusCode).toBe(404);
    });
  });

  // The browser checks render what the inject tests above already read on both backends: once, on SQLite.
  if (backend === 'sqlite') needsChromium('browser').describe('payments page in Chromium', () => {
    it('has no serious accessibility violations and no horizontal overflow at 375 and 1440 px', async () => {
      const browser = await openBrowser(f, agentOwner);
      try {
        expect(await browser.open(page(agentOrg))).toBe(200);
        const { violations, overflow } = await browser.check('dashboard-payments');
        expect(violations).toEqual([]);
        expect(overflow).toEqual({ 375: 0, 1440: 0 });
      } finally {
        await browser.close();
      }
    });
  });
});
