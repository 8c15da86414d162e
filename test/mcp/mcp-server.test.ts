/**
 * The MCP server at /mcp on a real server listening on loopback (the real service on a SQLite or PostgreSQL store, live
 * crawls of sites on loopback), driven by the SDK's own client over Streamable HTTP: the tools and their schemas,
 * each tool called with an MCP token bought through standing access (the real x402 flow on the embedded ledger),
 * billed like the route it stands for; an API key works too; a bad token and a missing credential are refused
 * before the protocol; an exhausted key lists the tools but its charged calls answer the route's 429 as tool errors.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateMcpToken } from '../../src/billing/mcp-token-secret.js';
import type { BrandContext } from '../../src/domain/brand-context.js';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';
import { challengeOf, newWallet } from '../payments/x402-wallet.js';
import { FERNHOLLOW, startContextSites, type ContextSites } from '../context/context-sites.js';
import { markdownFacts } from '../context/markdown-facts.js';
import { describeEachBackend } from '../helpers/backends.js';

describeEachBackend('MCP server', (backend) => {
  let sites: ContextSites;
  let stack: TestStack;
  let address: string;
  const clients: Client[] = [];

  /** What standing access sold: the MCP token, the API key beside it (and its id), the organization and its client ID. */
  interface Access {
    mcpToken: string;
    apiKey: string;
    keyId: string;
    orgId: string;
    clientId: string;
  }

  /** Standing access bought as an agent buys it, by a wallet of its own: the 402, a signed x402 payment, the key and token once. */
  async function buyAccess(): Promise<Access> {
    const wallet = await newWallet(stack.services.stores.payments, 100_000_000n);
    const offer = await stack.app.inject({ method: 'POST', url: '/v2/agents/access?usd=1' });
    const bought = await stack.app.inject({ method: 'POST', url: '/v2/agents/access?usd=1', headers: { 'payment-signature': await wallet.pay(challengeOf(offer.headers)) } });
    expect(bought.statusCode, bought.body).toBe(200);
    const body = bought.json<{ mcpToken: string; apiKey: string; organization: { id: string }; key: { id: string } }>();
    const orgId = body.organization.id;
    const clientId = (await stack.services.clientIds.create(orgId, { name: 'agent' })).id;
    return { mcpToken: body.mcpToken, apiKey: body.apiKey, keyId: body.key.id, orgId, clientId };
  }

  /** Makes Fernhollow held, through the lookup route with a key of its own (no credit of the test's organization). */
  async function holdFernhollow(): Promise<void> {
    const { key } = await stack.newKey();
    const res = await stack.app.inject({ method: 'GET', url: `/v2/brands/${FERNHOLLOW}`, headers: bearer(key) });
    expect(res.statusCode, res.body).toBe(200);
  }

  async function connect(token: string | null): Promise<Client> {
    const client = new Client({ name: 'brandbase-test', version: '1.0.0' });
    const headers: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token}` };
    await client.connect(new StreamableHTTPClientTransport(new URL(`${address}/mcp`), { requestInit: { headers } }));
    clients.push(client);
    return client;
  }

  async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    return (await client.callTool({ name, arguments: args })) as CallToolResult;
  }

  const textOf = (result: CallToolResult): string => (result.content[0]?.type === 'text' ? result.content[0].text : '');
  const costOf = (result: CallToolResult): unknown => result._meta?.['brandbase/cost'];

  /** The organization's prepaid credits left (standing access sells prepaid credits), read exactly. */
  async function prepaidBalance(orgId: string): Promise<number> {
    const org = await stack.services.stores.billing.getOrganization(orgId);
    if (!org) throw new Error('no org');
    await stack.services.meter.flush();
    return (await stack.services.billing.report(org)).prepaidBalance;
  }

  beforeAll(async () => {
    sites = await startContextSites(1);
    stack = await startTestStack({ BRANDBASE_CRAWL_HOSTS: JSON.stringify(sites.served.hostMap) }, { backend });
    address = await stack.app.listen({ port: 0, host: '127.0.0.1' });
  }, 120_000);

  afterAll(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    await stack?.close();
    await sites?.served.close();
  });

  describe('with the MCP token standing access sold', () => {
    // Each test buys its own access: its own organization, prepaid balance, key and token.
    let access: Access;
    let client: Client;
    beforeEach(async () => {
      access = await buyAccess();
      client = await connect(access.mcpToken);
    });

    it('lists the tools, each with a JSON schema', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['brand_search', 'build_logo_urls', 'enrich_transaction', 'get_brand', 'get_brand_context']);
      for (const tool of tools) {
        expect(tool.description?.length, tool.name).toBeGreaterThan(40);
        expect(tool.inputSchema.type).toBe('object');
        expect(Object.keys(tool.inputSchema.properties ?? {}).length).toBeGreaterThan(0);
      }
      expect(tools.find((t) => t.name === 'get_brand')?.inputSchema.required).toEqual(['identifier']);
    });

    it('get_brand returns the record as the route does, for one credit', async () => {
      const before = await prepaidBalance(access.orgId);
      const result = await call(client, 'get_brand', { identifier: FERNHOLLOW });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(costOf(result)).toBe(1);
      const record = JSON.parse(textOf(result)) as { domain: string; name: string };
      expect(record).toMatchObject({ domain: FERNHOLLOW, name: 'Fernhollow' });
      expect(result.structuredContent).toEqual(record);
      const viaRoute = await stack.app.inject({ method: 'GET', url: `/v2/brands/${FERNHOLLOW}`, headers: bearer(access.apiKey) });
      expect(viaRoute.json()).toEqual(record);
      expect(before - (await prepaidBalance(access.orgId))).toBe(2);
    });

    it('get_brand_context answers Markdown (JSON on request) with the facts of the route, for one credit', async () => {
      const markdown = await call(client, 'get_brand_context', { identifier: `https://${FERNHOLLOW}/pricing` });
      expect(markdown.isError, textOf(markdown)).toBeFalsy();
      expect(costOf(markdown)).toBe(1);
      const facts = markdownFacts(textOf(markdown));
      expect(facts.headings[0]).toEqual({ level: 1, text: `Brand context: ${FERNHOLLOW}` });
      expect(facts.unsafe).toEqual([]);
      const json = await call(client, 'get_brand_context', { identifier: FERNHOLLOW, format: 'json' });
      const viaRoute = await stack.app.inject({ method: 'GET', url: `/v2/context/${FERNHOLLOW}`, headers: bearer(access.apiKey) });
      const routeBody = viaRoute.json<BrandContext>();
      const toolBody = JSON.parse(textOf(json)) as BrandContext;
      expect({ ...toolBody, meta: { ...toolBody.meta, resolved_at: '' } }).toEqual({ ...routeBody, meta: { ...routeBody.meta, resolved_at: '' } });
      expect(facts.lines.map((l) => l.text).join('\n')).toContain(routeBody.identity.tagline ?? 'no tagline');
    });

    it('enrich_transaction names the merchant of a descriptor as the route does, for one credit; no confident match is a free tool error', async () => {
      await holdFernhollow();
      const descriptor = { transactionLabel: 'FERNHOLLOW* INV 2231', countryCode: 'nl' };
      const result = await call(client, 'enrich_transaction', descriptor);
      const viaRoute = await stack.app.inject({ method: 'POST', url: '/v2/brands/transaction', headers: bearer(access.apiKey), payload: descriptor });
      // Fernhollow is held (holdFernhollow): the matcher finds it by name among held brands.
      expect(viaRoute.statusCode, viaRoute.body).toBe(200);
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(costOf(result)).toBe(1);
      type Answer = { match: { domain: string; confidence: number; alias: string; source: string; paymentProcessor: string | null }; brand: unknown };
      const answer = JSON.parse(textOf(result)) as Answer;
      expect(answer.brand).toEqual(viaRoute.json());
      expect(answer.match).toMatchObject({ domain: FERNHOLLOW, alias: viaRoute.headers['x-bf-matched-alias'], source: viaRoute.headers['x-bf-match-source'] });
      expect(answer.match.confidence.toFixed(2)).toBe(viaRoute.headers['x-bf-match-confidence']);
      // Paid directly: no processor, and the route sends no x-bf-payment-processor.
      expect(answer.match.paymentProcessor).toBeNull();
      expect(viaRoute.headers['x-bf-payment-processor']).toBeUndefined();
      expect(result.structuredContent).toEqual(answer);

      // A merchant PayPal carried: the processor the route names in x-bf-payment-processor (issue 34).
      const carried = { transactionLabel: 'PAYPAL *FERNHOLLOW', countryCode: 'NL' };
      const viaPaypal = await call(client, 'enrich_transaction', carried);
      expect(viaPaypal.isError, textOf(viaPaypal)).toBeFalsy();
      const paypalRoute = await stack.app.inject({ method: 'POST', url: '/v2/brands/transaction', headers: bearer(access.apiKey), payload: carried });
      expect(paypalRoute.headers['x-bf-payment-processor']).toBe('paypal');
      expect((JSON.parse(textOf(viaPaypal)) as Answer).match).toMatchObject({ domain: FERNHOLLOW, paymentProcessor: 'paypal' });

      const before = await prepaidBalance(access.orgId);
      const none = await call(client, 'enrich_transaction', { transactionLabel: 'XQZV 99812 ZZKQ PLMB', countryCode: 'US' });
      expect(none.isError).toBe(true);
      expect(JSON.parse(textOf(none))).toMatchObject({ status: 400, message: 'Failed to enrich transaction' });
      expect(costOf(none)).toBe(0);
      // A payment to a person through an intermediary names no merchant, not the intermediary: the same free error.
      for (const transactionLabel of ['VENMO *JANE DOE', 'PAYPAL *JOHNSMITH', 'ZELLE TO JANE DOE']) {
        const person = await call(client, 'enrich_transaction', { transactionLabel, countryCode: 'US' });
        expect(person.isError, transactionLabel).toBe(true);
        expect(JSON.parse(textOf(person))).toMatchObject({ code: 'transaction_not_enriched', status: 400, message: 'Failed to enrich transaction' });
        expect(costOf(person)).toBe(0);
      }
      await expect(call(client, 'enrich_transaction', { transactionLabel: 'SQ *BLUE BOTTLE' })).rejects.toThrow(/Invalid arguments/);
      expect(await prepaidBalance(access.orgId)).toBe(before);
    });

    it("brand_search finds the held brand by name through the organization's client ID", async () => {
      await holdFernhollow();
      const result = await call(client, 'brand_search', { name: 'Fernhollow', limit: 3 });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(costOf(result)).toBe(0);
      const found = JSON.parse(textOf(result)) as { results: { domain: string }[] };
      expect(found.results.map((r) => r.domain)).toContain(FERNHOLLOW);
    });

    it('build_logo_urls builds CDN URLs with the client ID, and the CDN serves them', async () => {
      await holdFernhollow();
      const result = await call(client, 'build_logo_urls', { identifier: FERNHOLLOW, type: 'icon', size: 64 });
      expect(result.isError, textOf(result)).toBeFalsy();
      const built = JSON.parse(textOf(result)) as { urls: { type: string; url: string }[]; clientId: string };
      expect(built.clientId).toBe(access.clientId);
      expect(built.urls).toEqual([{ type: 'icon', url: `${stack.services.config.cdn.baseUrl}/domain/${FERNHOLLOW}/type/icon/w/64/h/64.png?c=${access.clientId}` }]);
      const image = await fetch(built.urls[0]?.url.replace(stack.services.config.publicUrl, address) ?? '');
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
    });

    it('arguments that do not match the schema are refused by the protocol, and nothing is charged', async () => {
      const before = await prepaidBalance(access.orgId);
      await expect(call(client, 'get_brand', { identifier: '' })).rejects.toThrow(/Invalid arguments for get_brand/);
      await expect(call(client, 'get_brand', { domain: FERNHOLLOW })).rejects.toThrow(/Invalid arguments/);
      const bad = await call(client, 'get_brand', { identifier: 'not a domain at all' });
      expect(bad.isError).toBe(true);
      expect(JSON.parse(textOf(bad))).toMatchObject({ code: 'invalid_identifier', status: 400 });
      expect(await prepaidBalance(access.orgId)).toBe(before);
    });
  });

  describe('refusals', () => {
    it('a bad token is refused (403) before the protocol: the client cannot connect', async () => {
      await expect(connect(generateMcpToken().token)).rejects.toMatchObject({ code: 403, message: expect.stringContaining('Invalid MCP token.') });
      const raw = await fetch(`${address}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${generateMcpToken().token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
      expect(raw.status).toBe(403);
      expect(await raw.json()).toEqual({ message: 'Invalid MCP token.' });
    });

    it('no credential answers 401', async () => {
      await expect(connect(null)).rejects.toMatchObject({ code: 401, message: expect.stringContaining('Missing credentials') });
      const raw = await fetch(`${address}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(raw.status).toBe(401);
      expect(raw.headers.get('www-authenticate')).toBe('Bearer realm="brandbase"');
    });

    it('an API key works as well', async () => {
      const { apiKey } = await buyAccess();
      const client = await connect(apiKey);
      expect((await client.listTools()).tools.length).toBe(5);
    });

    it('an exhausted key lists the tools, and its charged calls answer the route\'s 429 as tool errors, free', async () => {
      const { key } = await stack.newKey({ quota: 1, overage: false });
      const client = await connect(key);
      expect((await client.listTools()).tools.length).toBe(5);
      const first = await call(client, 'get_brand', { identifier: FERNHOLLOW });
      expect(first.isError, textOf(first)).toBeFalsy();
      for (const [name, args] of [['get_brand', { identifier: FERNHOLLOW }], ['get_brand_context', { identifier: FERNHOLLOW }]] as const) {
        const refused = await call(client, name, args);
        expect(refused.isError, name).toBe(true);
        expect(JSON.parse(textOf(refused))).toMatchObject({ code: 'quota_exceeded', status: 429, message: 'API key quota exceeded' });
        expect(costOf(refused)).toBe(0);
      }
      // Free tools still answer.
      expect((await call(client, 'build_logo_urls', { identifier: FERNHOLLOW })).isError).toBeFalsy();
    });

    it('revoking the key the token was sold with ends the token on its next request', async () => {
      const { mcpToken, keyId } = await buyAccess();
      const client = await connect(mcpToken);
      expect((await client.listTools()).tools.length).toBe(5);
      expect(await stack.services.stores.billing.revokeApiKey(keyId, new Date())).toBe(true);
      await expect(client.listTools()).rejects.toMatchObject({ code: 403 });
    });

    it('GET and DELETE answer 405: the server is stateless', async () => {
      const { mcpToken } = await buyAccess();
      for (const method of ['GET', 'DELETE']) {
        const res = await fetch(`${address}/mcp`, { method, headers: { authorization: `Bearer ${mcpToken}` } });
        expect(res.status, method).toBe(405);
      }
    });
  });
});
