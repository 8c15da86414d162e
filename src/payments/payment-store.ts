/**
 * The payments product's storage ports (migration 0010, ADR 0028): claims of presented authorizations, the ledger of
 * settlements and the embedded facilitator's token ledger. Implemented over the database kernel in
 * payments/store/kysely-payment-store.ts; main/product-stores.ts builds it.
 */
import type { LedgerTransfer, PaymentClaim, PaymentQuery, PaymentRecord, PaymentTotal, StoredPaymentClaim } from '../domain/payments.js';

/** Pay-per-request payments (migration 0010, ADR 0028): claims of authorizations and the ledger of settlements. */
export interface PaymentStore {
  /** Records the authorization before its answer is sent; false (nothing written) when it is already claimed. */
  claimPayment(claim: PaymentClaim): Promise<boolean>;
  /** The claim of `key` with its state and settlement transaction, or null. */
  findPaymentClaim(key: string): Promise<StoredPaymentClaim | null>;
  /** Forgets a claim that was never settled (the answer cost nothing), so the same payment can be used again. */
  releasePaymentClaim(key: string): Promise<void>;
  /** Writes the settlement's ledger row and marks its claim settled, once: false when it was already recorded. */
  recordPayment(payment: PaymentRecord): Promise<boolean>;
  /** Claims still unsettled that were taken before `before` (a process stopped between verify and settle). */
  unsettledPaymentClaims(before: Date): Promise<PaymentClaim[]>;
  /** Settlements, newest first. */
  listPayments(query: PaymentQuery): Promise<PaymentRecord[]>;
  summarizePayments(query: Omit<PaymentQuery, 'limit'>): Promise<PaymentTotal[]>;
}

/**
 * The embedded facilitator's ledger (ADR 0028): token balances and used EIP-3009 authorizations, as a token
 * contract would hold them, for offline demos and tests. Production uses a real facilitator and chain instead.
 */
export interface PaymentLedger {
  ledgerBalance(network: string, asset: string, address: string): Promise<bigint>;
  /** Adds `amount` base units to an address (demo funding; `brandbase payments fund`). */
  creditLedger(network: string, asset: string, address: string, amount: bigint): Promise<bigint>;
  /** The transaction that used an authorization, or null while it is unused. */
  ledgerAuthorization(network: string, asset: string, authorizer: string, nonce: string): Promise<string | null>;
  /** Marks the authorization used and moves the value, atomically; throws LedgerRefusal when it cannot. */
  ledgerTransfer(transfer: LedgerTransfer): Promise<void>;
}
