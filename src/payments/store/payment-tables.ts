/** The payments product's tables (migration 0010, payment-migration.ts), as Kysely sees them. */
import type { Millis } from '../../db/column-codec.js';

/** 0010: pay-per-request payments (ADR 0028). Amounts are integer base units of the asset. */
export interface PaymentClaimsTable {
  key: string;
  method: string;
  network: string;
  asset: string;
  payer: string;
  pay_to: string;
  amount: number;
  route: string;
  /** `claimed` until settled; a claim released unsettled is deleted. */
  state: 'claimed' | 'settled';
  claimed_at: Millis;
  valid_before: Millis;
}

export interface PaymentsTable {
  id: string;
  claim_key: string;
  method: string;
  network: string;
  asset: string;
  payer: string;
  pay_to: string;
  amount: number;
  tx: string;
  route: string;
  settled_at: Millis;
}

/** The embedded facilitator's token balances (lower-case addresses). */
export interface LedgerAccountsTable {
  network: string;
  asset: string;
  address: string;
  balance: number;
  updated_at: Millis;
}

/** The embedded facilitator's used EIP-3009 authorizations (the token's `authorizationState`). */
export interface LedgerAuthorizationsTable {
  network: string;
  asset: string;
  authorizer: string;
  nonce: string;
  recipient: string;
  value: number;
  tx: string;
  used_at: Millis;
}

export interface PaymentTables {
  payment_claims: PaymentClaimsTable;
  payments: PaymentsTable;
  ledger_accounts: LedgerAccountsTable;
  ledger_authorizations: LedgerAuthorizationsTable;
}
