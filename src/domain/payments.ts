/**
 * Pay-per-request payments (spec 5.2, ADR 0028): the records the store keeps. Money is always an integer number of
 * the asset's base units (USDC: 6 decimals, so 0.10 USD is 100000), held as a bigint, never a float.
 */

/** How a request was paid. */
export type PaymentMethod = 'x402' | 'mpp';

/**
 * A payment taken for one request before its answer is sent: the authorization's nonce is recorded (`claimed`)
 * first, so the same payment presented again (another process, after a restart) is refused; the claim is
 * `settled` once the facilitator moved the money, or deleted when the answer costs nothing (a 404).
 */
export interface PaymentClaim {
  /** `x402:<network>:<asset>:<payer>:<nonce>`, lower-case: one authorization, whatever process sees it. */
  key: string;
  method: PaymentMethod;
  network: string;
  asset: string;
  payer: string;
  payTo: string;
  amount: bigint;
  /** The route template the payment was presented on (never the requested identifier). */
  route: string;
  claimedAt: Date;
  /** After this the authorization can no longer be settled. */
  validBefore: Date;
}

/** One settlement: one ledger row per payment that moved money. */
export interface PaymentRecord {
  id: string;
  claimKey: string;
  method: PaymentMethod;
  network: string;
  asset: string;
  payer: string;
  payTo: string;
  amount: bigint;
  /** The facilitator's transaction reference (a transaction hash). */
  transaction: string;
  route: string;
  settledAt: Date;
}

export interface PaymentQuery {
  from?: Date;
  to?: Date;
  limit: number;
}

/** Revenue per (method, network, asset) over a period. */
export interface PaymentTotal {
  method: PaymentMethod;
  network: string;
  asset: string;
  count: number;
  amount: bigint;
}

/** A transfer the embedded facilitator's ledger applies (EIP-3009 `transferWithAuthorization`). */
export interface LedgerTransfer {
  network: string;
  asset: string;
  from: string;
  to: string;
  value: bigint;
  nonce: string;
  /** Deterministic transaction reference. */
  transaction: string;
  at: Date;
}

/** Why the embedded ledger refused a transfer; the messages read like the token contract's reverts. */
export class LedgerRefusal extends Error {
  readonly retryable = false;
  constructor(readonly reason: 'authorization_used' | 'insufficient_balance') {
    super(reason === 'authorization_used' ? 'FiatTokenV2: authorization is used or canceled' : 'ERC20: transfer amount exceeds balance');
    this.name = 'LedgerRefusal';
  }
}

/** A claim as stored, with its state and, once settled, its transaction. */
export interface StoredPaymentClaim {
  claim: PaymentClaim;
  state: 'claimed' | 'settled';
  transaction: string | null;
}

/**
 * The claim key of an EIP-3009 authorization, whichever protocol carried it (x402 or MPP's evm method): one
 * authorization pays for one answer.
 */
export function x402ClaimKey(network: string, asset: string, payer: string, nonce: string): string {
  return `x402:${network}:${asset}:${payer}:${nonce}`.toLowerCase();
}
