/**
 * Standing access paid by card over MPP (spec 5.3: "over MPP also by card"; ADR 0029), on the real service
 * (SQLite, PostgreSQL) with the embedded card processor: the real `mppx` client with its `stripe` charge method buys
 * a key on a server listening on loopback, the card token granted for the amount by the processor (as an agent's
 * platform grants a Stripe Shared Payment Token). A card names no wallet, so every card purchase buys its own
 * organization and key; refused tokens (over their limit, expired, used) charge and buy nothing; the retry rule
 * and the 409 hold for cards as for wallets.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Challenge, Receipt } from 'mppx';
import { Mppx, stripe } from 'mppx/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBEDDED_CARD_NETWORK } from '../../src/domain/access-purchases.js';
import { buildApp } from '../../src/http/app.js';
import { appDepsFor } from '../../src/main/app-deps.js';
import { CardPayments } from '../../src/payments/access-card.js';
import { AccessSales } from '../../src/payments/access-sales.js';
import { EmbeddedCardProcessor } from '../../src/payments/embedded-card-processor.js';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';
import { sampleBrand } from '../store/sample-brand.js';
import { describeEachBackend } from '../helpers/backends.js';
import { readStoredData } from '../helpers/database-files.js';

describeEachBackend('standing access by card', (backend) => {
  let stack: TestStack;
  let app: FastifyInstance;
  /** The same service with an AccessSales whose pre-delivery step the tests can make fail once. */
  let faulty: FastifyInstance;
  let failNext = 0;
  let processor: EmbeddedCardProcessor;

  beforeAll(async () => {
    stack = await startTestStack({}, { backend });
    app = stack.app;
    processor = new EmbeddedCardProcessor(stack.services.stores.access);
    const now = new Date();
    await stack.services.stores.brands.saveBrand({ brand: sampleBrand('acme.com'), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: 'acme.com' }]);
    const p = stack.services.config.payments;
    const secretKey = randomBytes(32).toString('hex');
    const installationKey = randomBytes(32);
    const sales = new AccessSales({
      ...stack.services.stores,
      accounts: stack.services.stores.billing,
      settings: { network: p.network, asset: p.asset, assetName: p.assetName, assetVersion: p.assetVersion, payTo: p.payTo, priceUnits: p.priceUnits, maxTimeoutSeconds: p.maxTimeoutSeconds, facilitatorUrl: null },
      mppSecretKey: null,
      card: new CardPayments({ secretKey, realm: 'brandbase.test', networkId: EMBEDDED_CARD_NETWORK, processor, stripeSecretKey: null, logger: stack.services.logger, now: () => new Date() }),
      publicUrl: stack.services.config.publicUrl,
      installationKey: () => installationKey,
      logger: stack.services.logger,
      onCredits: (orgId) => stack.services.meter.forget(orgId),
      beforeDelivery: () => {
        if (failNext === 0) return Promise.resolve();
        failNext--;
        return Promise.reject(new Error('injected: the connection to the store dropped'));
      },
    });
    faulty = await buildApp({ ...appDepsFor(stack.services), access: sales });
    await faulty.ready();
  });

  afterAll(async () => {
    await faulty?.close();
    await stack?.close();
  });

  interface Bought {
    apiKey?: string;
    mcpToken?: string;
    topUp: boolean;
    key: { id: string };
    organization: { id: string };
    credits: { added: number; balance: number };
    agent: { payer: string; wallet?: unknown; addCredits: { howTo: string } };
  }

  /**
   * The mppx client paying by card. Its platform grants a card token for the amount the challenge asks, with
   * `limit` changing what it grants (a token below the price, or one that expires at once).
   */
  function cardClient(grant: { limit?: (amount: bigint) => bigint; expiresInSeconds?: number } = {}) {
    const granted: string[] = [];
    const mppx = Mppx.create({
      polyfill: false,
      methods: [
        stripe.charge({
          paymentMethod: 'pm_card_visa',
          createToken: async ({ amount, currency }) => {
            const max = grant.limit ? grant.limit(BigInt(amount)) : BigInt(amount);
            const { token } = await processor.issueToken({ maxAmount: max, currency, expiresInSeconds: grant.expiresInSeconds ?? 600 });
            granted.push(token);
            return token;
          },
        }),
      ],
    });
    return { mppx, granted };
  }

  /** A card credential for the 402 of `usd` on `target`, as the mppx client builds it. */
  async function cardCredential(target: FastifyInstance, usd: string, client = cardClient()): Promise<string> {
    const res = await target.inject({ method: 'POST', url: `/v2/agents/access?usd=${usd}` });
    return client.mppx.createCredential(new Response(res.body, { status: res.statusCode, headers: res.headers as Record<string, string> }));
  }

  function post(target: FastifyInstance, usd: string, authorization?: string) {
    return target.inject({ method: 'POST', url: `/v2/agents/access?usd=${usd}`, headers: authorization === undefined ? {} : { authorization } });
  }

  async function cardPayments(): Promise<number> {
    return (await stack.services.stores.payments.listPayments({ limit: 100_000 })).filter((p) => p.payer === 'card').length;
  }

  describe('the card offer', () => {
    it('the offer lists cards, and the 402 carries a card challenge for N dollars in cents next to the wallet ones', async () => {
      const offer = (await app.inject({ url: '/v2/agents/access' })).json<{ paymentMethods: Record<string, unknown>[] }>();
      expect(offer.paymentMethods).toContainEqual(expect.objectContaining({ protocol: 'mpp', method: 'stripe', paymentMethodTypes: ['card'], currency: 'usd', processor: 'embedded' }));
      const res = await post(app, '7');
      expect(res.statusCode).toBe(402);
      const challenges = Challenge.deserializeList(String(res.headers['www-authenticate']));
      expect(challenges.map((c) => c.method)).toEqual(['evm', 'stripe']);
      expect(challenges[1]?.request).toMatchObject({ amount: '700', currency: 'usd', methodDetails: { networkId: EMBEDDED_CARD_NETWORK, paymentMethodTypes: ['card'] } });
      expect(res.headers['payment-required']).toBeDefined();
    });
  });

  describe('buying standing access by card', () => {
    it('the mppx client pays by card on loopback: a key of its own organization, spent by a lookup; the viewer says a card paid', async () => {
      const address = await app.listen({ port: 0, host: '127.0.0.1' });
      const client = cardClient();
      const res = await client.mppx.fetch(`${address}/v2/agents/access?usd=3`, { method: 'POST' });
      expect(res.status).toBe(200);
      const receipt = Receipt.fromResponse(res);
      expect(receipt).toMatchObject({ method: 'stripe', status: 'success' });
      expect(receipt.reference).toMatch(/^pi_bb_/);
      const bought = (await res.json()) as Bought;
      expect(bought.apiKey).toMatch(/^bb_live_/);
      expect(bought.mcpToken).toMatch(/^bb_mcp_/);
      expect(bought).toMatchObject({ topUp: false, credits: { added: 60, balance: 60 }, agent: { payer: 'card' } });
      expect(bought.agent.wallet).toBeUndefined();
      const [row] = (await stack.services.stores.payments.listPayments({ limit: 100_000 })).filter((p) => p.transaction === receipt.reference);
      expect(row).toMatchObject({ method: 'mpp', network: `stripe:${EMBEDDED_CARD_NETWORK}`, asset: 'usd', payer: 'card', amount: 300n, route: '/v2/agents/access' });

      const lookup = await fetch(`${address}/v2/brands/acme.com`, { headers: bearer(bought.apiKey ?? '') });
      expect(lookup.status).toBe(200);
      const viewer = await app.inject({ url: '/v2/viewer', headers: bearer(bought.apiKey ?? '') });
      expect(viewer.json()).toMatchObject({ id: bought.key.id, agent: { payer: 'card', addCredits: { method: 'POST' } } });
      expect(viewer.json<{ agent: { addCredits: { howTo: string } } }>().agent.addCredits.howTo).toMatch(/each card payment buys its own organization and key/);
      expect(viewer.json<{ agent: Record<string, unknown> }>().agent).not.toHaveProperty('wallet');
    });

    it('every card purchase buys its own organization and key, never a top-up', async () => {
      const first = (await post(app, '1', await cardCredential(app, '1'))).json<Bought>();
      const second = await post(app, '1', await cardCredential(app, '1'));
      expect(second.statusCode).toBe(200);
      const bought = second.json<Bought>();
      expect(bought.topUp).toBe(false);
      expect(bought.organization.id).not.toBe(first.organization.id);
      expect(bought.key.id).not.toBe(first.key.id);
      expect(bought.apiKey).not.toBe(first.apiKey);
    });
  });

  describe('refused cards buy nothing', () => {
    it('a card token granted for less than the price: 402, no charge, no key', async () => {
      const before = await cardPayments();
      const client = cardClient({ limit: (amount) => amount - 1n });
      const res = await post(app, '2', await cardCredential(app, '2', client));
      expect(res.statusCode).toBe(402);
      expect(res.json<{ message: string }>().message).toMatch(/could not be settled/);
      expect(res.json<{ reason: string }>().reason).toMatch(/exceeds the shared payment token's limit/);
      expect(res.body).not.toContain('bb_live_');
      expect(await cardPayments()).toBe(before);
      // The token was not charged: its processor has no charge for it.
      expect(await processor.chargeOf(client.granted[0] ?? '')).toBeNull();
    });

    it('an expired card token: 402, nothing bought', async () => {
      const before = await cardPayments();
      const res = await post(app, '1', await cardCredential(app, '1', cardClient({ expiresInSeconds: 0 })));
      expect(res.statusCode).toBe(402);
      expect(res.json<{ reason: string }>().reason).toMatch(/expired/);
      expect(await cardPayments()).toBe(before);
    });

    it('a card token already charged, presented again for a new challenge: 409, one charge only', async () => {
      const client = cardClient();
      expect((await post(app, '1', await cardCredential(app, '1', client))).statusCode).toBe(200);
      const before = await cardPayments();
      const token = client.granted[0] ?? '';
      // The same token inside a credential for a fresh challenge: another payment as far as MPP goes.
      const fresh = await post(app, '1');
      const challenge = Challenge.deserializeList(String(fresh.headers['www-authenticate'])).find((c) => c.method === 'stripe');
      if (challenge === undefined) throw new Error('no card challenge');
      const { Credential } = await import('mppx');
      const credential = Credential.serialize({ challenge, payload: { spt: token } });
      const res = await post(app, '1', credential);
      // Same token: same claim (one token buys once), a purchase that was already delivered.
      expect(res.statusCode).toBe(409);
      expect(res.headers['x-bf-error']).toBe('credential_already_delivered');
      expect(await cardPayments()).toBe(before);
    });

    it('a credential for a challenge this server did not issue: 402, nothing charged', async () => {
      const res = await post(app, '1');
      const challenge = Challenge.deserializeList(String(res.headers['www-authenticate'])).find((c) => c.method === 'stripe');
      if (challenge === undefined) throw new Error('no card challenge');
      const { token } = await processor.issueToken({ maxAmount: 100n });
      const { Credential } = await import('mppx');
      const forged = Credential.serialize({ challenge: { ...challenge, id: 'x'.repeat(43) }, payload: { spt: token } });
      const refused = await post(app, '1', forged);
      expect(refused.statusCode).toBe(402);
      expect(refused.json<{ reason: string }>().reason).toMatch(/^invalid-challenge/);
      expect(await processor.chargeOf(token)).toBeNull();
    });
  });

  describe('exactly-once delivery by card', () => {
    it('an error after the charge says to retry; the exact retry gets the key once, then 409; one charge', async () => {
      const client = cardClient();
      const credential = await cardCredential(faulty, '1', client);
      const before = await cardPayments();
      failNext = 1;
      const failed = await post(faulty, '1', credential);
      expect(failed.statusCode).toBe(503);
      expect(failed.headers['x-bf-error']).toBe('access_purchase_pending');
      expect(failed.body).not.toContain('bb_live_');
      const retry = await post(faulty, '1', credential);
      expect(retry.statusCode).toBe(200);
      expect(retry.json<Bought>().apiKey).toMatch(/^bb_live_/);
      expect(Receipt.deserialize(String(retry.headers['payment-receipt'])).reference).toBe(await processor.chargeOf(client.granted[0] ?? ''));
      const lost = await post(faulty, '1', credential);
      expect(lost.statusCode).toBe(409);
      expect(lost.json()).toMatchObject({ code: 'credential_already_delivered' });
      expect(await cardPayments()).toBe(before + 1);
    });

    it('20 concurrent copies of one card credential: one charge, one key', async () => {
      const credential = await cardCredential(app, '4');
      const before = await cardPayments();
      const orgs = (await stack.services.stores.billing.listOrganizations()).length;
      const answers = await Promise.all(Array.from({ length: 20 }, () => post(app, '4', credential)));
      expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
      expect(answers.every((a) => [200, 409, 503].includes(a.statusCode))).toBe(true);
      expect(answers.filter((a) => a.body.includes('bb_live_'))).toHaveLength(1);
      expect(await cardPayments()).toBe(before + 1);
      expect((await stack.services.stores.billing.listOrganizations()).length).toBe(orgs + 1);
    });
  });

  describe('card secrets at rest', () => {
    it('no card token, API key or MCP token of a card purchase is in the database in plaintext', async () => {
      const client = cardClient();
      const bought = (await post(app, '1', await cardCredential(app, '1', client))).json<Bought>();
      const secrets = [client.granted[0] ?? '', bought.apiKey ?? '', bought.mcpToken ?? ''];
      expect(secrets.every((x) => /^(spt_bb_|bb_live_|bb_mcp_)/.test(x))).toBe(true);
      const bytes = Buffer.concat((await readStoredData(stack.database)).map((f) => f.bytes));
      for (const secret of secrets) expect(bytes.includes(Buffer.from(secret.replace(/^(spt_bb_|bb_live_|bb_mcp_)/, ''))), 'secret in the database').toBe(false);
    });
  });
});
