/**
 * A client wallet for the x402 tests: a viem local account, funded on the server's embedded ledger, that signs
 * payment payloads with `@x402/evm`'s own client scheme (the code `@x402/fetch` runs), optionally with tampered
 * requirements to produce the payments a dishonest client would send.
 */
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import type { PaymentLedger } from '../../src/payments/payment-store.js';

export const NETWORK = 'eip155:84532';
export const ASSET = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';
export const PRICE = 100_000n;

export interface Wallet {
  account: PrivateKeyAccount;
  scheme: ExactEvmScheme;
  balance(): Promise<bigint>;
  /** A PAYMENT-SIGNATURE header for the challenge, signed over `tamper(requirements)` but presenting the original. */
  pay(challenge: PaymentRequired, tamper?: (r: PaymentRequirements) => PaymentRequirements): Promise<string>;
}

export async function newWallet(store: Pick<PaymentLedger, 'creditLedger' | 'ledgerBalance'>, funds: bigint): Promise<Wallet> {
  const account = privateKeyToAccount(generatePrivateKey());
  if (funds > 0n) await store.creditLedger(NETWORK, ASSET, account.address, funds);
  const scheme = new ExactEvmScheme(account);
  return {
    account,
    scheme,
    balance: () => store.ledgerBalance(NETWORK, ASSET, account.address),
    async pay(challenge, tamper = (r) => r) {
      const accepted = challenge.accepts[0];
      if (!accepted) throw new Error('challenge without requirements');
      const signed = await scheme.createPaymentPayload(2, tamper(accepted));
      const payload: PaymentPayload = { x402Version: 2, resource: challenge.resource, accepted, payload: signed.payload };
      return encodePaymentSignatureHeader(payload);
    },
  };
}

export function challengeOf(headers: Record<string, unknown>): PaymentRequired {
  const header = headers['payment-required'];
  if (typeof header !== 'string') throw new Error('no PAYMENT-REQUIRED header');
  return decodePaymentRequiredHeader(header);
}

interface Injector {
  inject(opts: { method: 'GET'; url: string; headers: Record<string, string> }): Promise<{ statusCode: number; headers: Record<string, unknown>; body: string }>;
}

/**
 * Two payments from a wallet that holds the price once, sent at the same moment: both verify (the balance covers
 * each), both are claimed, the first settlement spends the balance and the second fails. Returns both answers.
 */
export async function raceTwoPayments(app: Injector, store: Pick<PaymentLedger, 'creditLedger' | 'ledgerBalance'>, url: string): Promise<{ statusCode: number; headers: Record<string, unknown>; body: string }[]> {
  const challenge = challengeOf((await app.inject({ method: 'GET', url, headers: {} })).headers);
  const wallet = await newWallet(store, PRICE);
  const [a, b] = [await wallet.pay(challenge), await wallet.pay(challenge)];
  return Promise.all([a, b].map((signature) => app.inject({ method: 'GET', url, headers: { 'payment-signature': signature } })));
}
