/**
 * MPP pay-per-request on GET /v2/brands/* (spec 5.2, ADR 0028): the real `mppx` client (`Mppx.create` with the
 * evm charge method and a viem local account, `fetch` against a server listening on loopback) pays through the
 * `WWW-Authenticate: Payment` challenge of the same 402 that carries x402's; the server validates with mppx and
 * settles on the embedded ledger. The two-minute same-credential rule of 5.2.4 and the no-charge 404.
 */
import { Receipt } from 'mppx';
import { evm, Mppx } from 'mppx/client';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandIdForDomain } from '../../src/domain/ids.js';
import { startTestStack, type TestStack } from '../helpers/test-stack.js';
import { sampleBrand } from '../store/sample-brand.js';
import { ASSET, NETWORK, PRICE } from './x402-wallet.js';
import { describeEachBackend } from '../helpers/backends.js';

describeEachBackend('MPP payments', (backend) => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({}, { backend });
    const now = new Date();
    await stack.services.store.saveBrand({ brand: sampleBrand('acme.com'), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: 'acme.com' }]);
  });

  afterAll(async () => stack?.close());

  async function client(funds: bigint) {
    const account = privateKeyToAccount(generatePrivateKey());
    if (funds > 0n) await stack.services.store.creditLedger(NETWORK, ASSET, account.address, funds);
    const mppx = Mppx.create({ methods: [evm.charge({ account, networks: [84532], authorization: { name: 'USDC', version: '2' } })], polyfill: false });
    return { account, mppx, balance: () => stack.services.store.ledgerBalance(NETWORK, ASSET, account.address) };
  }

  /** A credential for the 402 of `url`, as the mppx client builds it. */
  async function credentialFor(mppx: Awaited<ReturnType<typeof client>>['mppx'], url: string): Promise<string> {
    const res = await stack.app.inject({ url });
    const challenge = new Response(res.body, { status: res.statusCode, headers: res.headers as Record<string, string> });
    return mppx.createCredential(challenge);
  }

  describe('MPP', () => {
    it('the 402 carries a WWW-Authenticate: Payment challenge next to PAYMENT-REQUIRED', async () => {
      const res = await stack.app.inject({ url: '/v2/brands/acme.com' });
      expect(res.statusCode).toBe(402);
      expect(String(res.headers['www-authenticate'])).toMatch(/^Payment id="[^"]+", realm="brandbase.test", method="evm", intent="charge", request="/);
      expect(res.headers['payment-required']).toBeDefined();
    });

    it('the mppx client pays on loopback: 200, a Payment-Receipt, the price moved once, one ledger row', async () => {
      const payer = await client(1_000_000n);
      const address = await stack.app.listen({ port: 0, host: '127.0.0.1' });
      const res = await payer.mppx.fetch(`${address}/v2/brands/acme.com`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { domain: string }).domain).toBe('acme.com');
      const receipt = Receipt.fromResponse(res);
      expect(receipt).toMatchObject({ method: 'evm', status: 'success' });
      expect(await payer.balance()).toBe(1_000_000n - PRICE);
      const rows = (await stack.services.store.listPayments({ limit: 1000 })).filter((p) => p.payer === payer.account.address.toLowerCase());
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ method: 'mpp', amount: PRICE, transaction: receipt.reference, route: '/v2/brands/{identifier}' });
    });

    it('the same credential within two minutes is served again from the payment taken, never charged twice', async () => {
      const payer = await client(1_000_000n);
      const credential = await credentialFor(payer.mppx, '/v2/brands/acme.com');
      const first = await stack.app.inject({ url: '/v2/brands/acme.com', headers: { authorization: credential } });
      expect(first.statusCode).toBe(200);
      const again = await stack.app.inject({ url: '/v2/brands/acme.com', headers: { authorization: credential } });
      expect(again.statusCode).toBe(200);
      expect(Receipt.deserialize(String(again.headers['payment-receipt'])).reference).toBe(Receipt.deserialize(String(first.headers['payment-receipt'])).reference);
      expect(await payer.balance()).toBe(1_000_000n - PRICE);
      // On another route template it is a replay.
      expect((await stack.app.inject({ url: '/v2/brands/domain/acme.com', headers: { authorization: credential } })).statusCode).toBe(402);
    });

    it('a 404 is not charged and the same credential then pays for a brand once', async () => {
      const payer = await client(1_000_000n);
      const credential = await credentialFor(payer.mppx, '/v2/brands/acme.com');
      const missing = await stack.app.inject({ url: `/v2/brands/${brandIdForDomain('never-indexed.test')}`, headers: { authorization: credential } });
      expect(missing.statusCode).toBe(404);
      expect(await payer.balance()).toBe(1_000_000n);
      expect((await stack.app.inject({ url: '/v2/brands/acme.com', headers: { authorization: credential } })).statusCode).toBe(200);
      expect(await payer.balance()).toBe(1_000_000n - PRICE);
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

    it('50 concurrent copies of one credential: one charge, never more', async () => {
      const payer = await client(1_000_000n);
      const credential = await credentialFor(payer.mppx, '/v2/brands/acme.com');
      const answers = await Promise.all(Array.from({ length: 50 }, () => stack.app.inject({ url: '/v2/brands/acme.com', headers: { authorization: credential } })));
      // Copies that arrive after the settlement are retries within two minutes (served, not charged); copies that
      // arrive while it is in flight are refused.
      expect(answers.filter((a) => a.statusCode === 200).length).toBeGreaterThanOrEqual(1);
      expect(answers.every((a) => a.statusCode === 200 || a.statusCode === 402)).toBe(true);
      expect(await payer.balance()).toBe(1_000_000n - PRICE);
      expect((await stack.services.store.listPayments({ limit: 1000 })).filter((p) => p.payer === payer.account.address.toLowerCase())).toHaveLength(1);
    });
  });
});
