/**
 * GET /v2/brands/{identifier} and /v2/brands/domain/{domain} through Fastify inject, on the real service wired
 * as `brandbase serve` wires it (SQLite, PostgreSQL). Brands are seeded in the store; live crawling is covered by
 * test/e2e. Happy, error and security cases per route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Brand } from '../../src/domain/brand.js';
import { filesContaining, readStoredData } from '../helpers/database-files.js';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';
import { sampleBrand } from '../store/sample-brand.js';
import { describeEachBackend } from '../helpers/backends.js';

describeEachBackend('brand lookup', (backend) => {
  let stack: TestStack;

  /** The record as served: the quality score is recomputed as of the request (recency is one of its factors). */
  const served = (b: Brand) => ({ ...b, qualityScore: expect.any(Number) as unknown as number });
  let brand: Brand;
  let nsfw: Brand;

  async function seed(b: Brand, domains: string[]): Promise<void> {
    const now = new Date();
    await stack.services.stores.brands.saveBrand({ brand: b, status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, domains.map((value) => ({ kind: 'domain', value })));
  }

  async function used(orgId: string): Promise<number> {
    return stack.services.meter.exactUsed(orgId);
  }

  beforeAll(async () => {
    stack = await startTestStack({ BRANDBASE_OPERATOR_DOMAIN: 'www.operator.test' }, { backend });
    brand = sampleBrand('acme.com');
    nsfw = sampleBrand('adult.test', { isNsfw: true, name: 'Adult' });
    await seed(brand, ['acme.com']);
    await seed(nsfw, ['adult.test']);
    await seed(sampleBrand('operator.test', { name: 'Operator' }), ['operator.test']);
  });

  afterAll(async () => stack?.close());

  describe('credentials', () => {
    it('402 with the payment body when no credential is sent, on both routes', async () => {
      for (const url of ['/v2/brands/jane%40acme.com', '/v2/brands/domain/acme.com']) {
        const res = await stack.app.inject({ method: 'GET', url });
        expect(res.statusCode).toBe(402);
        const body = res.json();
        expect(Object.keys(body).sort()).toEqual(['documentation', 'message', 'pricing', 'resource', 'standingAccess']);
        expect(body.pricing).toEqual({ route: expect.stringMatching(/^\/v2\/brands\//), price: '$0.10' });
        expect(JSON.stringify(body)).not.toContain('jane');
      }
    });

    it.each(['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', 'Bearer a b', 'Token abc', 'Bearer <key>'])('401 for a malformed header: %s', async (authorization) => {
      const res = await stack.app.inject({ method: 'GET', url: '/v2/brands/acme.com', headers: { authorization } });
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toMatch(/Authorization/);
    });

    it('403 with x-bf-error paid_plan_required for a free organization without credits', async () => {
      const { key } = await stack.newKey({ plan: 'free', quota: 0 });
      const res = await stack.app.inject({ method: 'GET', url: '/v2/brands/acme.com', headers: bearer(key) });
      expect(res.statusCode).toBe(403);
      expect(res.headers['x-bf-error']).toBe('paid_plan_required');
    });

    it('the stored key is a hash: the secret appears nowhere in the database', async () => {
      const { key, keyId } = await stack.newKey();
      await stack.services.meter.flush();
      const files = await readStoredData(stack.database);
      // Control: the scan sees what was stored with the key (its id), so not finding the secret means something.
      expect(filesContaining(files, keyId)).not.toEqual([]);
      expect(filesContaining(files, key)).toEqual([]);
    });
  });

  describe('lookups of held brands', () => {
    it.each([
      ['domain', '/v2/brands/acme.com'],
      ['www and case', '/v2/brands/WWW.ACME.COM'],
      ['website URL', `/v2/brands/${encodeURIComponent('https://www.acme.com/about?x=1')}`],
      ['unencoded website URL', '/v2/brands/https://www.acme.com/about'],
      ['email', '/v2/brands/jane@acme.com'],
      ['%40 email', '/v2/brands/jane%2540acme.com'],
      ['explicit domain route', '/v2/brands/domain/acme.com'],
    ])('%s answers the brand and charges one credit', async (_name, url) => {
      const { key, orgId } = await stack.newKey({ quota: 100 });
      const res = await stack.app.inject({ method: 'GET', url, headers: bearer(key) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual(served(brand));
      expect(res.headers['x-api-key-quota']).toBe('100');
      expect(Number(res.headers['x-api-key-approximate-usage'])).toBe(1);
      expect(await used(orgId)).toBe(1);
    });

    it('a brand ID answers the brand', async () => {
      const { key } = await stack.newKey();
      const res = await stack.app.inject({ method: 'GET', url: `/v2/brands/${brand.id}`, headers: bearer(key) });
      expect(res.statusCode).toBe(200);
      expect(res.json().domain).toBe('acme.com');
    });

    it('palette=true or 1 adds palette: null; any other value adds no palette key', async () => {
      const { key } = await stack.newKey();
      for (const value of ['true', '1']) {
        const res = await stack.app.inject({ method: 'GET', url: `/v2/brands/acme.com?palette=${value}`, headers: bearer(key) });
        expect(res.json()).toEqual({ ...served(brand), palette: null });
      }
      for (const value of ['false', 'yes', '0', '']) {
        const res = await stack.app.inject({ method: 'GET', url: `/v2/brands/acme.com?palette=${value}`, headers: bearer(key) });
        expect('palette' in res.json()).toBe(false);
      }
    });

    it('allowNsfw: unset returns the flagged brand, false answers 404 (free), true returns it', async () => {
      const { key, orgId } = await stack.newKey();
      const unset = await stack.app.inject({ method: 'GET', url: '/v2/brands/adult.test', headers: bearer(key) });
      expect(unset.statusCode).toBe(200);
      expect(unset.json().isNsfw).toBe(true);
      const refused = await stack.app.inject({ method: 'GET', url: '/v2/brands/adult.test?allowNsfw=false', headers: bearer(key) });
      expect(refused.statusCode).toBe(404);
      expect(refused.json().payment.charged).toBe(false);
      const allowed = await stack.app.inject({ method: 'GET', url: '/v2/brands/adult.test?allowNsfw=true', headers: bearer(key) });
      expect(allowed.statusCode).toBe(200);
      expect(await used(orgId)).toBe(2);
    });

    it("the operator's own domain is free on every route (rule 8)", async () => {
      const { key, orgId } = await stack.newKey();
      for (const url of ['/v2/brands/operator.test', '/v2/brands/domain/www.operator.test', '/v2/brands/someone@operator.test']) {
        const res = await stack.app.inject({ method: 'GET', url, headers: bearer(key) });
        expect(res.statusCode, url).toBe(200);
      }
      expect(await used(orgId)).toBe(0);
    });
  });

  describe('answers without a brand', () => {
    it('cachedOnly=true on an unindexed domain: 204, no body, nothing crawled or queued, free', async () => {
      const { key, orgId } = await stack.newKey();
      const res = await stack.app.inject({ method: 'GET', url: '/v2/brands/not-indexed.test?cachedOnly=true', headers: bearer(key) });
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect(stack.services.indexer.running).toBe(0);
      expect(await stack.services.queue.depth()).toBe(0);
      expect(await used(orgId)).toBe(0);
    });

    it('cachedOnly=true on a held brand answers it as usual', async () => {
      const { key } = await stack.newKey();
      const res = await stack.app.inject({ method: 'GET', url: '/v2/brands/acme.com?cachedOnly=true', headers: bearer(key) });
      expect(res.statusCode).toBe(200);
    });

    it('a ticker, ISIN or crypto symbol no company website is known for answers 404 with payment.charged false, free', async () => {
      const { key, orgId } = await stack.newKey();
      for (const id of ['QQZZXQ', 'US0000000002', 'QQZ.B']) {
        const res = await stack.app.inject({ method: 'GET', url: `/v2/brands/${id}`, headers: bearer(key) });
        expect(res.statusCode, id).toBe(404);
        const body = res.json();
        expect(body.message).toBe('This identifier cannot be matched to a company website.');
        expect(body.payment).toEqual({ charged: false, documentation: expect.any(String), message: expect.any(String) });
      }
      expect(await used(orgId)).toBe(0);
    });

    it('an unknown brand ID answers 404 without a crawl', async () => {
      const { key } = await stack.newKey();
      const res = await stack.app.inject({ method: 'GET', url: '/v2/brands/brd_aaaaaaaaaaaaaaaaaaaa', headers: bearer(key) });
      expect(res.statusCode).toBe(404);
      expect(stack.services.indexer.running).toBe(0);
    });
  });

  describe('invalid identifiers answer 400 and are never billed', () => {
    it.each([
      ['/v2/brands/http%3A%2F%2F127.0.0.1%2F', /website URL/],
      ['/v2/brands/https%3A%2F%2Flocalhost', /website URL/],
      ['/v2/brands/jane%40', /email/i],
      ['/v2/brands/%40acme.com', /email/i],
      [`/v2/brands/${'a'.repeat(2049)}`, /2048/],
      ['/v2/brands/%20%20', /empty/],
      ['/v2/brands/acme%20.com', /whitespace/],
      ['/v2/brands/domain/https%3A%2F%2Facme.com', /URLs are not accepted/],
      ['/v2/brands/domain/acme.com%2Fabout', /URLs are not accepted/],
      ['/v2/brands/domain/jane%40acme.com', /Email addresses are not accepted/],
      ['/v2/brands/domain/jane@acme.com', /Email addresses are not accepted/],
      ['/v2/brands/domain/not_a_domain', /Invalid domain/],
    ])('%s', async (url, message) => {
      const { key, orgId } = await stack.newKey();
      const res = await stack.app.inject({ method: 'GET', url, headers: bearer(key) });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(message);
      expect(await used(orgId)).toBe(0);
    });
  });

  describe('quota', () => {
    it('concurrent lookups never exceed the quota and are counted exactly', async () => {
      const { key, orgId } = await stack.newKey({ quota: 50, overage: false });
      const responses = await Promise.all(Array.from({ length: 80 }, () => stack.app.inject({ method: 'GET', url: '/v2/brands/acme.com', headers: bearer(key) })));
      const codes = responses.map((r) => r.statusCode);
      expect(codes.filter((c) => c === 200)).toHaveLength(50);
      expect(codes.filter((c) => c === 429)).toHaveLength(30);
      expect(await used(orgId)).toBe(50);
    });
  });

  describe('other routes', () => {
    it('unknown routes answer 404 JSON', async () => {
      const res = await stack.app.inject({ method: 'GET', url: '/nope' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Not Found' });
    });

    it('GET /healthz answers ok', async () => {
      const res = await stack.app.inject({ method: 'GET', url: '/healthz' });
      expect(res.json()).toEqual({ status: 'ok' });
    });

    it('assets reject path traversal', async () => {
      for (const url of ['/assets/..%2F..%2Fetc%2Fpasswd', '/assets/abc.png', `/assets/${'0'.repeat(64)}.exe`]) {
        const res = await stack.app.inject({ method: 'GET', url });
        expect(res.statusCode).toBe(404);
      }
    });
  });
});
