/**
 * Standing access with payments off (BRANDBASE_PAYMENTS=off), wired as `brandbase serve` wires it: the routes hold
 * the null object (payments/standing-access.ts: noStandingAccess) and answer as they did when the sale was absent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack({ BRANDBASE_PAYMENTS: 'off' });
});
afterAll(async () => stack?.close());

describe('standing access with payments off', () => {
  it('GET offers nothing to buy', async () => {
    const res = await stack.app.inject({ method: 'GET', url: '/v2/agents/access' });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ purchasable: boolean; paymentMethods: unknown[]; message: string }>();
    expect(body.purchasable).toBe(false);
    expect(body.paymentMethods).toEqual([]);
    expect(body.message).toContain('payments are off');
  });

  it('POST answers 501 payments_not_configured before it reads the amount, with the documentation link', async () => {
    for (const url of ['/v2/agents/access?usd=1', '/v2/agents/access?usd=0', '/v2/agents/access']) {
      const res = await stack.app.inject({ method: 'POST', url });
      expect(res.statusCode).toBe(501);
      expect(res.json()).toEqual({
        message: 'Payments are not configured on this server: standing access cannot be bought here.',
        documentation: 'http://brandbase.test/docs/billing#standing-access',
      });
    }
  });

  it('the viewer of an ordinary key has no agent', async () => {
    const { key } = await stack.newKey();
    const res = await stack.app.inject({ method: 'GET', url: '/v2/viewer', headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).not.toHaveProperty('agent');
  });
});
