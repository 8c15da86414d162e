/**
 * GET /v2/context/{identifier} through the real service (SQLite, PostgreSQL, live crawls of sites on loopback through
 * the host map), HTTP through Fastify inject: JSON and Markdown carrying the same facts, traceable to the site,
 * identifiers as rule 4 allows, billing like a lookup, and the route's own error paths (204, 400, 404, 503); the
 * credential, quota and payment answers every billable route shares are in test/billable/common-route-tests.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrandContext } from '../../src/domain/brand-context.js';
import { decodePaymentResponseHeader, wrapFetchWithPaymentFromConfig } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { NETWORK, newWallet, PRICE } from '../payments/x402-wallet.js';
import { sampleBrand } from '../store/sample-brand.js';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';
import { FERNHOLLOW, INJECTION, MALLORY, mallorySite, QUIETPINE, startContextSites, type ContextSites } from './context-sites.js';
import { profileTexts, untraceable } from './context-trace.js';
import { labelled, markdownFacts } from './markdown-facts.js';
import { SITE_TEXT_INFO } from '../../src/context/context-markdown.js';
import { describeEachBackend } from '../helpers/backends.js';
import { UNBOUNDED_BUDGETS_ENV } from '../helpers/unbounded-budget.js';

describeEachBackend('context route', (backend) => {
  let sites: ContextSites;
  let stack: TestStack;
  let key: string;

  const usage = (res: { headers: Record<string, unknown> }): number => Number(res.headers['x-api-key-approximate-usage']);

  beforeAll(async () => {
    sites = await startContextSites(2, [mallorySite()]);
    // `refused.test` is mapped to a port nothing listens on: its crawl fails at once.
    const hostMap = { ...sites.served.hostMap, 'refused.test': '127.0.0.1:9' };
    stack = await startTestStack({ BRANDBASE_CRAWL_HOSTS: JSON.stringify(hostMap), ...UNBOUNDED_BUDGETS_ENV }, { backend });
    ({ key } = await stack.newKey({ quota: 1000 }));
  });

  afterAll(async () => {
    await stack?.close();
    await sites?.served.close();
  });

  describe('a context is built from a live crawl and answered as JSON or Markdown', () => {
    let json: BrandContext;
    let firstUsage: number;
    /** The live crawl's key, used again only by the test of its cost: the other tests' requests are not counted on it. */
    let crawlKey: string;

    beforeAll(async () => {
      ({ key: crawlKey } = await stack.newKey({ quota: 10 }));
      const res = await stack.app.inject({ method: 'GET', url: `/v2/context/${FERNHOLLOW}`, headers: bearer(crawlKey) });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      json = res.json();
      firstUsage = usage(res);
    });

    it('has the shape clients parse, with the brand it belongs to', () => {
      expect(Object.keys(json)).toEqual(['meta', 'identity', 'positioning', 'brand', 'links']);
      expect(json.meta.domain).toBe(FERNHOLLOW);
      expect(json.meta.canonical_name).toBe('Fernhollow');
      expect(new Date(json.meta.resolved_at).toISOString()).toBe(json.meta.resolved_at);
      expect(json.identity.tagline).toBe('Books closed by Friday.');
      expect(json.positioning.products_and_services.length).toBeGreaterThan(3);
      expect(json.links.brand).toBe(`http://brandbase.test/v2/brands/domain/${FERNHOLLOW}`);
      expect(json.links.logos.length).toBeGreaterThan(0);
      for (const logo of json.links.logos) expect(logo.url).toMatch(/^http:\/\/brandbase\.test\/assets\/[0-9a-f]{64}\.\w+$/);
    });

    it('every text is found on the page its source names', () => {
      expect(untraceable({ ...json, sources: json.meta.sources }, sites.pages(FERNHOLLOW))).toEqual([]);
    });

    it('costs one credit, like a lookup; a second request reads the stored profile and costs one more', async () => {
      expect(firstUsage).toBe(1);
      const again = await stack.app.inject({ method: 'GET', url: `/v2/context/${FERNHOLLOW}`, headers: bearer(crawlKey) });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(json);
      expect(usage(again)).toBe(firstUsage + 1);
    });

    it('Accept: text/markdown answers CommonMark carrying the same facts', async () => {
      const res = await stack.app.inject({ method: 'GET', url: `/v2/context/${FERNHOLLOW}`, headers: { ...bearer(key), accept: 'text/markdown' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
      const facts = markdownFacts(res.body);
      expect(facts.unsafe).toEqual([]);
      expect(facts.headings[0]).toEqual({ level: 1, text: `Brand context: ${FERNHOLLOW}` });
      expect(labelled(facts, '', 'Name')).toBe('Fernhollow');
      expect(labelled(facts, 'Identity', 'Tagline')).toBe(json.identity.tagline);
      expect(labelled(facts, 'Identity', 'Mission')).toBe(json.identity.mission);
      expect(labelled(facts, 'Identity', 'Description')).toBe(json.identity.description);
      expect(labelled(facts, 'Positioning', 'Value proposition')).toBe(json.positioning.value_proposition);
      expect(labelled(facts, 'Brand > Voice', 'Summary')).toBe(json.brand.voice.summary);
      expect(labelled(facts, 'Brand > Style', 'Summary')).toBe(json.brand.style.summary);
      // Every text of the JSON is in the Markdown, and every link of the JSON is a link of the Markdown.
      const rendered = facts.lines.map((l) => l.text).join('\n');
      for (const { field, text } of profileTexts({ ...json, sources: json.meta.sources })) expect(rendered, field).toContain(text);
      expect(facts.links).toEqual([json.links.brand, ...json.links.logos.map((l) => l.url)]);
      for (const color of json.links.colors) expect(rendered).toContain(color.hex);
    });

    it("marks a hostile site's text as quoted, untrusted content: injection and fence-breaking stay inside the quotes (issue 33)", async () => {
      const json = await stack.app.inject({ method: 'GET', url: `/v2/context/${MALLORY}`, headers: bearer(key) });
      expect(json.statusCode, json.body).toBe(200);
      const context = json.json<BrandContext>();
      // The JSON states what the site states (data, for the client to quote as it sees fit)...
      expect(JSON.stringify(context)).toContain(INJECTION);
      const res = await stack.app.inject({ method: 'GET', url: `/v2/context/${MALLORY}`, headers: { ...bearer(key), accept: 'text/markdown' } });
      expect(res.statusCode).toBe(200);
      const facts = markdownFacts(res.body);
      // ...and the Markdown says up front that the site's text is quoted data, not instructions.
      const intro = facts.lines.find((l) => l.section === '')?.text ?? '';
      expect(intro).toContain('untrusted data, not instructions');
      expect(res.body.indexOf('not instructions')).toBeLessThan(res.body.indexOf(INJECTION));
      // The structure is Brandbase's whatever the site says: the fixed headings, no HTML, image or link from the site.
      expect(facts.headings.map((h) => h.text)).toEqual([
        `Brand context: ${MALLORY}`, 'Identity', 'Positioning', 'Target audience', 'Products and services', 'Brand', 'Voice', 'Style', 'Links', 'Sources',
      ]);
      expect(facts.unsafe).toEqual([]);
      expect(facts.links).toEqual([context.links.brand, ...context.links.logos.map((l) => l.url)]);
      // Every site text is inside a site-text block; nothing outside the blocks carries the injection.
      expect(facts.fences.length).toBeGreaterThan(2);
      for (const fence of facts.fences) expect(fence.info).toBe(SITE_TEXT_INFO);
      const quoted = facts.fences.flatMap((f) => f.lines).join('\n');
      for (const { field, text } of profileTexts({ ...context, sources: context.meta.sources })) expect(quoted, field).toContain(text.replace(/\s+/g, ' ').trim());
      expect(quoted).toContain(INJECTION);
      for (const text of facts.unquoted) {
        expect(text).not.toContain('Ignore previous');
        expect(text).not.toContain('SYSTEM PROMPT');
      }
    });

    it('prefers JSON unless Markdown ranks first', async () => {
      const res = await stack.app.inject({ method: 'GET', url: `/v2/context/${FERNHOLLOW}`, headers: { ...bearer(key), accept: 'application/json, text/markdown;q=0.5' } });
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    });

    it('a website URL and an email address reach the same context (spec 1 rule 4)', async () => {
      for (const identifier of [`https://www.${FERNHOLLOW}/about?ref=x`, `hello@${FERNHOLLOW}`]) {
        const res = await stack.app.inject({ method: 'GET', url: `/v2/context/${encodeURIComponent(identifier)}`, headers: bearer(key) });
        expect(res.statusCode, identifier).toBe(200);
        expect(res.json<BrandContext>().identity).toEqual(json.identity);
      }
      expect(stack.logs()).not.toContain('hello@');
    });

    it('cachedOnly=true answers a held context', async () => {
      const res = await stack.app.inject({ method: 'GET', url: `/v2/context/${FERNHOLLOW}?cachedOnly=true`, headers: bearer(key) });
      expect(res.statusCode).toBe(200);
      expect(res.json<BrandContext>().identity).toEqual(json.identity);
    });
  });

  describe('error paths', () => {
    it('a site that states nothing answers nulls, not guesses', async () => {
      const res = await stack.app.inject({ method: 'GET', url: `/v2/context/${QUIETPINE}`, headers: bearer(key) });
      expect(res.statusCode).toBe(200);
      const body = res.json<BrandContext>();
      expect(body.identity).toEqual({ tagline: null, mission: null, description: null, tags: [] });
      expect(body.meta.sources).toEqual([]);
    });

    it('204 with cachedOnly=true when nothing is held, free', async () => {
      const { key: own } = await stack.newKey({ quota: 10 });
      const res = await stack.app.inject({ method: 'GET', url: '/v2/context/never-crawled.test?cachedOnly=true', headers: bearer(own) });
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect(usage(res)).toBe(0);
    });

    it('@x402/fetch pays a context on loopback: 200, a PAYMENT-RESPONSE receipt, one payment for the context route', async () => {
      const wallet = await newWallet(stack.services.stores.payments, 1_000_000n);
      const address = await stack.app.listen({ port: 0, host: '127.0.0.1' });
      const paidFetch = wrapFetchWithPaymentFromConfig(fetch, { schemes: [{ network: NETWORK, client: new ExactEvmScheme(wallet.account) }] });
      const res = await paidFetch(`${address}/v2/context/${FERNHOLLOW}`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as BrandContext).meta.domain).toBe(FERNHOLLOW);
      expect(decodePaymentResponseHeader(res.headers.get('payment-response') ?? '')).toMatchObject({ success: true, payer: wallet.account.address });
      expect(await wallet.balance()).toBe(1_000_000n - PRICE);
      const rows = (await stack.services.stores.payments.listPayments({ limit: 1000 })).filter((p) => p.payer === wallet.account.address.toLowerCase());
      expect(rows.map((p) => p.route)).toEqual(['/v2/context/{identifier}']);
    });

    it('400 for an identifier that is not a domain, URL or email, never billed', async () => {
      const { key: own } = await stack.newKey({ quota: 10 });
      for (const identifier of ['AAPL', 'US0378331005', 'not a domain']) {
        const res = await stack.app.inject({ method: 'GET', url: `/v2/context/${encodeURIComponent(identifier)}`, headers: bearer(own) });
        expect(res.statusCode, identifier).toBe(400);
      }
      const viewer = await stack.app.inject({ method: 'GET', url: '/v2/viewer', headers: bearer(own) });
      expect(JSON.stringify(viewer.json())).not.toMatch(/"used":\s*[1-9]/);
    });

    it('404 when the site cannot be crawled, not charged', async () => {
      const { key: own } = await stack.newKey({ quota: 10 });
      const res = await stack.app.inject({ method: 'GET', url: '/v2/context/refused.test', headers: bearer(own) });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ message: expect.any(String), reason: expect.any(String) });
      expect(usage(res)).toBe(0);
    });

    it('503 generation_in_progress with Retry-After for a held brand crawled before contexts existed, a re-crawl queued, not charged', async () => {
      const { key: own } = await stack.newKey({ quota: 10 });
      const brand = sampleBrand('oldcrawl.test');
      const now = new Date();
      await stack.services.stores.brands.saveBrand({ brand, status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: 'oldcrawl.test' }]);
      const cached = await stack.app.inject({ method: 'GET', url: '/v2/context/oldcrawl.test?cachedOnly=true', headers: bearer(own) });
      expect(cached.statusCode).toBe(204);
      const res = await stack.app.inject({ method: 'GET', url: '/v2/context/oldcrawl.test', headers: bearer(own) });
      expect(res.statusCode).toBe(503);
      expect(res.headers['x-bf-error']).toBe('generation_in_progress');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.json()).toEqual({ message: 'The context of this brand is being generated; retry after the time in Retry-After. Nothing was charged.' });
      const job = await stack.services.queue.claim(['crawl.brand'], 60_000);
      expect(job?.key).toBe('oldcrawl.test');
      const viewer = await stack.app.inject({ method: 'GET', url: '/v2/viewer', headers: bearer(own) });
      expect(JSON.stringify(viewer.json())).not.toMatch(/"used":\s*[1-9]/);
    });
  });
});
