/**
 * A client wallet for the MPP tests: a viem local account, funded on the server's embedded ledger, paying through
 * the real `mppx` client with the evm charge method (the USDC of x402-wallet.ts, on Base Sepolia).
 */
import { evm, Mppx } from 'mppx/client';
import { Credential } from 'mppx';
import { generatePrivateKey, privateKeyToAccount, type LocalAccount } from 'viem/accounts';
import type { PaymentLedger } from '../../src/payments/payment-store.js';
import { ASSET, NETWORK } from './x402-wallet.js';

/**
 * `signedValidBefore`: the wallet signs this `validBefore` (seconds) instead of the challenge's expiry, as a hostile
 * client would; the credential it builds must then carry the same value (`withValidBefore`).
 */
export async function newMppWallet(store: Pick<PaymentLedger, 'creditLedger' | 'ledgerBalance'>, funds: bigint, options: { signedValidBefore?: bigint } = {}) {
  const honest = privateKeyToAccount(generatePrivateKey());
  const { signedValidBefore } = options;
  const account: LocalAccount =
    signedValidBefore === undefined
      ? honest
      : { ...honest, signTypedData: (args) => honest.signTypedData({ ...args, message: { ...(args.message as Record<string, unknown>), validBefore: signedValidBefore } } as typeof args) };
  if (funds > 0n) await store.creditLedger(NETWORK, ASSET, account.address, funds);
  const mppx = Mppx.create({ methods: [evm.charge({ account, networks: [84532], authorization: { name: 'USDC', version: '2' } })], polyfill: false });
  return { account, mppx, balance: (): Promise<bigint> => store.ledgerBalance(NETWORK, ASSET, account.address) };
}

export type MppWallet = Awaited<ReturnType<typeof newMppWallet>>;

/** `credential` with its authorization's `validBefore` replaced (the signature made by a `signedValidBefore` wallet). */
export function withValidBefore(credential: string, validBefore: bigint): string {
  const parsed = Credential.deserialize(credential);
  return Credential.serialize({ ...parsed, payload: { ...(parsed.payload as Record<string, unknown>), validBefore: validBefore.toString() } });
}
