/**
 * Pay-per-request switched off (BRANDBASE_PAYMENTS=off) or MPP alone off (BRANDBASE_MPP=off), wired as
 * `brandbase serve` wires it: the resolver holds `noPayments` for what is off (usecases/credential-payer.ts), and a
 * route answers as a server that takes no such payment: the 402 body without that protocol's challenge, a proof of
 * it answered as no credential (x402) or as a header of no known scheme (MPP).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../helpers/test-stack.js';

const ROUTES = [
  { url: '/v2/brands/payments-off.test', template: '/v2/brands/{identifier}' },
  { url: '/v2/context/payments-off.test', template: '/v2/context/{identifier}' },
];

/** An x402 proof that the server would refuse as malformed were x402 on (it is not base64 JSON). */
const X402_PROOF = 'not-a-payment';
const MPP_PROOF = 'Payment not-a-credential';
/** The message of 401 `malformed_authorization` (spec 7.1). */
const MALFORMED = 'Malformed Authorization header: expected "Bearer <API_KEY>".';

describe('payments off', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ BRANDBASE_PAYMENTS: 'off' });
  });
  afterAll(async () => stack?.close());

  it('a billable route without a credential answers 402 with the payment body and no challenge', async () => {
    for (const route of ROUTES) {
      const res = await stack.app.inject({ method: 'GET', url: route.url });
      expect(res.statusCode, route.url).toBe(402);
      expect(res.json(), route.url).toMatchObject({ pricing: { route: route.template }, resource: `http://brandbase.test${route.template}` });
      expect(res.headers['payment-required'], route.url).toBeUndefined();
      expect(res.headers['www-authenticate'], route.url).toBeUndefined();
      expect(res.headers['cache-control'], route.url).not.toBe('no-store');
    }
  });

  it('an x402 proof is no credential: the same 402', async () => {
    for (const route of ROUTES) {
      const bare = await stack.app.inject({ method: 'GET', url: route.url });
      const res = await stack.app.inject({ method: 'GET', url: route.url, headers: { 'payment-signature': X402_PROOF } });
      expect(res.statusCode, route.url).toBe(402);
      expect(res.json(), route.url).toEqual(bare.json());
      expect(res.headers['payment-required'], route.url).toBeUndefined();
    }
  });

  it('an MPP credential is a header of no known scheme: 401 malformed_authorization', async () => {
    for (const route of ROUTES) {
      const res = await stack.app.inject({ method: 'GET', url: route.url, headers: { authorization: MPP_PROOF } });
      expect(res.statusCode, route.url).toBe(401);
      expect(res.json(), route.url).toMatchObject({ message: MALFORMED });
    }
  });
});

describe('MPP off, x402 on', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ BRANDBASE_MPP: 'off' });
  });
  afterAll(async () => stack?.close());

  it('the 402 carries the x402 challenge alone, not to be cached', async () => {
    for (const route of ROUTES) {
      const res = await stack.app.inject({ method: 'GET', url: route.url });
      expect(res.statusCode, route.url).toBe(402);
      expect(res.headers['payment-required'], route.url).toBeTruthy();
      expect(res.headers['www-authenticate'], route.url).toBeUndefined();
      expect(res.headers['cache-control'], route.url).toBe('no-store');
    }
  });

  it('an MPP credential is a header of no known scheme: 401 malformed_authorization', async () => {
    const res = await stack.app.inject({ method: 'GET', url: ROUTES[0]?.url ?? '', headers: { authorization: MPP_PROOF } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ message: MALFORMED });
  });
});
