/**
 * Which routes take a payment is derived from the routes themselves (issue 31): every operation the OpenAPI
 * documents with a 402 (the routes that answer a request without credential with the payment offer) answers it with
 * both challenges, x402's `PAYMENT-REQUIRED` naming that route's own template and MPP's `WWW-Authenticate: Payment`
 * (spec 5.2 item 1). HEAD prefetches are never charged and take no payment. A charged route that is not a lookup
 * (the industries read) is paid with the real `@x402/fetch` client on loopback.
 */
import { decodePaymentResponseHeader, wrapFetchWithPaymentFromConfig } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/domain/errors.js';
import { startTestStack, type TestStack } from '../helpers/test-stack.js';
import { sampleBrand } from '../store/sample-brand.js';
import { challengeOf, NETWORK, newWallet, PRICE } from './x402-wallet.js';

let stack: TestStack;

/** An identifier each typed route reads (the auto-detected and domain routes take a domain). */
const IDENTIFIERS: Record<string, string> = { ticker: 'AAPL', isin: 'US0378331005', crypto: 'BTC' };

/** The templates that must be among the paid operations whatever else is added. */
const CORE_PAID = [
  'GET /v2/brands/{identifier}',
  'GET /v2/brands/domain/{identifier}',
  'GET /v2/brands/ticker/{identifier}',
  'GET /v2/brands/isin/{identifier}',
  'GET /v2/brands/crypto/{identifier}',
  'GET /v2/context/{identifier}',
  'POST /v2/brands/transaction',
  'GET /v2/brands/{identifier}/company/industries',
  'GET /v2/brands/domain/{identifier}/company/industries',
];

interface Operation {
  method: string;
  template: string;
}

/**
 * Every operation the OpenAPI documents with a 402, but the standing-access sale (its own offer, spec 5.3) and the
 * HEAD prefetches (free: their 402 carries the offer's body, no challenge to pay).
 */
async function paidOperations(options: { head?: boolean } = {}): Promise<Operation[]> {
  const doc = (await stack.app.inject({ url: '/openapi.json' })).json<{ paths: Record<string, Record<string, { responses?: Record<string, unknown> }>> }>();
  const operations: Operation[] = [];
  for (const [template, methods] of Object.entries(doc.paths)) {
    if (template === '/v2/agents/access') continue;
    for (const [method, operation] of Object.entries(methods)) {
      if (operation.responses?.['402'] && (method === 'head') === (options.head === true)) operations.push({ method: method.toUpperCase(), template });
    }
  }
  return operations;
}

function urlOf(template: string): string {
  const type = /^\/v2\/brands\/(ticker|isin|crypto)\//.exec(template)?.[1];
  return template.replace('{identifier}', type ? (IDENTIFIERS[type] ?? 'acme.com') : 'acme.com');
}

beforeAll(async () => {
  stack = await startTestStack();
  const now = new Date();
  await stack.services.stores.brands.saveBrand({ brand: sampleBrand('acme.com'), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: 'acme.com' }]);
});

afterAll(async () => stack?.close());

describe('every route that answers 402 takes both payments', () => {
  it('the paid operations include every lookup, the context, the transaction and the industries', async () => {
    const names = (await paidOperations()).map((o) => `${o.method} ${o.template}`);
    for (const core of CORE_PAID) expect(names).toContain(core);
  });

  it('a HEAD prefetch is never charged (spec 4.2): its 402 offers no payment to make', async () => {
    const heads = await paidOperations({ head: true });
    expect(heads.map((o) => o.template)).toContain('/v2/brands/{identifier}');
    for (const { template } of heads) {
      const res = await stack.app.inject({ method: 'HEAD', url: urlOf(template) });
      expect(res.statusCode, template).toBe(402);
      expect(res.headers['payment-required'], template).toBeUndefined();
    }
  });

  it('without credential each answers 402 with PAYMENT-REQUIRED for its own template and an MPP challenge', async () => {
    for (const { method, template } of await paidOperations()) {
      const res = await stack.app.inject({
        method: method as 'GET' | 'POST',
        url: urlOf(template),
        ...(method === 'POST' ? { headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ transactionLabel: 'ACME STORE 42', countryCode: 'US' }) } : {}),
      });
      const name = `${method} ${template}`;
      expect(res.statusCode, name).toBe(402);
      expect(res.json<{ message: string }>().message, name).toBe(ERROR_CODES.payment_required.message);
      expect(res.headers['cache-control'], name).toBe('no-store');
      const required = challengeOf(res.headers);
      expect(required.resource.url, name).toBe(`http://brandbase.test${template}`);
      expect(required.accepts[0]?.amount, name).toBe(PRICE.toString());
      expect(String(res.headers['www-authenticate']), name).toMatch(/^Payment id="[^"]+", realm="brandbase.test", method="evm", intent="charge"/);
    }
  });
});

describe('a charged read beyond the lookup is paid like one', () => {
  it('@x402/fetch pays the industries of a held brand once; the same payment again is payment_replayed', async () => {
    const wallet = await newWallet(stack.services.stores.payments, 1_000_000n);
    const address = await stack.app.listen({ port: 0, host: '127.0.0.1' });
    let sent: string | undefined;
    const recording: typeof fetch = (input, init) => {
      const headers = new Headers(input instanceof Request ? input.headers : init?.headers);
      sent = headers.get('payment-signature') ?? sent;
      return fetch(input, init);
    };
    const paidFetch = wrapFetchWithPaymentFromConfig(recording, { schemes: [{ network: NETWORK, client: new ExactEvmScheme(wallet.account) }] });
    const res = await paidFetch(`${address}/v2/brands/acme.com/company/industries`);
    expect(res.status).toBe(200);
    expect(await res.json()).toHaveProperty('industries');
    expect(decodePaymentResponseHeader(res.headers.get('payment-response') ?? '')).toMatchObject({ success: true, payer: wallet.account.address });
    expect(await wallet.balance()).toBe(1_000_000n - PRICE);
    const [row] = (await stack.services.stores.payments.listPayments({ limit: 1000 })).filter((p) => p.payer === wallet.account.address.toLowerCase());
    expect(row).toMatchObject({ method: 'x402', route: '/v2/brands/{identifier}/company/industries' });
    expect(sent).toBeDefined();
    const again = await stack.app.inject({ url: '/v2/brands/acme.com/company/industries', headers: { 'payment-signature': sent ?? '' } });
    expect(again.statusCode).toBe(402);
    expect(again.json<{ message: string }>().message).toBe(ERROR_CODES.payment_replayed.message);
    expect(await wallet.balance()).toBe(1_000_000n - PRICE);
  });
});
