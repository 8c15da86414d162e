import type { AgentPayer } from '../domain/access-purchases.js';
import type { PaymentClaim, PaymentMethod } from '../domain/payments.js';

/**
 * A standing-access payment as presented (x402, MPP evm, MPP card): what it claims, who paid, and how it is
 * verified and settled (payments/access-sales.ts).
 */
export interface Presented {
  protocol: PaymentMethod;
  /** The header as sent: the proof the seal key is derived from. Never stored or logged. */
  proof: string;
  claim: PaymentClaim;
  payer: AgentPayer;
  /** Base units of the claim's asset per US dollar (USDC: 10^6; card cents: 100). */
  unitsPerUsd: bigint;
  /** Refuses (throws a 402 ApiError) what cannot pay this offer, before anything is claimed or charged. */
  verify(): Promise<void>;
  /** Moves the money; returns the transaction and the receipt headers. Throws (nothing charged) on failure. */
  settle(): Promise<{ transaction: string; headers: Record<string, string> }>;
  /** The transaction when the money moved for this payment but no purchase was written (embedded only), else null. */
  moved(): Promise<string | null>;
  receipt(transaction: string): Record<string, string>;
}
