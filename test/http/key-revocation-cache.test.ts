/**
 * A key revoked in this process stops working at once even with the verified-key cache on
 * (BRANDBASE_KEY_CACHE_MS): `Accounts.revokeApiKey` drops it from the Authenticator main/ hands it, so the dashboard's
 * keys page no longer reaches into the authenticator itself (issue 31: transports get services, not the resolver's
 * parts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';

let stack: TestStack;

beforeAll(async () => {
  // Long enough that no test could see the entry expire on its own.
  stack = await startTestStack({ BRANDBASE_KEY_CACHE_MS: '3600000' });
});
afterAll(async () => stack?.close());

describe('revoking a key with the verified-key cache on', () => {
  it('answers 403 on the next request in this process', async () => {
    const { key, keyId } = await stack.newKey();
    expect((await stack.app.inject({ method: 'GET', url: '/v2/viewer', headers: bearer(key) })).statusCode).toBe(200);
    await stack.services.accounts.revokeApiKey(keyId);
    expect((await stack.app.inject({ method: 'GET', url: '/v2/viewer', headers: bearer(key) })).statusCode).toBe(403);
  });

  it('a revoked key leaves the organization\'s other keys cached and working', async () => {
    const { key, orgId } = await stack.newKey();
    const other = await stack.services.accounts.createApiKey({ orgId, name: 'other' });
    expect((await stack.app.inject({ method: 'GET', url: '/v2/viewer', headers: bearer(key) })).statusCode).toBe(200);
    expect((await stack.app.inject({ method: 'GET', url: '/v2/viewer', headers: bearer(other.key) })).statusCode).toBe(200);
    await stack.services.accounts.revokeApiKey(other.id);
    expect((await stack.app.inject({ method: 'GET', url: '/v2/viewer', headers: bearer(key) })).statusCode).toBe(200);
    expect((await stack.app.inject({ method: 'GET', url: '/v2/viewer', headers: bearer(other.key) })).statusCode).toBe(403);
  });
});
