/** The industries sub-resource (spec 4.5) through inject on the real service. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Industry } from '../../src/domain/brand.js';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';
import { sampleBrand } from '../store/sample-brand.js';
import { describeEachBackend } from '../helpers/backends.js';

describeEachBackend('industries', (backend) => {
  let stack: TestStack;
  const industries: Industry[] = [
    { id: 'ind_software', score: 1, slug: 'software', name: 'Software', emoji: '💻', parent: null },
    { id: 'ind_devtools', score: 0.82, slug: 'developer-tools', name: 'Developer Tools', emoji: '🛠️', parent: [{ id: 'ind_software', slug: 'software', name: 'Software', emoji: '💻' }] },
  ];

  beforeAll(async () => {
    stack = await startTestStack({}, { backend });
    const now = new Date();
    const brand = sampleBrand('acme.com');
    brand.company.industries = industries;
    await stack.services.stores.brands.saveBrand({ brand, status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [
      { kind: 'domain', value: 'acme.com' },
      { kind: 'ticker', value: 'ACME' },
    ]);
  });
  afterAll(async () => stack?.close());

  describe('GET /v2/brands/{type}/{identifier}/company/industries', () => {
    it.each(['/v2/brands/domain/acme.com/company/industries', '/v2/brands/ticker/acme/company/industries', '/v2/brands/acme.com/company/industries'])('%s answers the brand\'s industries', async (url) => {
      const { key, orgId } = await stack.newKey();
      const res = await stack.app.inject({ method: 'GET', url, headers: bearer(key) });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ industries });
      expect(await stack.services.meter.exactUsed(orgId)).toBe(1);
    });

    it('404 for a brand not held, with no live lookup and no charge', async () => {
      const { key, orgId } = await stack.newKey();
      const res = await stack.app.inject({ method: 'GET', url: '/v2/brands/domain/not-held.test/company/industries', headers: bearer(key) });
      expect(res.statusCode).toBe(404);
      expect(res.json().payment.charged).toBe(false);
      expect(stack.services.indexer.running).toBe(0);
      expect(await stack.services.queue.depth()).toBe(0);
      expect(await stack.services.meter.exactUsed(orgId)).toBe(0);
    });

    it('402 without a credential; 400 for a URL on the domain route', async () => {
      expect((await stack.app.inject({ method: 'GET', url: '/v2/brands/domain/acme.com/company/industries' })).statusCode).toBe(402);
      const { key } = await stack.newKey();
      expect((await stack.app.inject({ method: 'GET', url: '/v2/brands/domain/acme.com%2Fx/company/industries', headers: bearer(key) })).statusCode).toBe(400);
    });
  });
});
