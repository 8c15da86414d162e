/**
 * The payments part of the Store contract (migration 0010, ADR 0028), on every backend against a real database:
 * a claim is taken once (also by another connection, also concurrently), released claims can be taken again,
 * a settlement is recorded once, and the embedded ledger moves exact integer amounts, refusing a used
 * authorization and an overdraft even under concurrency.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerRefusal, type PaymentClaim, type PaymentRecord } from '../../src/domain/payments.js';
import type { PaymentLedger, PaymentStore } from '../../src/payments/payment-store.js';
import type { TempDatabase } from '../store/temp-database.js';

const NET = 'eip155:84532';
const ASSET = '0x036cbd53842c5426634e7929541ec2318f3dcf7e';
const T0 = new Date('2026-01-02T03:04:05.678Z');
const at = (ms: number): Date => new Date(T0.getTime() + ms);
const hex = (bytes: number): string => `0x${randomBytes(bytes).toString('hex')}`;

function claim(overrides: Partial<PaymentClaim> = {}): PaymentClaim {
  const nonce = hex(32);
  return {
    key: `x402:${NET}:${ASSET}:payer:${nonce}`,
    method: 'x402',
    network: NET,
    asset: ASSET,
    payer: hex(20),
    payTo: hex(20),
    amount: 100_000n,
    route: '/v2/brands/{identifier}',
    claimedAt: at(0),
    validBefore: at(300_000),
    ...overrides,
  };
}

function settlement(c: PaymentClaim, overrides: Partial<PaymentRecord> = {}): PaymentRecord {
  return {
    id: `pay_${randomBytes(8).toString('hex')}`,
    claimKey: c.key,
    method: c.method,
    network: c.network,
    asset: c.asset,
    payer: c.payer,
    payTo: c.payTo,
    amount: c.amount,
    transaction: hex(32),
    route: c.route,
    settledAt: at(1000),
    ...overrides,
  };
}

export function paymentStoreContract(name: string, open: () => Promise<TempDatabase>): void {
  describe(`Store contract, payments: ${name}`, () => {
    let temp: TempDatabase;
    let store: PaymentStore & PaymentLedger;
    let peer: PaymentStore & PaymentLedger;

    beforeAll(async () => {
      temp = await open();
      store = temp.stores.payments;
      await temp.migrate();
      peer = (await temp.openPeer()).stores.payments;
    });
    afterAll(async () => {
      await temp.cleanup();
    });

    it('takes a claim once, from any connection, and a released claim can be taken again', async () => {
      const c = claim();
      expect(await store.claimPayment(c)).toBe(true);
      expect(await peer.claimPayment({ ...c, route: '/other' })).toBe(false);
      await peer.releasePaymentClaim(c.key);
      expect(await store.claimPayment(c)).toBe(true);
    });

    it('finds a claim with its state, and nothing for an unknown key', async () => {
      const c = claim();
      expect(await store.findPaymentClaim(c.key)).toBeNull();
      await store.claimPayment(c);
      expect(await peer.findPaymentClaim(c.key)).toEqual({ claim: c, state: 'claimed', transaction: null });
    });

    it('lets exactly one of 50 concurrent claims of one authorization win', async () => {
      const c = claim();
      const results = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? peer : store).claimPayment(c)));
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    it('records a settlement once, marks the claim settled and never releases it after', async () => {
      const c = claim({ claimedAt: at(-5000) });
      await store.claimPayment(c);
      const s = settlement(c);
      expect(await store.recordPayment(s)).toBe(true);
      expect(await peer.recordPayment({ ...s, id: 'pay_other' })).toBe(false);
      await store.releasePaymentClaim(c.key);
      expect(await store.claimPayment(c)).toBe(false);
      expect(await peer.findPaymentClaim(c.key)).toEqual({ claim: c, state: 'settled', transaction: s.transaction });
      expect((await store.unsettledPaymentClaims(at(10_000))).map((u) => u.key)).not.toContain(c.key);
      const listed = await store.listPayments({ limit: 1000 });
      expect(listed.find((p) => p.claimKey === c.key)).toEqual(s);
    });

    it('lists unsettled claims taken before a time, with exact amounts', async () => {
      const c = claim({ claimedAt: at(-60_000), amount: 9_007_199_254_740_991n });
      await store.claimPayment(c);
      const stale = await store.unsettledPaymentClaims(at(-30_000));
      expect(stale.find((u) => u.key === c.key)).toEqual(c);
    });

    it('summarizes revenue per method, network and asset in integer base units', async () => {
      const from = at(86_400_000);
      const to = at(2 * 86_400_000);
      const network = `eip155:${randomBytes(3).readUIntBE(0, 3)}`;
      for (const amount of [100_000n, 100_000n, 2_500_000n]) {
        const c = claim({ network, amount });
        await store.claimPayment(c);
        await store.recordPayment(settlement(c, { settledAt: at(86_400_000 + 10) }));
      }
      const totals = await store.summarizePayments({ from, to });
      expect(totals.filter((t) => t.network === network)).toEqual([{ method: 'x402', network, asset: ASSET, count: 3, amount: 2_700_000n }]);
      expect((await store.listPayments({ from, to, limit: 2 })).length).toBe(2);
    });

    it('moves exact amounts on the embedded ledger and refuses a used authorization', async () => {
      const from = hex(20);
      const to = hex(20);
      expect(await store.ledgerBalance(NET, ASSET, from)).toBe(0n);
      expect(await store.creditLedger(NET, ASSET, from.toUpperCase().replace('0X', '0x'), 250_000n)).toBe(250_000n);
      const nonce = hex(32);
      const transfer = { network: NET, asset: ASSET, from, to, value: 100_000n, nonce, transaction: hex(32), at: at(0) };
      await store.ledgerTransfer(transfer);
      expect(await peer.ledgerAuthorization(NET, ASSET, from, nonce)).toBe(transfer.transaction);
      await expect(peer.ledgerTransfer({ ...transfer, transaction: hex(32) })).rejects.toThrow(LedgerRefusal);
      expect(await store.ledgerBalance(NET, ASSET, from)).toBe(150_000n);
      expect(await store.ledgerBalance(NET, ASSET, to)).toBe(100_000n);
    });

    it('never overdraws under concurrent transfers and leaves a refused authorization unused', async () => {
      const from = hex(20);
      await store.creditLedger(NET, ASSET, from, 300_000n);
      const transfers = Array.from({ length: 10 }, (_, i) => ({ network: NET, asset: ASSET, from, to: hex(20), value: 100_000n, nonce: hex(32), transaction: hex(32), at: at(i) }));
      // One store: a pool of connections on PostgreSQL; on SQLite a second handle in this thread would only wait.
      const results = await Promise.allSettled(transfers.map((t) => store.ledgerTransfer(t)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
      for (const r of results) if (r.status === 'rejected') expect((r.reason as LedgerRefusal).reason).toBe('insufficient_balance');
      expect(await store.ledgerBalance(NET, ASSET, from)).toBe(0n);
      const refused = transfers.filter((_, i) => results[i]?.status === 'rejected');
      for (const t of refused) expect(await store.ledgerAuthorization(NET, ASSET, from, t.nonce)).toBeNull();
    });
  });
}
