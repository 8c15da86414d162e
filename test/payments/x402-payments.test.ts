/**
 * x402 v2 pay-per-request on GET /v2/brands/* (spec 5.2, ADR 0028), on the real service (SQLite, PostgreSQL) with
 * the embedded facilitator: `@x402/core` and `@x402/evm` verify and settle, the store's ledger holds balances and
 * used authorizations. The client side is the real thing: `@x402/fetch` with a viem local account against a
 * server listening on loopback, and `@x402/evm`'s client scheme for the payloads a dishonest client would send.
 */
import { decodePaymentResponseHeader, wrapFetchWithPaymentFromConfig } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/domain/errors.js';
import { X402_CLOCK_SKEW_SECONDS, X402_VALID_TOO_LONG } from '../../src/payments/x402-payments.js';
import { brandIdForDomain } from '../../src/domain/ids.js';
import type { PaymentRequired } from '@x402/core/types';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';
import { sampleBrand } from '../store/sample-brand.js';
import { ASSET, challengeOf, NETWORK, newWallet, PRICE, raceTwoPayments } from './x402-wallet.js';
import { describeEachBackend } from '../helpers/backends.js';

describeEachBackend('x402 payments', (backend) => {
  let stack: TestStack;
  let challenge: PaymentRequired;
  const PAY_TO = '0x000000000000000000000000000000000000b4b4';

  async function seed(domain: string): Promise<void> {
    const now = new Date();
    await stack.services.stores.brands.saveBrand({ brand: sampleBrand(domain), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: domain }]);
  }

  function get(url: string, signature?: string) {
    return stack.app.inject({ method: 'GET', url, headers: signature === undefined ? {} : { 'payment-signature': signature } });
  }

  async function payments(): Promise<number> {
    return (await stack.services.stores.payments.listPayments({ limit: 10_000 })).length;
  }

  beforeAll(async () => {
    stack = await startTestStack({ BRANDBASE_OPERATOR_DOMAIN: 'operator.test' }, { backend });
    await seed('acme.com');
    await seed('operator.test');
    challenge = challengeOf((await get('/v2/brands/acme.com')).headers);
  });

  afterAll(async () => stack?.close());

  describe('the 402 challenge', () => {
    it('carries PAYMENT-REQUIRED (exact, the configured network, asset, payee and price) next to the spec body', async () => {
      const res = await get('/v2/brands/domain/someone@acme.com');
      expect(res.statusCode).toBe(402);
      expect(res.headers['cache-control']).toBe('no-store');
      const body = res.json<Record<string, unknown>>();
      expect(Object.keys(body).sort()).toEqual(['documentation', 'message', 'pricing', 'resource', 'standingAccess']);
      const required = challengeOf(res.headers);
      expect(required.x402Version).toBe(2);
      expect(required.accepts).toEqual([
        { scheme: 'exact', network: NETWORK, amount: '100000', asset: ASSET, payTo: PAY_TO, maxTimeoutSeconds: 300, extra: { name: 'USDC', version: '2' } },
      ]);
      // The asking route's template, never the identifier asked for (an email address here).
      expect(required.resource.url).toBe('http://brandbase.test/v2/brands/domain/{identifier}');
      expect(res.headers['payment-required']).not.toContain('someone');
    });
  });

  describe('paying with @x402/fetch on loopback', () => {
    it('answers 200 with the brand and a PAYMENT-RESPONSE receipt, and moves exactly the price once', async () => {
      const wallet = await newWallet(stack.services.stores.payments, 1_000_000n);
      const address = await stack.app.listen({ port: 0, host: '127.0.0.1' });
      const paidFetch = wrapFetchWithPaymentFromConfig(fetch, { schemes: [{ network: NETWORK, client: new ExactEvmScheme(wallet.account) }] });
      const before = await stack.services.stores.payments.ledgerBalance(NETWORK, ASSET, PAY_TO);
      const res = await paidFetch(`${address}/v2/brands/acme.com`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { domain: string }).domain).toBe('acme.com');
      const receipt = decodePaymentResponseHeader(res.headers.get('payment-response') ?? '');
      expect(receipt).toMatchObject({ success: true, network: NETWORK, payer: wallet.account.address });
      expect(receipt.transaction).toMatch(/^0x[0-9a-f]{64}$/);
      expect(await wallet.balance()).toBe(1_000_000n - PRICE);
      expect((await stack.services.stores.payments.ledgerBalance(NETWORK, ASSET, PAY_TO)) - before).toBe(PRICE);
      const [row] = (await stack.services.stores.payments.listPayments({ limit: 10_000 })).filter((p) => p.payer === wallet.account.address.toLowerCase());
      expect(row).toMatchObject({ method: 'x402', network: NETWORK, amount: PRICE, transaction: receipt.transaction, route: '/v2/brands/{identifier}', payTo: PAY_TO });
    });
  });

  describe('refused payments charge nothing and serve nothing', () => {
    it.each([
      ['wrong amount', (r: PaymentRequired['accepts'][number]) => ({ ...r, amount: '1' })],
      ['wrong payee', (r: PaymentRequired['accepts'][number]) => ({ ...r, payTo: '0x00000000000000000000000000000000000bad00' })],
      ['expired authorization', (r: PaymentRequired['accepts'][number]) => ({ ...r, maxTimeoutSeconds: 0 })],
      ['a signature for another token (EIP-712 domain)', (r: PaymentRequired['accepts'][number]) => ({ ...r, extra: { name: 'USD Coin', version: '2' } })],
    ])('%s: 402 payment_invalid with the challenge and its reason', async (_name, tamper) => {
      const wallet = await newWallet(stack.services.stores.payments, 1_000_000n);
      const before = await payments();
      const res = await get('/v2/brands/acme.com', await wallet.pay(challenge, tamper));
      expect(res.statusCode).toBe(402);
      expect(res.json<{ reason: string }>().reason).toMatch(/^invalid_/);
      expect(challengeOf(res.headers).error).toBe(res.json<{ reason: string }>().reason);
      expect(await wallet.balance()).toBe(1_000_000n);
      expect(await payments()).toBe(before);
    });

    describe('an authorization valid longer than the challenge allows (issue 33)', () => {
      const TEN_YEARS = 10 * 365 * 86_400;
      it.each([
        ['ten years', TEN_YEARS],
        ['one day', 86_400],
        [`the window plus ${X402_CLOCK_SKEW_SECONDS * 2} s`, 300 + X402_CLOCK_SKEW_SECONDS * 2],
      ])('valid for %s: 402 payment_invalid with the challenge and its reason, nothing moves', async (_name, seconds) => {
        const wallet = await newWallet(stack.services.stores.payments, 1_000_000n);
        const before = await payments();
        // The real client scheme signs validBefore = now + maxTimeoutSeconds: a client asking for a longer window.
        const res = await get('/v2/brands/acme.com', await wallet.pay(challenge, (r) => ({ ...r, maxTimeoutSeconds: seconds })));
        expect(res.statusCode).toBe(402);
        const body = res.json<Record<string, unknown>>();
        expect(Object.keys(body).sort()).toEqual(['documentation', 'message', 'pricing', 'reason', 'resource', 'standingAccess']);
        expect(body['message']).toBe(ERROR_CODES.payment_invalid.message);
        expect(body['reason']).toBe(X402_VALID_TOO_LONG);
        expect(challengeOf(res.headers).error).toBe(X402_VALID_TOO_LONG);
        expect(challengeOf(res.headers).accepts[0]?.maxTimeoutSeconds).toBe(300);
        expect(await wallet.balance()).toBe(1_000_000n);
        expect(await payments()).toBe(before);
        // The same wallet paying within the window is served.
        const paid = await get('/v2/brands/acme.com', await wallet.pay(challenge));
        expect(paid.statusCode).toBe(200);
        expect(await wallet.balance()).toBe(1_000_000n - PRICE);
      });

      it("one valid for the challenge's window plus less than the clock skew is accepted (a payer's clock may run ahead)", async () => {
        const wallet = await newWallet(stack.services.stores.payments, 1_000_000n);
        const res = await get('/v2/brands/acme.com', await wallet.pay(challenge, (r) => ({ ...r, maxTimeoutSeconds: r.maxTimeoutSeconds + X402_CLOCK_SKEW_SECONDS / 2 })));
        expect(res.statusCode).toBe(200);
        expect(await wallet.balance()).toBe(1_000_000n - PRICE);
      });
    });

    it('a tampered signature: 402', async () => {
      const wallet = await newWallet(stack.services.stores.payments, 1_000_000n);
      const header = await wallet.pay(challenge);
      const payload = JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as { payload: { signature: string } };
      const sig = payload.payload.signature;
      payload.payload.signature = `${sig.slice(0, 10)}${sig[10] === 'a' ? 'b' : 'a'}${sig.slice(11)}`;
      const res = await get('/v2/brands/acme.com', Buffer.from(JSON.stringify(payload)).toString('base64'));
      expect(res.statusCode).toBe(402);
      expect(res.json<{ reason: string }>().reason).toContain('signature');
      expect(await wallet.balance()).toBe(1_000_000n);
    });

    it('a wallet without the balance: 402 insufficient funds', async () => {
      const wallet = await newWallet(stack.services.stores.payments, PRICE - 1n);
      const res = await get('/v2/brands/acme.com', await wallet.pay(challenge));
      expect(res.statusCode).toBe(402);
      expect(res.json<{ reason: string }>().reason).toContain('insufficient');
      expect(await wallet.balance()).toBe(PRICE - 1n);
    });

    it.each([['not base64 at all ***'], [Buffer.from('{"x402Version":2}').toString('base64')], [Buffer.from('not json').toString('base64')]])('a malformed payload %s: 400', async (header) => {
      const res = await get('/v2/brands/acme.com', header);
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toContain('PAYMENT-SIGNATURE');
    });
  });

  describe('one payment serves one answer', () => {
    it('refuses the same payment presented again', async () => {
      const wallet = await newWallet(stack.services.stores.payments, 1_000_000n);
      const header = await wallet.pay(challenge);
      expect((await get('/v2/brands/acme.com', header)).statusCode).toBe(200);
      const again = await get('/v2/brands/acme.com', header);
      expect(again.statusCode).toBe(402);
      // The documented code (docs/errors.md), not the facilitator's "nonce already used" refusal.
      expect(again.json<{ message: string }>().message).toBe(ERROR_CODES.payment_replayed.message);
      expect(again.json<Record<string, unknown>>()).not.toHaveProperty('reason');
      expect(await wallet.balance()).toBe(1_000_000n - PRICE);
      // Presented for another brand, it is the same used payment.
      await seed('acme-two.com');
      expect((await get('/v2/brands/acme-two.com', header)).json<{ message: string }>().message).toBe(ERROR_CODES.payment_replayed.message);
    });

    it('serves exactly one of 50 concurrent copies of one payment and charges it once', async () => {
      const wallet = await newWallet(stack.services.stores.payments, 1_000_000n);
      const header = await wallet.pay(challenge);
      const answers = await Promise.all(Array.from({ length: 50 }, () => get('/v2/brands/acme.com', header)));
      expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
      expect(answers.filter((a) => a.statusCode === 402)).toHaveLength(49);
      expect(await wallet.balance()).toBe(1_000_000n - PRICE);
      expect((await stack.services.stores.payments.listPayments({ limit: 10_000 })).filter((p) => p.payer === wallet.account.address.toLowerCase())).toHaveLength(1);
    });

    it('an API key wins over a payment: the key pays, the payment stays unused', async () => {
      const wallet = await newWallet(stack.services.stores.payments, 1_000_000n);
      const { key } = await stack.newKey();
      const res = await stack.app.inject({ method: 'GET', url: '/v2/brands/acme.com', headers: { ...bearer(key), 'payment-signature': await wallet.pay(challenge) } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['payment-response']).toBeUndefined();
      expect(await wallet.balance()).toBe(1_000_000n);
    });
  });

  describe('only a returned brand is charged', () => {
    it('a 404 settles nothing, and the same payment then pays for a brand', async () => {
      const wallet = await newWallet(stack.services.stores.payments, 1_000_000n);
      const header = await wallet.pay(challenge);
      const missing = await get(`/v2/brands/${brandIdForDomain('never-indexed.test')}`, header);
      expect(missing.statusCode).toBe(404);
      expect(missing.headers['payment-response']).toBeUndefined();
      expect(missing.json<{ payment: { charged: boolean } }>().payment.charged).toBe(false);
      expect(await wallet.balance()).toBe(1_000_000n);
      const found = await get('/v2/brands/acme.com', header);
      expect(found.statusCode).toBe(200);
      expect(await wallet.balance()).toBe(1_000_000n - PRICE);
    });

    it('cachedOnly on a brand not held (204) and the operator brand are free', async () => {
      const wallet = await newWallet(stack.services.stores.payments, 1_000_000n);
      const header = await wallet.pay(challenge);
      expect((await get('/v2/brands/never-held.test?cachedOnly=true', header)).statusCode).toBe(204);
      expect((await get('/v2/brands/operator.test', header)).statusCode).toBe(200);
      expect(await wallet.balance()).toBe(1_000_000n);
    });
  });

  describe('never served unpaid', () => {
    it('two payments against a balance that covers one: one brand served and paid, the other withheld', async () => {
      const answers = await raceTwoPayments(stack.app, stack.services.stores.payments, '/v2/brands/acme.com');
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 402]);
      const refused = answers.find((a) => a.statusCode === 402);
      // Both verified against the same balance; the second settlement found it spent, so its brand was not sent.
      expect(JSON.parse(refused?.body ?? '{}')).toMatchObject({ message: expect.stringContaining('could not be settled') });
      expect(refused?.body).not.toContain('"domain"');
    });
  });
});
