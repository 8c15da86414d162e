/**
 * MPP pay-per-request on GET /v2/brands/* (spec 5.2, ADR 0028): credentials the real `mppx` client builds
 * (`Mppx.create` with the evm charge method and a viem local account) from the `WWW-Authenticate: Payment`
 * challenge; the server validates with mppx and settles on the embedded ledger. The two-minute same-credential rule
 * of 5.2.4 across route templates, the no-charge 404, refusals and concurrent copies. The challenge and a payment
 * through `mppx.fetch` on loopback, on every payable route, are in test/billable/common-route-tests.ts.
 */
import { Receipt } from 'mppx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/domain/errors.js';
import { brandIdForDomain } from '../../src/domain/ids.js';
import { startTestStack, type TestStack } from '../helpers/test-stack.js';
import { sampleBrand } from '../store/sample-brand.js';
import { MPP_VALID_TOO_LONG } from '../../src/payments/mpp-payments.js';
import { X402_CLOCK_SKEW_SECONDS } from '../../src/payments/x402-payments.js';
import { newMppWallet, withValidBefore, type MppWallet } from './mpp-wallet.js';
import { PRICE } from './x402-wallet.js';
import { describeEachBackend } from '../helpers/backends.js';

describeEachBackend('MPP payments', (backend) => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({}, { backend });
    const now = new Date();
    await stack.services.stores.brands.saveBrand({ brand: sampleBrand('acme.com'), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: 'acme.com' }]);
  });

  afterAll(async () => stack?.close());

  const client = (funds: bigint): Promise<MppWallet> => newMppWallet(stack.services.stores.payments, funds);

  /** A credential for the 402 of `url`, as the mppx client builds it. */
  async function credentialFor(mppx: MppWallet['mppx'], url: string): Promise<string> {
    const res = await stack.app.inject({ url });
    const challenge = new Response(res.body, { status: res.statusCode, headers: res.headers as Record<string, string> });
    return mppx.createCredential(challenge);
  }

  describe('MPP', () => {
    it('the same credential within two minutes is served again from the payment taken, never charged twice', async () => {
      const payer = await client(1_000_000n);
      const credential = await credentialFor(payer.mppx, '/v2/brands/acme.com');
      const first = await stack.app.inject({ url: '/v2/brands/acme.com', headers: { authorization: credential } });
      expect(first.statusCode).toBe(200);
      const again = await stack.app.inject({ url: '/v2/brands/acme.com', headers: { authorization: credential } });
      expect(again.statusCode).toBe(200);
      expect(Receipt.deserialize(String(again.headers['payment-receipt'])).reference).toBe(Receipt.deserialize(String(first.headers['payment-receipt'])).reference);
      expect(await payer.balance()).toBe(1_000_000n - PRICE);
      // On another route template it pays for nothing: the challenge was issued for the request it answered.
      expect((await stack.app.inject({ url: '/v2/brands/domain/acme.com', headers: { authorization: credential } })).statusCode).toBe(402);
    });

    it('a 404 is not charged and the same credential then pays for the same request once its brand is held', async () => {
      const payer = await client(1_000_000n);
      const url = `/v2/brands/${brandIdForDomain('indexed-later.test')}`;
      const credential = await credentialFor(payer.mppx, url);
      const missing = await stack.app.inject({ url, headers: { authorization: credential } });
      expect(missing.statusCode).toBe(404);
      expect(await payer.balance()).toBe(1_000_000n);
      const now = new Date();
      await stack.services.stores.brands.saveBrand({ brand: sampleBrand('indexed-later.test'), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: 'indexed-later.test' }]);
      expect((await stack.app.inject({ url, headers: { authorization: credential } })).statusCode).toBe(200);
      expect(await payer.balance()).toBe(1_000_000n - PRICE);
    });

    it('a credential paid for one brand serves a retry of that request only: other brands are refused, nothing more is charged', async () => {
      const payer = await client(1_000_000n);
      const now = new Date();
      for (const domain of ['other-one.test', 'other-two.test']) {
        await stack.services.stores.brands.saveBrand({ brand: sampleBrand(domain), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: domain }]);
      }
      // The mppx client answers the 402 of acme.com; the credential pays for that request.
      const credential = await credentialFor(payer.mppx, '/v2/brands/acme.com');
      const first = await stack.app.inject({ url: '/v2/brands/acme.com', headers: { authorization: credential } });
      expect(first.statusCode).toBe(200);
      expect(await payer.balance()).toBe(1_000_000n - PRICE);
      for (const other of ['/v2/brands/other-one.test', '/v2/brands/other-two.test', '/v2/brands/acme.com?palette=true', '/v2/context/acme.com']) {
        const res = await stack.app.inject({ url: other, headers: { authorization: credential } });
        expect(res.statusCode, other).toBe(402);
        expect(res.json<{ message: string }>().message, other).toBe(ERROR_CODES.payment_invalid.message);
        expect(String(res.headers['www-authenticate']), other).toMatch(/^Payment /);
      }
      // The retry of the very request it paid for is served from that payment.
      const retry = await stack.app.inject({ url: '/v2/brands/acme.com', headers: { authorization: credential } });
      expect(retry.statusCode).toBe(200);
      expect(Receipt.deserialize(String(retry.headers['payment-receipt'])).reference).toBe(Receipt.deserialize(String(first.headers['payment-receipt'])).reference);
      expect(await payer.balance()).toBe(1_000_000n - PRICE);
      expect((await stack.services.stores.payments.listPayments({ limit: 1000 })).filter((p) => p.payer === payer.account.address.toLowerCase())).toHaveLength(1);
    });

    it('refuses a tampered credential and a wallet without funds, charging nothing', async () => {
      const payer = await client(1_000_000n);
      const credential = await credentialFor(payer.mppx, '/v2/brands/acme.com');
      const bad = await stack.app.inject({ url: '/v2/brands/acme.com', headers: { authorization: `${credential.slice(0, -6)}AAAAAA` } });
      expect(bad.statusCode).toBe(402);
      expect(bad.headers['www-authenticate']).toBeDefined();
      const poor = await client(0n);
      const unfunded = await stack.app.inject({ url: '/v2/brands/acme.com', headers: { authorization: await credentialFor(poor.mppx, '/v2/brands/acme.com') } });
      expect(unfunded.statusCode).toBe(402);
      expect(unfunded.body).not.toContain('"domain"');
      expect(await payer.balance()).toBe(1_000_000n);
    });

    it.each([
      ['ten years', 10 * 365 * 86_400],
      ['the challenge plus two clock skews', 300 + 2 * X402_CLOCK_SKEW_SECONDS],
    ])('an authorization valid for %s: 402 payment_invalid with a fresh challenge and its reason, nothing moves (issue 33)', async (_name, seconds) => {
      const signedValidBefore = BigInt(Math.floor(Date.now() / 1000) + seconds);
      const payer = await newMppWallet(stack.services.stores.payments, 1_000_000n, { signedValidBefore });
      const credential = withValidBefore(await credentialFor(payer.mppx, '/v2/brands/acme.com'), signedValidBefore);
      const res = await stack.app.inject({ url: '/v2/brands/acme.com', headers: { authorization: credential } });
      expect(res.statusCode).toBe(402);
      expect(res.json<{ message: string; reason: string }>()).toMatchObject({ message: ERROR_CODES.payment_invalid.message, reason: MPP_VALID_TOO_LONG });
      expect(String(res.headers['www-authenticate'])).toMatch(/^Payment /);
      expect(await payer.balance()).toBe(1_000_000n);
      // A payment signed as the mppx client signs it (valid until the challenge expires) is served.
      const honest = await client(1_000_000n);
      const paid = await stack.app.inject({ url: '/v2/brands/acme.com', headers: { authorization: await credentialFor(honest.mppx, '/v2/brands/acme.com') } });
      expect(paid.statusCode).toBe(200);
      expect(await honest.balance()).toBe(1_000_000n - PRICE);
    });

    it('50 concurrent copies of one credential: one charge, never more', async () => {
      const payer = await client(1_000_000n);
      const credential = await credentialFor(payer.mppx, '/v2/brands/acme.com');
      const answers = await Promise.all(Array.from({ length: 50 }, () => stack.app.inject({ url: '/v2/brands/acme.com', headers: { authorization: credential } })));
      // Copies that arrive after the settlement are retries within two minutes (served, not charged); copies that
      // arrive while it is in flight are refused.
      expect(answers.filter((a) => a.statusCode === 200).length).toBeGreaterThanOrEqual(1);
      expect(answers.every((a) => a.statusCode === 200 || a.statusCode === 402)).toBe(true);
      expect(await payer.balance()).toBe(1_000_000n - PRICE);
      expect((await stack.services.stores.payments.listPayments({ limit: 1000 })).filter((p) => p.payer === payer.account.address.toLowerCase())).toHaveLength(1);
    });
  });
});
