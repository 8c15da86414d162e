/**
 * A client wallet for the MPP tests: a viem local account, funded on the server's embedded ledger, paying through
 * the real `mppx` client with the evm charge method (the USDC of x402-wallet.ts, on Base Sepolia).
 */
import { evm, Mppx } from 'mppx/client';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { PaymentLedger } from '../../src/payments/payment-store.js';
import { ASSET, NETWORK } from './x402-wallet.js';

export async function newMppWallet(store: Pick<PaymentLedger, 'creditLedger' | 'ledgerBalance'>, funds: bigint) {
  const account = privateKeyToAccount(generatePrivateKey());
  if (funds > 0n) await store.creditLedger(NETWORK, ASSET, account.address, funds);
  const mppx = Mppx.create({ methods: [evm.charge({ account, networks: [84532], authorization: { name: 'USDC', version: '2' } })], polyfill: false });
  return { account, mppx, balance: (): Promise<bigint> => store.ledgerBalance(NETWORK, ASSET, account.address) };
}

export type MppWallet = Awaited<ReturnType<typeof newMppWallet>>;
