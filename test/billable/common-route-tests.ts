/**
 * The shared route tests (in the spirit of Unkey's `runCommonRouteTests`): one suite run on every billable route and
 * MCP tool (billable-routes.ts), through a real server listening on loopback, on the backend the caller opens
 * (SQLite or PostgreSQL, one server per file). Credential refusals with the exact bodies of docs/errors.md, the
 * quota's 429, the operator's own domain free, and on payable routes a real x402 payment (`@x402/fetch`) and a real
 * MPP payment (`mppx`) on the embedded ledger: each settled once, a replay refused, an MPP credential serving only
 * a retry of the request it paid for (spec 5.2.4). Fixture brands are saved first, so nothing is crawled.
 */
import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { decodePaymentResponseHeader, wrapFetchWithPaymentFromConfig } from '@x402/fetch';
import { Receipt } from 'mppx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateMcpToken } from '../../src/billing/mcp-token-secret.js';
import { CONTEXT_EVIDENCE_VERSION, type ContextEvidence } from '../../src/domain/brand-context.js';
import type { SharedDatabase } from '../helpers/shared-database.js';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';
import { newMppWallet, type MppWallet } from '../payments/mpp-wallet.js';
import { ASSET, challengeOf, NETWORK, newWallet, PRICE } from '../payments/x402-wallet.js';
import { sampleBrand } from '../store/sample-brand.js';
import { BILLABLE_ROUTES, BILLABLE_TOOLS, routeKey, type BillableRouteCase, type FixtureBrand } from './billable-routes.js';

const PUBLIC_URL = 'http://brandbase.test';
const FUNDS = 1_000_000n;

/** The exact bodies of docs/errors.md (spec 7.1). */
const MESSAGES = {
  paymentRequired: 'Payment required: send an API key or pay for this request.',
  missing: 'Missing credentials: send "Authorization: Bearer <API_KEY>".',
  missingMcp: 'Missing credentials: send "Authorization: Bearer <MCP_TOKEN>" (or an API key).',
  malformed: 'Malformed Authorization header: expected "Bearer <API_KEY>".',
  invalidKey: 'Invalid API key.',
  invalidMcpToken: 'Invalid MCP token.',
  quota: 'API key quota exceeded',
  replayed: 'This payment was already used. Sign a new payment for this request.',
  invalid: 'The payment was not accepted; the PAYMENT-REQUIRED header says why. Nothing was charged.',
} as const;

export const BRAND_A: FixtureBrand = { domain: 'bluebottlecoffee.com', name: 'Blue Bottle Coffee', ticker: 'BBQX', isin: 'QZ0000000017', crypto: 'BBQC', descriptor: 'SQ *BLUE BOTTLE COF 4' };
export const BRAND_B: FixtureBrand = { domain: 'starbucks.com', name: 'Starbucks', ticker: 'SBQX', isin: 'QZ0000000025', crypto: 'SBQC', descriptor: 'POS DEBIT STARBUCKS 1234 SEATTLE WA' };
/** The operator's own brand (BRANDBASE_OPERATOR_DOMAIN): free on every billable route. */
export const OPERATOR: FixtureBrand = { domain: 'netflix.com', name: 'Netflix', ticker: 'NFQX', isin: 'QZ0000000033', crypto: 'NFQC', descriptor: 'NETFLIX.COM' };

function evidence(brand: FixtureBrand): ContextEvidence {
  const page = { path: '/', kind: 'home' as const, title: `${brand.name} | Home`, metaDescription: `${brand.name} serves what its customers ask for.`, keywords: [] };
  const blocks = [{ heading: `${brand.name} for everyone`, text: `${brand.name} is built for people who care about the details.` }];
  const jsonLd = [{ type: 'Organization', name: brand.name, description: null, slogan: `${brand.name}, every day.`, keywords: [], audience: null }];
  return { version: CONTEXT_EVIDENCE_VERSION, pages: [{ ...page, headings: [{ level: 1, text: `${brand.name} for everyone` }], blocks, jsonLd }] };
}

async function hold(stack: TestStack, brand: FixtureBrand): Promise<void> {
  const now = new Date();
  const identifiers = [
    { kind: 'domain' as const, value: brand.domain },
    { kind: 'ticker' as const, value: brand.ticker },
    { kind: 'isin' as const, value: brand.isin },
    { kind: 'crypto' as const, value: brand.crypto },
  ];
  const record = { brand: sampleBrand(brand.domain, { name: brand.name }), status: 'indexed' as const, crawledAt: now, createdAt: now, updatedAt: now };
  await stack.services.stores.brands.saveBrand(record, identifiers, { contextEvidence: evidence(brand) });
}

/** What the suite's server runs on: the backend's settings, and a cleanup for it. */
export type OpenBackend = () => Promise<Pick<SharedDatabase, 'env' | 'cleanup'>>;

export function commonRouteTests(open: OpenBackend): void {
  let backend: Pick<SharedDatabase, 'env' | 'cleanup'>;
  let stack: TestStack;
  let base: string;

  beforeAll(async () => {
    backend = await open();
    // Every fixture domain maps to a closed port: a lookup that missed the saved brand would fail, never crawl out.
    const closed = Object.fromEntries([BRAND_A, BRAND_B, OPERATOR].map((b) => [b.domain, '127.0.0.1:9']));
    stack = await startTestStack({ ...backend.env, BRANDBASE_OPERATOR_DOMAIN: OPERATOR.domain, BRANDBASE_CRAWL_HOSTS: JSON.stringify(closed) });
    for (const brand of [BRAND_A, BRAND_B, OPERATOR]) await hold(stack, brand);
    base = await stack.app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await stack?.close();
    await backend?.cleanup();
  });

  function init(route: BillableRouteCase, brand: FixtureBrand, headers: Record<string, string> = {}): RequestInit {
    const { body } = route.request(brand);
    if (body === undefined) return { method: route.method, headers };
    return { method: route.method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
  }

  const urlOf = (route: BillableRouteCase, brand: FixtureBrand): string => `${base}${route.request(brand).path}`;
  const send = (route: BillableRouteCase, brand: FixtureBrand, headers: Record<string, string> = {}): Promise<Response> => fetch(urlOf(route, brand), init(route, brand, headers));

  /** A paid organization whose only credit is spent: quota 1, no overage, one lookup made. */
  async function exhaustedKey(): Promise<{ key: string; orgId: string }> {
    const { key, orgId } = await stack.newKey({ quota: 1, overage: false });
    const spent = await fetch(`${base}/v2/brands/${BRAND_A.domain}`, { headers: bearer(key) });
    expect(spent.status).toBe(200);
    expect(await stack.services.meter.exactUsed(orgId)).toBe(1);
    return { key, orgId };
  }

  /** Where the answer names the brand it returned (the single answer, the batch item). */
  async function expectServed(res: Response, brand: FixtureBrand, route: BillableRouteCase): Promise<void> {
    const text = await res.text();
    expect(res.status, text).toBe(200);
    if (route.pattern === '/v2/brands/batch') expect((JSON.parse(text) as { results: { status: number; brand?: { domain: string } }[] }).results[0]).toMatchObject({ status: 200, brand: { domain: brand.domain } });
    else if (route.pattern.endsWith('/company/industries')) expect(JSON.parse(text)).toEqual({ industries: sampleBrand(brand.domain).company.industries });
    else if (route.pattern === '/v2/context/*') expect((JSON.parse(text) as { meta: { domain: string } }).meta.domain).toBe(brand.domain);
    else expect((JSON.parse(text) as { domain: string }).domain).toBe(brand.domain);
  }

  async function expectRefused(res: Response, status: number, message: string): Promise<void> {
    const text = await res.text();
    expect(res.status, text).toBe(status);
    expect(JSON.parse(text)).toEqual({ message });
    expect(res.headers.get('x-bf-error')).toBeNull();
  }

  async function settledPayments(payer: string): Promise<{ method: string; route: string; amount: bigint; transaction: string }[]> {
    return (await stack.services.stores.payments.listPayments({ limit: 10_000 })).filter((p) => p.payer === payer.toLowerCase());
  }

  /** A wallet paying through the real `@x402/fetch`; `signature()` is the PAYMENT-SIGNATURE it sent last. */
  async function x402Client() {
    const wallet = await newWallet(stack.services.stores.payments, FUNDS);
    let signature: string | null = null;
    const recording = (input: string | URL | Request, requestInit?: RequestInit): Promise<Response> => {
      const request = new Request(input, requestInit);
      signature = request.headers.get('payment-signature') ?? signature;
      return fetch(request);
    };
    const paidFetch = wrapFetchWithPaymentFromConfig(recording, { schemes: [{ network: NETWORK, client: new ExactEvmScheme(wallet.account) }] });
    return { wallet, paidFetch, signature: () => signature };
  }

  /** A wallet paying through the real `mppx` client (evm charge method) on the embedded ledger. */
  const mppClient = (): Promise<MppWallet> => newMppWallet(stack.services.stores.payments, FUNDS);

  describe.each(BILLABLE_ROUTES.map((route) => [routeKey({ method: route.method, url: route.pattern }), route] as const))('%s', (_name, route) => {
    if (route.payable) {
      it('no credential: 402 with the spec body, the x402 PAYMENT-REQUIRED and the MPP WWW-Authenticate: Payment challenges', async () => {
        const res = await send(route, BRAND_A);
        const text = await res.text();
        expect(res.status, text).toBe(402);
        expect(JSON.parse(text)).toEqual({
          message: MESSAGES.paymentRequired,
          documentation: expect.stringMatching(/^http:\/\/brandbase\.test\/docs\//),
          pricing: { route: route.template, price: '$0.10' },
          resource: `${PUBLIC_URL}${route.template}`,
          standingAccess: { offer: `${PUBLIC_URL}/v2/agents/access`, description: expect.any(String) },
        });
        expect(res.headers.get('cache-control')).toBe('no-store');
        const required = res.headers.get('payment-required');
        expect(required, 'PAYMENT-REQUIRED').not.toBeNull();
        expect(decodePaymentRequiredHeader(required ?? '').accepts[0]).toMatchObject({ scheme: 'exact', network: NETWORK, asset: ASSET, amount: PRICE.toString() });
        expect(res.headers.get('www-authenticate')).toMatch(/^Payment id="[^"]+", realm="brandbase\.test", method="evm", intent="charge", request="/);
        // The challenges name the route, never the identifier asked for.
        expect(`${required} ${res.headers.get('www-authenticate')}`).not.toContain(BRAND_A.domain);
      });
    } else {
      it('no credential: 401 missing credentials (spec 7.1: the batch takes no payment)', async () => {
        const res = await send(route, BRAND_A);
        await expectRefused(res, 401, MESSAGES.missing);
        expect(res.headers.get('payment-required')).toBeNull();
      });
    }

    it('a malformed Authorization header: 401', async () => {
      await expectRefused(await send(route, BRAND_A, { authorization: 'Basic dXNlcjpwYXNz' }), 401, MESSAGES.malformed);
    });

    it('an unknown key: 403 invalid API key', async () => {
      await expectRefused(await send(route, BRAND_A, bearer(`bb_live_${randomBytes(24).toString('base64url')}`)), 403, MESSAGES.invalidKey);
    });

    it('a revoked key: 403 invalid API key, and nothing charged', async () => {
      const { key, keyId, orgId } = await stack.newKey();
      await stack.services.accounts.revokeApiKey(keyId);
      await expectRefused(await send(route, BRAND_A, bearer(key)), 403, MESSAGES.invalidKey);
      expect(await stack.services.meter.exactUsed(orgId)).toBe(0);
    });

    it('the quota used up: 429 quota_exceeded, nothing charged', async () => {
      const { key, orgId } = await exhaustedKey();
      const res = await send(route, BRAND_B, bearer(key));
      const text = await res.text();
      expect(res.status, text).toBe(429);
      expect(res.headers.get('x-bf-error')).toBe('quota_exceeded');
      const body = JSON.parse(text) as Record<string, unknown>;
      if (route.pattern === '/v2/brands/batch') expect(body).toEqual({ message: MESSAGES.quota, quota: 1, used: 1, remaining: 0, required: 1 });
      else expect(body).toEqual({ message: MESSAGES.quota });
      expect(await stack.services.meter.exactUsed(orgId)).toBe(1);
    });

    it("the operator's own brand is free: served, nothing charged", async () => {
      const { key, orgId } = await stack.newKey();
      await expectServed(await send(route, OPERATOR, bearer(key)), OPERATOR, route);
      expect(await stack.services.meter.exactUsed(orgId)).toBe(0);
    });

    if (route.namesDomain) {
      it("the operator's own domain holds nothing: served with the quota used up, nothing charged", async () => {
        const { key, orgId } = await exhaustedKey();
        await expectServed(await send(route, OPERATOR, bearer(key)), OPERATOR, route);
        expect(await stack.services.meter.exactUsed(orgId)).toBe(1);
      });
    }

    if (!route.payable) return;

    it('x402: paid through @x402/fetch, served and settled once (one ledger row, the price moved once)', async () => {
      const client = await x402Client();
      const res = await client.paidFetch(urlOf(route, BRAND_A), init(route, BRAND_A));
      const receipt = decodePaymentResponseHeader(res.headers.get('payment-response') ?? '');
      await expectServed(res, BRAND_A, route);
      expect(receipt).toMatchObject({ success: true, network: NETWORK, payer: client.wallet.account.address });
      expect(await client.wallet.balance()).toBe(FUNDS - PRICE);
      const rows = await settledPayments(client.wallet.account.address);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ method: 'x402', amount: PRICE, route: route.template, transaction: receipt.transaction });
    });

    it('x402: the same payment presented again is refused as payment_replayed, and nothing moves', async () => {
      const client = await x402Client();
      const res = await client.paidFetch(urlOf(route, BRAND_A), init(route, BRAND_A));
      await expectServed(res, BRAND_A, route);
      const signature = client.signature();
      expect(signature).not.toBeNull();
      const again = await send(route, BRAND_A, { 'payment-signature': signature ?? '' });
      const text = await again.text();
      expect(again.status, text).toBe(402);
      expect((JSON.parse(text) as { message: string }).message).toBe(MESSAGES.replayed);
      expect(await client.wallet.balance()).toBe(FUNDS - PRICE);
      expect(await settledPayments(client.wallet.account.address)).toHaveLength(1);
    });

    it('MPP: paid through the mppx client, served and settled once (one ledger row, the price moved once)', async () => {
      const client = await mppClient();
      const res = await client.mppx.fetch(urlOf(route, BRAND_A), init(route, BRAND_A));
      const receipt = res.headers.get('payment-receipt');
      await expectServed(res, BRAND_A, route);
      expect(Receipt.deserialize(receipt ?? '')).toMatchObject({ method: 'evm', status: 'success' });
      expect(await client.balance()).toBe(FUNDS - PRICE);
      const rows = await settledPayments(client.account.address);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ method: 'mpp', amount: PRICE, route: route.template, transaction: Receipt.deserialize(receipt ?? '').reference });
    });

    /** A credential the mppx client builds from the 402 of the request for `brand`, and that request paid with it. */
    async function paidCredential(client: MppWallet, brand: FixtureBrand): Promise<{ credential: string; receipt: string }> {
      const credential = await client.mppx.createCredential(await send(route, brand));
      const first = await send(route, brand, { authorization: credential });
      const receipt = first.headers.get('payment-receipt') ?? '';
      await expectServed(first, brand, route);
      return { credential, receipt };
    }

    it('MPP: the same credential retrying the same request is served from the payment taken, not charged again', async () => {
      const client = await mppClient();
      const { credential, receipt } = await paidCredential(client, BRAND_A);
      const retry = await send(route, BRAND_A, { authorization: credential });
      const retryReceipt = retry.headers.get('payment-receipt') ?? '';
      await expectServed(retry, BRAND_A, route);
      expect(Receipt.deserialize(retryReceipt).reference).toBe(Receipt.deserialize(receipt).reference);
      expect(await client.balance()).toBe(FUNDS - PRICE);
      expect(await settledPayments(client.account.address)).toHaveLength(1);
    });

    // docs/errors.md: the credential's challenge was issued for another request, so mppx refuses it (payment_invalid,
    // with a fresh challenge for this request that a client can pay); what matters is that nothing is served free.
    it('MPP: the same credential on another identifier is refused as payment_invalid with a fresh challenge, not served free', async () => {
      const client = await mppClient();
      const { credential } = await paidCredential(client, BRAND_A);
      const other = await send(route, BRAND_B, { authorization: credential });
      const text = await other.text();
      expect(other.status, text).toBe(402);
      expect((JSON.parse(text) as { message: string }).message).toBe(MESSAGES.invalid);
      expect(other.headers.get('www-authenticate') ?? '').toMatch(/^Payment /);
      expect(await client.balance()).toBe(FUNDS - PRICE);
      expect(await settledPayments(client.account.address)).toHaveLength(1);
    });
  });

  describe('MCP tools', () => {
    const clients: Client[] = [];
    afterAll(async () => {
      await Promise.allSettled(clients.map((c) => c.close()));
    });

    async function connect(token: string): Promise<Client> {
      const client = new Client({ name: 'common-route-tests', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: bearer(token) } }));
      clients.push(client);
      return client;
    }

    /** A tools/call as one raw POST: refusals come before the protocol, whatever the message. */
    function rawCall(name: string, args: Record<string, unknown>, headers: Record<string, string>): Promise<Response> {
      const message = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } };
      return fetch(`${base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(message) });
    }

    /** Standing access bought as an agent buys it (x402 on the embedded ledger): an API key and its MCP token. */
    async function buyAccess(): Promise<{ mcpToken: string; keyId: string; orgId: string }> {
      const wallet = await newWallet(stack.services.stores.payments, 100_000_000n);
      const offer = await fetch(`${base}/v2/agents/access?usd=1`, { method: 'POST' });
      const bought = await fetch(`${base}/v2/agents/access?usd=1`, { method: 'POST', headers: { 'payment-signature': await wallet.pay(challengeOf(Object.fromEntries(offer.headers))) } });
      const body = (await bought.json()) as { mcpToken: string; key: { id: string }; organization: { id: string } };
      expect(bought.status).toBe(200);
      return { mcpToken: body.mcpToken, keyId: body.key.id, orgId: body.organization.id };
    }

    const textOf = (result: CallToolResult): string => (result.content[0]?.type === 'text' ? result.content[0].text : '');
    const costOf = (result: CallToolResult): unknown => result._meta?.['brandbase/cost'];
    const call = async (client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> => (await client.callTool({ name, arguments: args })) as CallToolResult;

    describe.each(BILLABLE_TOOLS.map((tool) => [tool.name, tool] as const))('%s', (_name, tool) => {
      it('no credential: 401 with WWW-Authenticate: Bearer', async () => {
        const res = await rawCall(tool.name, tool.arguments(BRAND_A), {});
        await expectRefused(res, 401, MESSAGES.missingMcp);
        expect(res.headers.get('www-authenticate')).toBe('Bearer realm="brandbase"');
      });

      it('a malformed Authorization header: 401', async () => {
        await expectRefused(await rawCall(tool.name, tool.arguments(BRAND_A), { authorization: 'Basic dXNlcjpwYXNz' }), 401, MESSAGES.malformed);
      });

      it('an unknown API key or MCP token: 403', async () => {
        await expectRefused(await rawCall(tool.name, tool.arguments(BRAND_A), bearer(`bb_live_${randomBytes(24).toString('base64url')}`)), 403, MESSAGES.invalidKey);
        await expectRefused(await rawCall(tool.name, tool.arguments(BRAND_A), bearer(generateMcpToken().token)), 403, MESSAGES.invalidMcpToken);
      });

      it('a revoked API key, and the MCP token of a revoked key: 403', async () => {
        const { key, keyId } = await stack.newKey();
        await stack.services.accounts.revokeApiKey(keyId);
        await expectRefused(await rawCall(tool.name, tool.arguments(BRAND_A), bearer(key)), 403, MESSAGES.invalidKey);
        const access = await buyAccess();
        await stack.services.accounts.revokeApiKey(access.keyId);
        await expectRefused(await rawCall(tool.name, tool.arguments(BRAND_A), bearer(access.mcpToken)), 403, MESSAGES.invalidMcpToken);
      });

      it('the quota used up: a tool error 429 quota_exceeded, nothing charged', async () => {
        const { key, orgId } = await exhaustedKey();
        const result = await call(await connect(key), tool.name, tool.arguments(BRAND_B));
        expect(result.isError).toBe(true);
        expect(JSON.parse(textOf(result))).toMatchObject({ code: 'quota_exceeded', status: 429, message: MESSAGES.quota });
        expect(costOf(result)).toBe(0);
        expect(await stack.services.meter.exactUsed(orgId)).toBe(1);
      });

      it("the operator's own brand is free: answered, nothing charged", async () => {
        const { key, orgId } = await stack.newKey();
        const result = await call(await connect(key), tool.name, tool.arguments(OPERATOR));
        expect(result.isError, textOf(result)).toBeFalsy();
        expect(costOf(result)).toBe(0);
        expect(await stack.services.meter.exactUsed(orgId)).toBe(0);
      });

      if (tool.namesDomain) {
        it("the operator's own domain holds nothing: answered with the quota used up, nothing charged", async () => {
          const { key, orgId } = await exhaustedKey();
          const result = await call(await connect(key), tool.name, tool.arguments(OPERATOR));
          expect(result.isError, textOf(result)).toBeFalsy();
          expect(costOf(result)).toBe(0);
          expect(await stack.services.meter.exactUsed(orgId)).toBe(1);
        });
      }

      it('with the MCP token standing access sold: answered for exactly one credit', async () => {
        const access = await buyAccess();
        const result = await call(await connect(access.mcpToken), tool.name, tool.arguments(BRAND_A));
        expect(result.isError, textOf(result)).toBeFalsy();
        expect(costOf(result)).toBe(1);
        expect(await stack.services.meter.exactUsed(access.orgId)).toBe(1);
      });
    });
  });
}
