/**
 * Standing access (spec 5.3, ADR 0029) on the real service (SQLite, PostgreSQL) with the embedded facilitator: the
 * real `@x402/fetch` client and the real `mppx` client buy an API key on a server listening on loopback, then use
 * it; top-ups from the same wallet; the retry rule after an injected error (time through an injected clock); the
 * 409 of a delivered or expired purchase; 50 concurrent copies of one payment; refused amounts; and the database
 * bytes never holding a key or token in plaintext.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { decodePaymentResponseHeader, wrapFetchWithPaymentFromConfig } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { Receipt } from 'mppx';
import { evm, Mppx } from 'mppx/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/http/app.js';
import { appDepsFor } from '../../src/main/app-deps.js';
import { AccessSales } from '../../src/payments/access-sales.js';
import { X402_VALID_TOO_LONG } from '../../src/payments/x402-payments.js';
import type { AccessPurchase } from '../../src/domain/access-purchases.js';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';
import { sampleBrand } from '../store/sample-brand.js';
import { ASSET, challengeOf, NETWORK, newWallet } from './x402-wallet.js';
import { describeEachBackend } from '../helpers/backends.js';
import { readStoredData } from '../helpers/database-files.js';

describeEachBackend('standing access', (backend) => {
  const USD = 1_000_000n;
  const PAY_TO = '0x000000000000000000000000000000000000b4b4';

  let stack: TestStack;
  /** The service's own wiring (services.access), as `brandbase serve` builds it. */
  let app: FastifyInstance;
  /** The same service with an AccessSales whose clock and pre-delivery fault the tests control. */
  let clocked: FastifyInstance;
  let offsetMs = 0;
  /** While set, the sales clock stands still at this instant (plus offsetMs): a busy machine cannot move a purchase out of its retry window between two requests. */
  let heldAt: number | null = null;
  let failNext = 0;
  const delivered: AccessPurchase[] = [];

  beforeAll(async () => {
    stack = await startTestStack({}, { backend });
    app = stack.app;
    const now = new Date();
    await stack.services.stores.brands.saveBrand({ brand: sampleBrand('acme.com'), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: 'acme.com' }]);
    const p = stack.services.config.payments;
    const installationKey = randomBytes(32);
    const sales = new AccessSales({
      ...stack.services.stores,
      accounts: stack.services.stores.billing,
      settings: { network: p.network, asset: p.asset, assetName: p.assetName, assetVersion: p.assetVersion, payTo: p.payTo, priceUnits: p.priceUnits, maxTimeoutSeconds: p.maxTimeoutSeconds, facilitatorUrl: null },
      mppSecretKey: randomBytes(32).toString('hex'),
      publicUrl: stack.services.config.publicUrl,
      installationKey: () => installationKey,
      logger: stack.services.logger,
      onCredits: (orgId) => stack.services.meter.forget(orgId),
      now: () => new Date((heldAt ?? Date.now()) + offsetMs),
      beforeDelivery: (purchase) => {
        delivered.push(purchase);
        if (failNext > 0) {
          failNext--;
          return Promise.reject(new Error('injected: the connection to the store dropped'));
        }
        return Promise.resolve();
      },
    });
    clocked = await buildApp({ ...appDepsFor(stack.services), access: sales });
    await clocked.ready();
  });

  afterEach(() => {
    offsetMs = 0;
    heldAt = null;
    failNext = 0;
  });

  afterAll(async () => {
    await clocked?.close();
    await stack?.close();
  });

  /** The service on a loopback port, started by whichever test needs it first (the tests run in any order). */
  let address: Promise<string> | undefined;
  function listening(): Promise<string> {
    address ??= app.listen({ port: 0, host: '127.0.0.1' });
    return address;
  }

  function post(target: FastifyInstance, usd: string, headers: Record<string, string> = {}) {
    return target.inject({ method: 'POST', url: `/v2/agents/access?usd=${usd}`, headers });
  }

  /** A wallet funded on the embedded ledger and a PAYMENT-SIGNATURE for the 402 of `usd` on `target`. */
  async function signedPurchase(target: FastifyInstance, usd: string, funds = 100n * USD) {
    const wallet = await newWallet(stack.services.stores.payments, funds);
    const header = await wallet.pay(challengeOf((await post(target, usd)).headers));
    return { wallet, header };
  }

  async function countPayments(payer: string): Promise<number> {
    return (await stack.services.stores.payments.listPayments({ limit: 100_000 })).filter((p) => p.payer === payer.toLowerCase() && p.route === '/v2/agents/access').length;
  }

  async function prepaid(orgId: string): Promise<number> {
    const org = await stack.services.stores.billing.getOrganization(orgId);
    if (!org) throw new Error(`no organization ${orgId}`);
    return (await stack.services.billing.report(org)).prepaidBalance;
  }

  interface Bought {
    apiKey?: string;
    mcpToken?: string;
    topUp: boolean;
    key: { id: string };
    organization: { id: string };
    usd: number;
    credits: { added: number; balance: number };
    agent: { payer: string; wallet?: { network: string; address: string } };
  }

  describe('the offer and its challenge', () => {
    it('GET describes a purchasable offer with its payment methods: x402, MPP from a wallet, MPP by card', async () => {
      const res = await app.inject({ url: '/v2/agents/access' });
      expect(res.statusCode).toBe(200);
      const body = res.json<{ purchasable: boolean; paymentMethods: { protocol: string; method?: string }[]; usd: { min: number; max: number }; retryWindowSeconds: number }>();
      expect(body.purchasable).toBe(true);
      expect(body.paymentMethods.map((m) => `${m.protocol}${m.method ? `/${m.method}` : ''}`)).toEqual(['x402', 'mpp/evm', 'mpp/stripe']);
      expect(body.usd).toEqual({ min: 1, max: 500 });
      expect(body.retryWindowSeconds).toBe(180);
    });

    it('POST without a payment: 402 with an x402 challenge for N dollars, an MPP challenge and the body', async () => {
      const res = await post(app, '7');
      expect(res.statusCode).toBe(402);
      expect(res.headers['cache-control']).toBe('no-store');
      const required = challengeOf(res.headers);
      expect(required.accepts).toEqual([{ scheme: 'exact', network: NETWORK, amount: '7000000', asset: ASSET, payTo: PAY_TO, maxTimeoutSeconds: 300, extra: { name: 'USDC', version: '2' } }]);
      expect(required.resource.url).toBe('http://brandbase.test/v2/agents/access?usd=7');
      expect(String(res.headers['www-authenticate'])).toMatch(/^Payment id="[^"]+", realm="brandbase.test", method="evm", intent="charge"/);
      expect(res.json()).toMatchObject({ pricing: { route: '/v2/agents/access', price: '$7' }, credits: 140 });
    });

    it.each([['0'], ['501'], ['1.5'], ['-3'], ['1e2'], ['abc'], ['']])('usd=%s: 400, nothing charged even with a payment attached', async (usd) => {
      const { wallet, header } = await signedPurchase(app, '1');
      const res = await post(app, usd, { 'payment-signature': header });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toContain('usd must be a whole number of US dollars from 1 to 500');
      expect(await wallet.balance()).toBe(100n * USD);
      expect(await countPayments(wallet.account.address)).toBe(0);
    });

    it('a payment for another amount than N: 402 with the challenge for N, nothing charged', async () => {
      const { wallet, header } = await signedPurchase(app, '1');
      const res = await post(app, '2', { 'payment-signature': header });
      expect(res.statusCode).toBe(402);
      expect(res.json<{ reason: string }>().reason).toMatch(/^amount_mismatch/);
      expect(challengeOf(res.headers).accepts[0]?.amount).toBe('2000000');
      // Signed over a changed amount but presenting the offer: refused by the facilitator.
      const tampered = await wallet.pay(challengeOf((await post(app, '2')).headers), (r) => ({ ...r, amount: '1' }));
      const refused = await post(app, '2', { 'payment-signature': tampered });
      expect(refused.statusCode).toBe(402);
      expect(await wallet.balance()).toBe(100n * USD);
      expect(await countPayments(wallet.account.address)).toBe(0);
    });
  });

  describe('an x402 authorization valid longer than the challenge allows (issue 33)', () => {
    it('valid for ten years: 402 payment_invalid with the challenge and its reason, nothing moves', async () => {
      const wallet = await newWallet(stack.services.stores.payments, 100n * USD);
      const tenYears = 10 * 365 * 86_400;
      const header = await wallet.pay(challengeOf((await post(app, '1')).headers), (r) => ({ ...r, maxTimeoutSeconds: tenYears }));
      const res = await post(app, '1', { 'payment-signature': header });
      expect(res.statusCode).toBe(402);
      expect(res.json<{ reason: string }>().reason).toBe(X402_VALID_TOO_LONG);
      expect(challengeOf(res.headers).error).toBe(X402_VALID_TOO_LONG);
      expect(await wallet.balance()).toBe(100n * USD);
      expect(await countPayments(wallet.account.address)).toBe(0);
    });
  });

  describe('buying and using standing access on loopback', () => {
    it('@x402/fetch buys a key; the key looks up a brand and the prepaid credits go down by one; the viewer names the wallet', async () => {
      const wallet = await newWallet(stack.services.stores.payments, 10n * USD);
      const address = await listening();
      // The client's own spend cap defaults to $1 a payment: an agent buying access raises it for this purchase.
      const paidFetch = wrapFetchWithPaymentFromConfig(fetch, { schemes: [{ network: NETWORK, client: new ExactEvmScheme(wallet.account) }], spendControls: { maxAmountPerPayment: '$2' } });
      const res = await paidFetch(`${address}/v2/agents/access?usd=2`, { method: 'POST' });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const receipt = decodePaymentResponseHeader(res.headers.get('payment-response') ?? '');
      expect(receipt).toMatchObject({ success: true, network: NETWORK, payer: wallet.account.address });
      const bought = (await res.json()) as Bought;
      expect(bought.apiKey).toMatch(/^bb_live_[A-Za-z0-9_-]{43}$/);
      expect(bought.mcpToken).toMatch(/^bb_mcp_[A-Za-z0-9_-]{43}$/);
      expect(bought).toMatchObject({ topUp: false, usd: 2, credits: { added: 40, balance: 40 }, agent: { payer: 'wallet', wallet: { network: NETWORK, address: wallet.account.address.toLowerCase() } } });
      expect(await wallet.balance()).toBe(8n * USD);
      const [row] = (await stack.services.stores.payments.listPayments({ limit: 100_000 })).filter((p) => p.payer === wallet.account.address.toLowerCase());
      expect(row).toMatchObject({ method: 'x402', amount: 2n * USD, route: '/v2/agents/access', transaction: receipt.transaction });

      const lookup = await fetch(`${address}/v2/brands/acme.com`, { headers: bearer(bought.apiKey ?? '') });
      expect(lookup.status).toBe(200);
      expect(((await lookup.json()) as { domain: string }).domain).toBe('acme.com');
      expect(await prepaid(bought.organization.id)).toBe(39);

      const viewer = await app.inject({ url: '/v2/viewer', headers: bearer(bought.apiKey ?? '') });
      expect(viewer.json()).toMatchObject({
        type: 'api-key',
        id: bought.key.id,
        agent: { payer: 'wallet', wallet: { network: NETWORK, address: wallet.account.address.toLowerCase() }, addCredits: { method: 'POST' } },
      });
      expect(viewer.body).not.toContain(bought.apiKey);
      // The MCP token is stored for the MCP server as a hash only.
      const { hashMcpToken } = await import('../../src/billing/mcp-token-secret.js');
      expect(await stack.services.stores.access.findMcpTokenByHash(hashMcpToken(bought.mcpToken ?? ''))).toMatchObject({ orgId: bought.organization.id, apiKeyId: bought.key.id });
    });

    it('the mppx client buys a key the same way and spends it', async () => {
      const account = (await newWallet(stack.services.stores.payments, 10n * USD)).account;
      const mppx = Mppx.create({ methods: [evm.charge({ account, networks: [84532], authorization: { name: 'USDC', version: '2' } })], polyfill: false });
      const address = await listening();
      const res = await mppx.fetch(`${address}/v2/agents/access?usd=3`, { method: 'POST' });
      expect(res.status).toBe(200);
      expect(Receipt.fromResponse(res)).toMatchObject({ method: 'evm', status: 'success' });
      const bought = (await res.json()) as Bought;
      expect(bought).toMatchObject({ topUp: false, credits: { added: 60 }, agent: { payer: 'wallet' } });
      expect(await stack.services.stores.payments.ledgerBalance(NETWORK, ASSET, account.address)).toBe(7n * USD);
      expect((await stack.services.stores.payments.listPayments({ limit: 100_000 })).filter((p) => p.payer === account.address.toLowerCase())).toMatchObject([{ method: 'mpp', route: '/v2/agents/access', amount: 3n * USD }]);
      const lookup = await fetch(`${address}/v2/brands/acme.com`, { headers: bearer(bought.apiKey ?? '') });
      expect(lookup.status).toBe(200);
      expect(await prepaid(bought.organization.id)).toBe(59);
    });

    it('paying again from the same wallet tops up the same organization and key, with no new secret', async () => {
      const wallet = await newWallet(stack.services.stores.payments, 10n * USD);
      const first = (await post(app, '1', { 'payment-signature': await wallet.pay(challengeOf((await post(app, '1')).headers)) })).json<Bought>();
      const orgs = (await stack.services.stores.billing.listOrganizations()).length;
      const again = await post(app, '2', { 'payment-signature': await wallet.pay(challengeOf((await post(app, '2')).headers)) });
      expect(again.statusCode).toBe(200);
      const topUp = again.json<Bought>();
      expect(topUp).toMatchObject({ topUp: true, organization: { id: first.organization.id }, key: { id: first.key.id }, credits: { added: 40, balance: 60 } });
      expect(topUp.apiKey).toBeUndefined();
      expect(topUp.mcpToken).toBeUndefined();
      expect((await stack.services.stores.billing.listOrganizations()).length).toBe(orgs);
      // The first key spends the credits bought by both payments.
      expect((await app.inject({ url: '/v2/brands/acme.com', headers: bearer(first.apiKey ?? '') })).statusCode).toBe(200);
      expect(await prepaid(first.organization.id)).toBe(59);
    });

    it('a key made by the operator has no agent object', async () => {
      const { key } = await stack.newKey();
      const viewer = await app.inject({ url: '/v2/viewer', headers: bearer(key) });
      expect(viewer.statusCode).toBe(200);
      expect(viewer.json()).not.toHaveProperty('agent');
    });
  });

  describe('one wallet, both protocols', () => {
    it('a wallet that bought with x402 tops up the same organization when it pays again over MPP', async () => {
      const wallet = await newWallet(stack.services.stores.payments, 10n * USD);
      const first = (await post(app, '1', { 'payment-signature': await wallet.pay(challengeOf((await post(app, '1')).headers)) })).json<Bought>();
      const mppx = Mppx.create({ methods: [evm.charge({ account: wallet.account, networks: [84532], authorization: { name: 'USDC', version: '2' } })], polyfill: false });
      const challenge = await post(app, '2');
      const credential = await mppx.createCredential(new Response(challenge.body, { status: challenge.statusCode, headers: challenge.headers as Record<string, string> }));
      const again = await post(app, '2', { authorization: credential });
      expect(again.statusCode).toBe(200);
      expect(again.json<Bought>()).toMatchObject({ topUp: true, organization: { id: first.organization.id }, key: { id: first.key.id }, credits: { added: 40, balance: 60 } });
      expect(await wallet.balance()).toBe(7n * USD);
    });
  });

  describe('MCP tokens for the MCP server', () => {
    it('verifyMcpToken names the organization and key of a bought token; unknown, malformed and revoked ones are refused', async () => {
      const { verifyMcpToken, generateMcpToken } = await import('../../src/billing/mcp-token-secret.js');
      const { header } = await signedPurchase(app, '1');
      const bought = (await post(app, '1', { 'payment-signature': header })).json<Bought>();
      const store = stack.services.stores.billing;
      const tokens = { findMcpTokenByHash: (hash: string) => stack.services.stores.access.findMcpTokenByHash(hash), getApiKey: (id: string) => store.getApiKey(id) };
      expect(await verifyMcpToken(tokens, bought.mcpToken ?? '')).toEqual({ tokenId: expect.stringMatching(/^mcp_/), orgId: bought.organization.id, apiKeyId: bought.key.id });
      // The API key is not an MCP token, a well-formed token never sold is unknown, and a truncated one is malformed.
      expect(await verifyMcpToken(tokens, bought.apiKey ?? '')).toBeNull();
      expect(await verifyMcpToken(tokens, generateMcpToken().token)).toBeNull();
      expect(await verifyMcpToken(tokens, (bought.mcpToken ?? '').slice(0, -1))).toBeNull();
      // Revoking the key it was sold with ends the token too.
      expect(await store.revokeApiKey(bought.key.id, new Date())).toBe(true);
      expect(await verifyMcpToken(tokens, bought.mcpToken ?? '')).toBeNull();
    });
  });

  describe('exactly-once delivery', () => {
    it('a retry of the exact request within three minutes of an error that said to retry gets the key, once', async () => {
      const { wallet, header } = await signedPurchase(clocked, '1');
      heldAt = Date.now();
      failNext = 1;
      const failed = await post(clocked, '1', { 'payment-signature': header });
      expect(failed.statusCode).toBe(503);
      expect(failed.headers['x-bf-error']).toBe('access_purchase_pending');
      expect(failed.headers['retry-after']).toBe('2');
      expect(failed.body).not.toContain('bb_live_');
      expect(await wallet.balance()).toBe(99n * USD);
      offsetMs = 170_000;
      try {
        const retry = await post(clocked, '1', { 'payment-signature': header });
        expect(retry.statusCode).toBe(200);
        const bought = retry.json<Bought>();
        expect(bought.apiKey).toMatch(/^bb_live_/);
        expect(retry.headers['payment-response']).toBeDefined();
        expect((await app.inject({ url: '/v2/brands/acme.com', headers: bearer(bought.apiKey ?? '') })).statusCode).toBe(200);
        const third = await post(clocked, '1', { 'payment-signature': header });
        expect(third.statusCode).toBe(409);
        expect(third.headers['x-bf-error']).toBe('credential_already_delivered');
        expect(third.json()).toMatchObject({ code: 'credential_already_delivered' });
      } finally {
        offsetMs = 0;
      }
      expect(await wallet.balance()).toBe(99n * USD);
      expect(await countPayments(wallet.account.address)).toBe(1);
    });

    it('the purchase write fails after the money moved: 503, and the exact retry writes it and gets the key, charged once', async () => {
      // The real store, whose purchase transaction fails once (the database went away between settle and commit).
      let failWrite = 1;
      const access = new Proxy(stack.services.stores.access, {
        get(target, name, receiver) {
          if (name === 'completeAccessPurchase' && failWrite > 0) {
            return () => {
              failWrite--;
              return Promise.reject(new Error('injected: connection lost before commit'));
            };
          }
          const value: unknown = Reflect.get(target, name, receiver);
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
      const p = stack.services.config.payments;
      const sales = new AccessSales({
        access,
        payments: stack.services.stores.payments,
        accounts: stack.services.stores.billing,
        settings: { network: p.network, asset: p.asset, assetName: p.assetName, assetVersion: p.assetVersion, payTo: p.payTo, priceUnits: p.priceUnits, maxTimeoutSeconds: p.maxTimeoutSeconds, facilitatorUrl: null },
        mppSecretKey: null,
        publicUrl: stack.services.config.publicUrl,
        installationKey: () => Buffer.alloc(32, 3),
        logger: stack.services.logger,
      });
      const broken = await buildApp({ ...appDepsFor(stack.services), access: sales });
      try {
        const { wallet, header } = await signedPurchase(broken, '1');
        const failed = await post(broken, '1', { 'payment-signature': header });
        expect(failed.statusCode).toBe(503);
        expect(failed.headers['x-bf-error']).toBe('access_purchase_pending');
        expect(await wallet.balance()).toBe(99n * USD);
        // The settlement is on the ledger already, the purchase is not.
        expect(await countPayments(wallet.account.address)).toBe(1);
        const retry = await post(broken, '1', { 'payment-signature': header });
        expect(retry.statusCode).toBe(200);
        const bought = retry.json<Bought>();
        expect(bought.apiKey).toMatch(/^bb_live_/);
        expect((await app.inject({ url: '/v2/brands/acme.com', headers: bearer(bought.apiKey ?? '') })).statusCode).toBe(200);
        expect((await post(broken, '1', { 'payment-signature': header })).statusCode).toBe(409);
        expect(await wallet.balance()).toBe(99n * USD);
        expect(await countPayments(wallet.account.address)).toBe(1);
      } finally {
        await broken.close();
      }
    });

    it('after three minutes the same payment answers 409, never the key', async () => {
      const { wallet, header } = await signedPurchase(clocked, '1');
      heldAt = Date.now();
      failNext = 1;
      expect((await post(clocked, '1', { 'payment-signature': header })).statusCode).toBe(503);
      offsetMs = 180_001;
      try {
        const late = await post(clocked, '1', { 'payment-signature': header });
        expect(late.statusCode).toBe(409);
        expect(late.headers['x-bf-error']).toBe('credential_already_delivered');
        expect(late.body).not.toContain('bb_live_');
      } finally {
        offsetMs = 0;
      }
      // Still within the window by the clock the purchase was written with: the seal is gone, so still 409.
      expect((await post(clocked, '1', { 'payment-signature': header })).statusCode).toBe(409);
      expect(await countPayments(wallet.account.address)).toBe(1);
    });

    it('a response already sent: the same payment answers 409 credential_already_delivered', async () => {
      const { header } = await signedPurchase(app, '1');
      expect((await post(app, '1', { 'payment-signature': header })).statusCode).toBe(200);
      const again = await post(app, '1', { 'payment-signature': header });
      expect(again.statusCode).toBe(409);
      expect(again.headers['x-bf-error']).toBe('credential_already_delivered');
      expect(again.json()).toEqual({ message: 'The credentials bought with this payment were already delivered; they are returned only once.', code: 'credential_already_delivered' });
    });

    it('a request that is not the exact one (another encoding of the same payment) cannot take a pending delivery', async () => {
      const { header } = await signedPurchase(clocked, '1');
      failNext = 1;
      expect((await post(clocked, '1', { 'payment-signature': header })).statusCode).toBe(503);
      // The same payload, re-encoded with other JSON whitespace: same payment, not the same proof.
      const reencoded = Buffer.from(JSON.stringify(JSON.parse(Buffer.from(header, 'base64').toString('utf8')), null, 1)).toString('base64');
      expect((await post(clocked, '1', { 'payment-signature': reencoded })).statusCode).toBe(409);
      expect((await post(clocked, '1', { 'payment-signature': header })).statusCode).toBe(200);
    });

    it('50 concurrent copies of one purchase payment: one settlement, one organization, one key delivered', async () => {
      const { wallet, header } = await signedPurchase(app, '5');
      const orgs = (await stack.services.stores.billing.listOrganizations()).length;
      const answers = await Promise.all(Array.from({ length: 50 }, () => post(app, '5', { 'payment-signature': header })));
      const ok = answers.filter((a) => a.statusCode === 200);
      expect(ok).toHaveLength(1);
      expect(ok[0]?.json<Bought>().apiKey).toMatch(/^bb_live_/);
      // The others were told the purchase is in progress (retry) or already delivered.
      expect(answers.every((a) => [200, 409, 503].includes(a.statusCode))).toBe(true);
      expect(answers.filter((a) => a.body.includes('bb_live_'))).toHaveLength(1);
      expect(await wallet.balance()).toBe(95n * USD);
      expect(await countPayments(wallet.account.address)).toBe(1);
      expect((await stack.services.stores.billing.listOrganizations()).length).toBe(orgs + 1);
    });

    it('a payment already used for a brand lookup cannot buy access', async () => {
      const wallet = await newWallet(stack.services.stores.payments, 10n * USD);
      const lookupHeader = await wallet.pay(challengeOf((await app.inject({ url: '/v2/brands/acme.com' })).headers));
      expect((await app.inject({ url: '/v2/brands/acme.com', headers: { 'payment-signature': lookupHeader } })).statusCode).toBe(200);
      const res = await post(app, '1', { 'payment-signature': lookupHeader });
      expect(res.statusCode).toBe(402);
      expect(await countPayments(wallet.account.address)).toBe(0);
    });
  });

  describe('secrets at rest', () => {
    it('no API key or MCP token handed out is in the database (SQLite files and WAL, PostgreSQL rows) in plaintext', async () => {
      const secrets: string[] = [];
      for (let i = 0; i < 3; i++) {
        const { header } = await signedPurchase(app, '1');
        const bought = (await post(app, '1', { 'payment-signature': header })).json<Bought>();
        secrets.push(bought.apiKey ?? '', bought.mcpToken ?? '');
      }
      // One purchase left undelivered: its secrets are sealed in the database for the retry window.
      const { header } = await signedPurchase(clocked, '1');
      failNext = 1;
      expect((await post(clocked, '1', { 'payment-signature': header })).statusCode).toBe(503);
      const pending = (await post(clocked, '1', { 'payment-signature': header })).json<Bought>();
      secrets.push(pending.apiKey ?? '', pending.mcpToken ?? '');
      expect(secrets.every((s) => /^bb_(live|mcp)_/.test(s))).toBe(true);
      const bytes = Buffer.concat((await readStoredData(stack.database)).map((f) => f.bytes));
      for (const secret of secrets) {
        expect(bytes.includes(Buffer.from(secret)), 'plaintext secret in the database').toBe(false);
        // Nor the random part alone, in any encoding that keeps it recognisable.
        expect(bytes.includes(Buffer.from(secret.replace(/^bb_(live|mcp)_/, ''))), 'secret body in the database').toBe(false);
      }
    });
  });
});
