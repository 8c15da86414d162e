/**
 * A process that stops between verifying a payment and settling it (ADR 0028): the payment was claimed in the
 * database before any answer existed, so the restarted service (another set of connections to the same SQLite
 * file or PostgreSQL schema) refuses the same payment, never charges it twice, and reconciles what the embedded ledger already moved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerTransactionHash } from '../../src/payments/ledger-evm-signer.js';
import { requestDigest } from '../../src/usecases/credential-payer.js';
import { startTestStack, type TestStack } from '../helpers/test-stack.js';
import { sampleBrand } from '../store/sample-brand.js';
import { ASSET, challengeOf, NETWORK, newWallet, PRICE, type Wallet } from './x402-wallet.js';
import { describeEachBackend } from '../helpers/backends.js';

describeEachBackend('x402 restart', (backend) => {
  let before: TestStack;
  let after: TestStack | undefined;
  const ROUTE = '/v2/brands/{identifier}';

  /** Verifies and claims the payment as the request would, then stops: no answer, no settlement. */
  async function verifyAndStop(stack: TestStack, header: string): Promise<void> {
    const payments = stack.services.payments;
    if (!payments) throw new Error('payments are off');
    const paid = await payments.verify(header, { method: 'GET', template: ROUTE, request: requestDigest(['/v2/brands/acme.com', '']) });
    await paid.claim();
  }

  function authorizationOf(header: string): { from: string; nonce: string; to: string; value: string } {
    return (JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as { payload: { authorization: { from: string; nonce: string; to: string; value: string } } }).payload.authorization;
  }

  beforeAll(async () => {
    before = await startTestStack({}, { backend });
    const now = new Date();
    await before.services.stores.brands.saveBrand({ brand: sampleBrand('acme.com'), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: 'acme.com' }]);
  });

  afterAll(async () => {
    await after?.close();
    await before?.close();
  });

  /** Each test pays from its own wallet: its balance is not moved by the other tests, whatever order they run in. */
  function ownWallet(): Promise<Wallet> {
    return newWallet(before.services.stores.payments, 1_000_000n);
  }

  async function restarted(): Promise<TestStack> {
    after ??= await startTestStack({}, { database: before.database });
    return after;
  }

  describe('a stop between verify and settle', () => {
    it('before the money moved: the restarted service refuses the payment and charges nothing', async () => {
      const wallet = await ownWallet();
      const challenge = challengeOf((await before.app.inject({ url: '/v2/brands/acme.com' })).headers);
      const header = await wallet.pay(challenge);
      await verifyAndStop(before, header);
      const stack = await restarted();
      const replay = await stack.app.inject({ url: '/v2/brands/acme.com', headers: { 'payment-signature': header } });
      expect(replay.statusCode).toBe(402);
      expect(replay.json<{ message: string }>().message).toContain('already used');
      // Still valid and unused on the ledger: left alone (it may be settling in another process).
      expect(await stack.services.payments?.reconcile(0)).toEqual({ recorded: 0, released: 0 });
      expect(await wallet.balance()).toBe(1_000_000n);
    });

    it('after the ledger moved the money: one ledger row on reconcile, one debit, the payment still refused', async () => {
      const wallet = await ownWallet();
      const challenge = challengeOf((await before.app.inject({ url: '/v2/brands/acme.com' })).headers);
      const header = await wallet.pay(challenge);
      await verifyAndStop(before, header);
      // The facilitator's transfer landed; the process stopped before writing its ledger row.
      const auth = authorizationOf(header);
      const transaction = ledgerTransactionHash(NETWORK, auth.from, auth.nonce);
      await before.services.stores.payments.ledgerTransfer({ network: NETWORK, asset: ASSET, from: auth.from, to: auth.to, value: BigInt(auth.value), nonce: auth.nonce, transaction, at: new Date() });
      const balance = await wallet.balance();
      const stack = await restarted();
      expect((await stack.app.inject({ url: '/v2/brands/acme.com', headers: { 'payment-signature': header } })).statusCode).toBe(402);
      expect(await stack.services.payments?.reconcile(0)).toEqual({ recorded: 1, released: 0 });
      expect(await stack.services.payments?.reconcile(0)).toEqual({ recorded: 0, released: 0 });
      const rows = (await stack.services.stores.payments.listPayments({ limit: 100 })).filter((p) => p.transaction === transaction);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ amount: PRICE, route: ROUTE, payer: auth.from.toLowerCase() });
      expect((await stack.app.inject({ url: '/v2/brands/acme.com', headers: { 'payment-signature': header } })).statusCode).toBe(402);
      expect(await wallet.balance()).toBe(balance);
    });

    it('a payment served by one process is refused by another', async () => {
      const wallet = await ownWallet();
      const challenge = challengeOf((await before.app.inject({ url: '/v2/brands/acme.com' })).headers);
      const header = await wallet.pay(challenge);
      const start = await wallet.balance();
      expect((await before.app.inject({ url: '/v2/brands/acme.com', headers: { 'payment-signature': header } })).statusCode).toBe(200);
      const stack = await restarted();
      expect((await stack.app.inject({ url: '/v2/brands/acme.com', headers: { 'payment-signature': header } })).statusCode).toBe(402);
      expect(await wallet.balance()).toBe(start - PRICE);
    });
  });
});
