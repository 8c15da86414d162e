/**
 * POST /v2/brands/batch through inject on the real service (SQLite, PostgreSQL). Brands are seeded in the store;
 * unindexed identifiers are queued in the real jobs table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Brand } from '../../src/domain/brand.js';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';
import { sampleBrand } from '../store/sample-brand.js';
import { describeEachBackend } from '../helpers/backends.js';

describeEachBackend('batch lookups', (backend) => {
  let stack: TestStack;

  /** The record as served: the quality score is recomputed as of the request (recency is one of its factors). */
  const served = (b: Brand) => ({ ...b, qualityScore: expect.any(Number) as unknown as number });
  let acme: Brand;

  async function seed(stackToSeed: TestStack, b: Brand, domains: string[], status: 'indexed' | 'removed' = 'indexed'): Promise<void> {
    const now = new Date();
    await stackToSeed.services.stores.brands.saveBrand({ brand: b, status, crawledAt: now, createdAt: now, updatedAt: now }, domains.map((value) => ({ kind: 'domain', value })));
  }

  function batch(key: string, body: unknown, target: TestStack = stack) {
    return target.app.inject({ method: 'POST', url: '/v2/brands/batch', headers: { ...bearer(key), 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  }

  beforeAll(async () => {
    stack = await startTestStack({ BRANDBASE_OPERATOR_DOMAIN: 'operator.test' }, { backend });
    acme = sampleBrand('acme.com');
    await seed(stack, acme, ['acme.com']);
    await seed(stack, sampleBrand('globex.com', { name: 'Globex' }), ['globex.com']);
    await seed(stack, sampleBrand('adult.test', { isNsfw: true }), ['adult.test']);
    await seed(stack, sampleBrand('gone.test'), ['gone.test'], 'removed');
    await seed(stack, sampleBrand('operator.test'), ['operator.test']);
  });

  afterAll(async () => stack?.close());

  describe('whole-request errors (spec 7.1): nothing is charged', () => {
    it('403 paid_plan_required on the free plan', async () => {
      const { key } = await stack.newKey({ plan: 'free', quota: 500 });
      const res = await batch(key, { identifiers: ['acme.com'] });
      expect(res.statusCode).toBe(403);
      expect(res.headers['x-bf-error']).toBe('paid_plan_required');
    });

    it.each([
      ['missing identifiers', {}],
      ['empty identifiers', { identifiers: [] }],
      ['101 identifiers', { identifiers: Array.from({ length: 101 }, (_, i) => `d${i}.com`) }],
      ['an item that is a number', { identifiers: [42] }],
      ['an object without value', { identifiers: [{ type: 'domain' }] }],
      ['an object with an unknown type', { identifiers: [{ type: 'url', value: 'acme.com' }] }],
      ['an object with another property', { identifiers: [{ type: 'domain', value: 'acme.com', extra: 1 }] }],
      ['an unknown body property', { identifiers: ['acme.com'], expand: true }],
      ['cachedOnly not a boolean', { identifiers: ['acme.com'], cachedOnly: 'yes' }],
      ['identifiers not an array', { identifiers: 'acme.com' }],
    ])('400 for %s', async (_name, body) => {
      const { key, orgId } = await stack.newKey();
      const res = await batch(key, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toEqual(expect.any(String));
      expect(await stack.services.meter.exactUsed(orgId)).toBe(0);
    });

    it('400 for a body that is not JSON', async () => {
      const { key } = await stack.newKey();
      const res = await stack.app.inject({ method: 'POST', url: '/v2/brands/batch', headers: { ...bearer(key), 'content-type': 'application/json' }, payload: '{"identifiers": [' });
      expect(res.statusCode).toBe(400);
    });

    it('429 with {message, quota, used, remaining, required} when fewer credits remain than the batch could use; nothing charged', async () => {
      const { key, orgId } = await stack.newKey({ quota: 1, overage: false });
      const res = await batch(key, { identifiers: ['acme.com', 'globex.com'] });
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual({ message: 'API key quota exceeded', quota: 1, used: 0, remaining: 1, required: 2 });
      expect(await stack.services.meter.exactUsed(orgId)).toBe(0);
    });

    it("the 429's used is the organization's exact usage, charged through this process and another (issue 33)", async () => {
      const { key, orgId } = await stack.newKey({ quota: 100, overage: false });
      // A second API process on the same database serves the same organization.
      const other = await startTestStack({ BRANDBASE_OPERATOR_DOMAIN: 'operator.test' }, { database: stack.database });
      try {
        const lookup = (target: TestStack) => target.app.inject({ method: 'GET', url: '/v2/brands/acme.com', headers: bearer(key) });
        for (let i = 0; i < 5; i++) expect((await lookup(stack)).statusCode).toBe(200);
        for (let i = 0; i < 95; i += 5) {
          const answers = await Promise.all(Array.from({ length: 5 }, () => lookup(other)));
          expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
        }
        // The other process's last charges may still sit in its flush window (its meter writes them within 50 ms).
        await other.services.meter.flush();
        const res = await batch(key, { identifiers: ['acme.com', 'globex.com'] });
        expect(res.statusCode).toBe(429);
        expect(res.json()).toEqual({ message: 'API key quota exceeded', quota: 100, used: 100, remaining: 0, required: 2 });
        expect(await stack.services.meter.exactUsed(orgId)).toBe(100);
      } finally {
        await other.close();
      }
    });
  });

  describe('results', () => {
    it('one result per identifier, in order, echoed trimmed, with the spec statuses', async () => {
      const { key, orgId } = await stack.newKey({ quota: 100 });
      const long = `${'a'.repeat(2045)}.com`;
      const res = await batch(key, {
        identifiers: [
          '  acme.com  ',
          { type: 'domain', value: ' globex.com ' },
          'jane@acme.com',
          'not-indexed-yet.test',
          'QQZZXQ',
          { type: 'ticker', value: 'SAP.DE' },
          'http://127.0.0.1/',
          long,
          '',
          'gone.test',
          { type: 'brandId', value: acme.id },
          { type: 'brandId', value: 'brd_aaaaaaaaaaaaaaaaaaaa' },
          { type: 'isin', value: 'US0378331006' },
        ],
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-api-key-quota']).toBe('100');
      const results = res.json().results as Record<string, unknown>[];
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 202, 404, 202, 400, 400, 400, 404, 200, 404, 400]);
      expect(results[0]).toEqual({ identifier: 'acme.com', status: 200, brand: served(acme) });
      expect(results[1]?.identifier).toEqual({ type: 'domain', value: 'globex.com' });
      expect(results[3]).toEqual({ identifier: 'not-indexed-yet.test', status: 202, code: 'crawl_queued' });
      expect(results[4]).toMatchObject({ status: 404, message: 'This identifier cannot be matched to a company website.' });
      // A ticker the reference data resolves (SAP.DE → sap.com) has the crawl of its company's website queued.
      expect(results[5]).toEqual({ identifier: { type: 'ticker', value: 'SAP.DE' }, status: 202, code: 'crawl_queued' });
      expect(results[6]).toMatchObject({ status: 400, message: expect.stringMatching(/website URL/) });
      expect(results[7]).toMatchObject({ status: 400, message: expect.stringMatching(/2048/) });
      // acme.com three times (domain, email, brand ID) and globex.com once: two distinct brands, two credits.
      expect(await stack.services.meter.exactUsed(orgId)).toBe(2);
      expect(Number(res.headers['x-api-key-approximate-usage'])).toBe(2);
    });

    it('a batch never crawls: an unindexed domain is queued once however often it is asked for', async () => {
      const { key } = await stack.newKey();
      const before = await stack.services.queue.depth();
      await batch(key, { identifiers: ['queued-once.test', 'www.queued-once.test'] });
      await batch(key, { identifiers: ['queued-once.test'] });
      expect(await stack.services.queue.depth()).toBe(before + 1);
      expect(stack.services.indexer.running).toBe(0);
    });

    it('cachedOnly: unindexed answers 204 and nothing is queued', async () => {
      const { key } = await stack.newKey();
      const before = await stack.services.queue.depth();
      const res = await batch(key, { identifiers: ['acme.com', 'cached-only-miss.test'], cachedOnly: true });
      expect(res.json().results.map((r: { status: number }) => r.status)).toEqual([200, 204]);
      expect(res.json().results[1]).toEqual({ identifier: 'cached-only-miss.test', status: 204 });
      expect(await stack.services.queue.depth()).toBe(before);
    });

    it('allowNsfw=false answers 404 for a flagged brand (free); unset returns it', async () => {
      const { key, orgId } = await stack.newKey();
      const refused = await batch(key, { identifiers: ['adult.test'], allowNsfw: false });
      expect(refused.json().results[0]).toMatchObject({ status: 404 });
      expect(await stack.services.meter.exactUsed(orgId)).toBe(0);
      const unset = await batch(key, { identifiers: ['adult.test'] });
      expect(unset.json().results[0].brand.isNsfw).toBe(true);
    });

    it('palette adds palette: null to each brand', async () => {
      const { key } = await stack.newKey();
      const res = await batch(key, { identifiers: ['acme.com'], palette: true });
      expect(res.json().results[0].brand.palette).toBeNull();
    });

    it("the operator's own domain is free", async () => {
      const { key, orgId } = await stack.newKey();
      const res = await batch(key, { identifiers: ['operator.test', 'acme.com'] });
      expect(res.json().results.map((r: { status: number }) => r.status)).toEqual([200, 200]);
      expect(await stack.services.meter.exactUsed(orgId)).toBe(1);
    });
  });

  describe('budgets', () => {
    it('413 response_too_large for brands past the response byte budget, not charged, the rest answered', async () => {
      const small = await startTestStack({ BRANDBASE_BATCH_MAX_RESPONSE_BYTES: String(JSON.stringify(acme).length + 400) }, { backend });
      try {
        await seed(small, acme, ['acme.com']);
        await seed(small, sampleBrand('globex.com'), ['globex.com']);
        const { key, orgId } = await small.newKey();
        const res = await batch(key, { identifiers: ['acme.com', 'globex.com', 'QQZZXQ'] }, small);
        const results = res.json().results;
        expect(results.map((r: { status: number }) => r.status)).toEqual([200, 413, 404]);
        expect(results[1]).toMatchObject({ identifier: 'globex.com', code: 'response_too_large' });
        expect(await small.services.meter.exactUsed(orgId)).toBe(1);
      } finally {
        await small.close();
      }
    });
  });

  describe('concurrency', () => {
    it('200 parallel single lookups and 20 parallel batches leave usage exactly equal to the charged results', async () => {
      const { key, orgId } = await stack.newKey({ quota: 100_000 });
      const singles = Array.from({ length: 200 }, (_, i) => stack.app.inject({ method: 'GET', url: `/v2/brands/${i % 2 ? 'acme.com' : 'globex.com'}`, headers: bearer(key) }));
      const batches = Array.from({ length: 20 }, () => batch(key, { identifiers: ['acme.com', 'globex.com', 'acme.com', 'AAPL', 'adult.test'] }));
      const [singleResponses, batchResponses] = await Promise.all([Promise.all(singles), Promise.all(batches)]);
      const singleCharged = singleResponses.filter((r) => r.statusCode === 200).length;
      const batchCharged = batchResponses.map((r) => new Set(r.json().results.filter((x: { status: number }) => x.status === 200).map((x: { brand: Brand }) => x.brand.id)).size).reduce((a, b) => a + b, 0);
      expect(singleCharged).toBe(200);
      expect(batchCharged).toBe(60);
      expect(await stack.services.meter.exactUsed(orgId)).toBe(singleCharged + batchCharged);
      const viewer = await stack.app.inject({ method: 'GET', url: '/v2/viewer', headers: bearer(key) });
      expect(viewer.json().usage.used).toBe(260);
    });
  });
});
