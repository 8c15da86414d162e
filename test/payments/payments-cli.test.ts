/**
 * `brandbase payments fund|list|summary|card-token --json` through the real binary against the data dir of a service
 * that took real x402 payments (embedded facilitator): amounts are exact base-unit strings. A card token granted by
 * the command buys standing access over MPP once (the embedded card processor).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runJson } from '../helpers/brandbase-process.js';
import { startTestStack, type TestStack } from '../helpers/test-stack.js';
import { sampleBrand } from '../store/sample-brand.js';
import { Mppx, stripe } from 'mppx/client';
import { ASSET, challengeOf, NETWORK, newWallet } from './x402-wallet.js';
import { describeEachBackend } from '../helpers/backends.js';

interface Totals {
  method: string;
  count: number;
  amount: string;
}

describeEachBackend('payments CLI', (backend) => {
  const SLOW = { timeout: 120_000 };
  let env: Record<string, string>;
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({}, { backend });
    env = { ...stack.database.env, BRANDBASE_LOG_LEVEL: 'warn' };
    const now = new Date();
    await stack.services.stores.brands.saveBrand({ brand: sampleBrand('acme.com'), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: 'acme.com' }]);
  }, 60_000);

  afterAll(async () => {
    await stack?.close();
  });

  describe('brandbase payments', () => {
    it('fund credits a wallet on the embedded ledger; list and summary report the settlements exactly', SLOW, async () => {
      const wallet = await newWallet(stack.services.stores.payments, 0n);
      // The totals before this test's payments: the other test's payment (by card) may be in them already.
      const before = (await runJson(['payments', 'summary'], env)) as { totals: Totals[] };
      expect(await runJson(['payments', 'fund', wallet.account.address, '250000'], env)).toEqual({ network: NETWORK, asset: ASSET, address: wallet.account.address, balance: '250000' });
      expect(await wallet.balance()).toBe(250_000n);
      const challenge = challengeOf((await stack.app.inject({ url: '/v2/brands/acme.com' })).headers);
      for (let i = 0; i < 2; i++) expect((await stack.app.inject({ url: '/v2/brands/acme.com', headers: { 'payment-signature': await wallet.pay(challenge) } })).statusCode).toBe(200);
      const listed = (await runJson(['payments', 'list'], env)) as { payments: Record<string, unknown>[] };
      const mine = listed.payments.filter((p) => p.payer === wallet.account.address.toLowerCase());
      expect(mine).toHaveLength(2);
      expect(listed.payments[0]).toEqual(mine[0]);
      expect(mine[0]).toMatchObject({ method: 'x402', network: NETWORK, payer: wallet.account.address.toLowerCase(), amount: '100000', route: '/v2/brands/{identifier}' });
      expect(String(mine[0]?.id)).toMatch(/^pay_/);
      const x402 = before.totals.find((t) => t.method === 'x402');
      const totals = [
        { method: 'x402', network: NETWORK, asset: ASSET.toLowerCase(), count: (x402?.count ?? 0) + 2, amount: String(BigInt(x402?.amount ?? '0') + 200_000n) },
        ...before.totals.filter((t) => t !== x402),
      ];
      const summary = (await runJson(['payments', 'summary'], env)) as { totals: Totals[] };
      expect(summary).toEqual({ from: null, to: null, totals: expect.arrayContaining(totals) });
      expect(summary.totals).toHaveLength(totals.length);
      expect(await runJson(['payments', 'summary', '--from', '2000-01-01', '--to', '2000-02-01'], env)).toEqual({ from: '2000-01-01T00:00:00.000Z', to: '2000-02-01T00:00:00.000Z', totals: [] });
      const bad = await runCli(['payments', 'fund', wallet.account.address, '0.5'], env);
      expect(bad.code).not.toBe(0);
      expect(bad.stderr).toContain('base units');
    });

    it('card-token grants a single-use card token that buys standing access by card once', SLOW, async () => {
      const granted = (await runJson(['payments', 'card-token', '2'], env)) as { token: string; currency: string; maxAmount: string; expiresAt: string };
      expect(granted).toMatchObject({ currency: 'usd', maxAmount: '200' });
      expect(granted.token).toMatch(/^spt_bb_[A-Za-z0-9_-]{43}$/);
      const mppx = Mppx.create({ polyfill: false, methods: [stripe.charge({ paymentMethod: 'pm_card_visa', createToken: () => Promise.resolve(granted.token) })] });
      const credentialFor = async (): Promise<string> => {
        const res = await stack.app.inject({ method: 'POST', url: '/v2/agents/access?usd=2' });
        return mppx.createCredential(new Response(res.body, { status: res.statusCode, headers: res.headers as Record<string, string> }));
      };
      const bought = await stack.app.inject({ method: 'POST', url: '/v2/agents/access?usd=2', headers: { authorization: await credentialFor() } });
      expect(bought.statusCode).toBe(200);
      expect(bought.json()).toMatchObject({ agent: { payer: 'card' }, credits: { added: 40 } });
      // The token is spent: a second purchase with it (for a fresh challenge) buys nothing.
      expect((await stack.app.inject({ method: 'POST', url: '/v2/agents/access?usd=2', headers: { authorization: await credentialFor() } })).statusCode).toBe(409);
      const listed = (await runJson(['payments', 'list'], env)) as { payments: Record<string, unknown>[] };
      expect(listed.payments.filter((p) => p.payer === 'card')).toMatchObject([{ method: 'mpp', asset: 'usd', amount: '200', route: '/v2/agents/access' }]);
      const bad = await runCli(['payments', 'card-token', '1.5'], env);
      expect(bad.code).not.toBe(0);
      expect(bad.stderr).toContain('whole number of US dollars');
    });
  });
});
