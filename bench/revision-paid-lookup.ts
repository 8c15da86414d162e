/**
 * The paid lookup of one revision (bench/compare-revisions.ts): the cached brand paid per request with x402 on the
 * embedded ledger, as bench/paid-lookup.ts measures it on this tree alone, but through public interfaces only. The
 * challenge comes from the tree's own 402 answer, the wallet is funded with its `brandbase payments fund`, and every
 * request carries a fresh payment signed by `@x402/evm`'s client scheme just before its timed run (a signed payment
 * is valid for BRANDBASE_X402_MAX_TIMEOUT_SECONDS only, and setting up both trees can take longer on a busy machine).
 */
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { brandbase, perSecond, treeUrl, type RevisionTree } from './revision-cli.js';

export const PAID_REQUESTS = Number(process.env.BENCH_PAID_REQUESTS ?? 600);
export const PAID_CONCURRENCY = 16;

export interface PaidLookup {
  /** Signs PAID_REQUESTS payments (not timed), then one timed run of them: requests per second. */
  run(): Promise<number>;
}

/** Funds a new wallet on `tree`'s ledger for `runs` × PAID_REQUESTS paid requests of `pathname`. */
export async function preparePaidLookup(tree: RevisionTree, pathname: string, runs: number): Promise<PaidLookup> {
  const url = treeUrl(tree, pathname);
  const unpaid = await fetch(url);
  await unpaid.arrayBuffer();
  const challenge = decodePaymentRequiredHeader(unpaid.headers.get('payment-required') ?? '');
  const accepted = challenge.accepts[0];
  if (unpaid.status !== 402 || !accepted) throw new Error(`${tree.name}: no x402 challenge on ${pathname} (${unpaid.status})`);
  const account = privateKeyToAccount(generatePrivateKey());
  const total = PAID_REQUESTS * runs;
  await brandbase(tree, ['payments', 'fund', account.address, (BigInt(accepted.amount) * BigInt(total)).toString()]);
  const scheme = new ExactEvmScheme(account);
  return {
    run: async () => {
      const payments: string[] = [];
      for (let i = 0; i < PAID_REQUESTS; i++) {
        const signed = await scheme.createPaymentPayload(2, accepted);
        payments.push(encodePaymentSignatureHeader({ x402Version: 2, resource: challenge.resource, accepted, payload: signed.payload }));
      }
      return perSecond(PAID_REQUESTS, PAID_CONCURRENCY, async (i) => {
        const res = await fetch(url, { headers: { 'payment-signature': payments[i] ?? '' } });
        const body = await res.text();
        if (res.status !== 200) throw new Error(`${tree.name}: paid request ${i} answered ${res.status} ${res.headers.get('x-bf-error') ?? ''} ${body.slice(0, 200)}`);
      });
    },
  };
}
