/** GET /v2/viewer (spec 4.4, 2.9) through inject on the real service. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';
import { sampleBrand } from '../store/sample-brand.js';
import { describeEachBackend } from '../helpers/backends.js';

describeEachBackend('viewer', (backend) => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({}, { backend });
    const now = new Date();
    await stack.services.stores.brands.saveBrand({ brand: sampleBrand('acme.com'), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: 'acme.com' }]);
  });
  afterAll(async () => stack?.close());

  describe('GET /v2/viewer', () => {
    it('answers the API-key shape with the exact usage, and no credential material', async () => {
      const { key, keyId, orgId } = await stack.newKey({ quota: 3 });
      for (let i = 0; i < 2; i++) await stack.app.inject({ method: 'GET', url: '/v2/brands/acme.com', headers: bearer(key) });
      const res = await stack.app.inject({ method: 'GET', url: '/v2/viewer', headers: bearer(key) });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toEqual({
        type: 'api-key',
        id: keyId,
        urn: `urn:brandbase:organization:${orgId}:api-key:${keyId}`,
        name: 'Default key',
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        usage: { used: 2, quota: 3 },
        organization: { id: orgId, urn: `urn:brandbase:organization:${orgId}`, name: 'Test org' },
      });
      expect(res.body).not.toContain(key);
      expect(res.body).not.toContain(key.slice(0, 12));
      expect(body).not.toHaveProperty('agent');
    });

    it('is free and keeps validating when the quota is exhausted', async () => {
      const { key } = await stack.newKey({ quota: 1, overage: false });
      expect((await stack.app.inject({ method: 'GET', url: '/v2/brands/acme.com', headers: bearer(key) })).statusCode).toBe(200);
      expect((await stack.app.inject({ method: 'GET', url: '/v2/brands/acme.com', headers: bearer(key) })).statusCode).toBe(429);
      for (let i = 0; i < 3; i++) {
        const res = await stack.app.inject({ method: 'GET', url: '/v2/viewer', headers: bearer(key) });
        expect(res.statusCode).toBe(200);
        expect(res.json().usage).toEqual({ used: 1, quota: 1 });
      }
    });

    it('answers a key of a free organization without credits (a 200 means the credential is valid)', async () => {
      const { key } = await stack.newKey({ plan: 'free', quota: 0 });
      expect((await stack.app.inject({ method: 'GET', url: '/v2/viewer', headers: bearer(key) })).statusCode).toBe(200);
    });

    it('401 with an agentAccess object when no Authorization header is sent', async () => {
      const res = await stack.app.inject({ method: 'GET', url: '/v2/viewer' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: expect.any(String), agentAccess: { offer: 'http://brandbase.test/v2/agents/access', description: expect.any(String), documentation: expect.any(String) } });
    });

    it('401 for a malformed header, 403 for an unknown or revoked key', async () => {
      expect((await stack.app.inject({ method: 'GET', url: '/v2/viewer', headers: { authorization: 'Bearer' } })).statusCode).toBe(401);
      expect((await stack.app.inject({ method: 'GET', url: '/v2/viewer', headers: bearer('bb_live_nope') })).statusCode).toBe(403);
      const { key, keyId } = await stack.newKey();
      await stack.services.accounts.revokeApiKey(keyId);
      expect((await stack.app.inject({ method: 'GET', url: '/v2/viewer', headers: bearer(key) })).statusCode).toBe(403);
    });
  });
});
