/**
 * The payments product's storage over the database kernel (both dialects; payment-rows.ts holds the SQL): claims,
 * settlements and the embedded facilitator's ledger. One instance per Database, built by main/product-stores.ts.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { DialectQuirks } from '../../db/dialect-quirks.js';
import type { LedgerTransfer, PaymentClaim, PaymentQuery, PaymentRecord, PaymentTotal, StoredPaymentClaim } from '../../domain/payments.js';
import type { PaymentLedger, PaymentStore } from '../payment-store.js';
import * as payments from './payment-rows.js';
import type { PaymentTables } from './payment-tables.js';

export class KyselyPaymentStore implements PaymentStore, PaymentLedger {
  private readonly db: Kysely<PaymentTables>;
  private readonly quirks: DialectQuirks;

  constructor(database: Database) {
    this.db = database.tables<PaymentTables>();
    this.quirks = database.quirks;
  }

  claimPayment(claim: PaymentClaim): Promise<boolean> {
    return payments.claimPayment(this.db, claim);
  }

  findPaymentClaim(key: string): Promise<StoredPaymentClaim | null> {
    return payments.findPaymentClaim(this.db, key);
  }

  releasePaymentClaim(key: string): Promise<void> {
    return payments.releasePaymentClaim(this.db, key);
  }

  recordPayment(payment: PaymentRecord): Promise<boolean> {
    return payments.recordPayment(this.db, this.quirks, payment);
  }

  unsettledPaymentClaims(before: Date): Promise<PaymentClaim[]> {
    return payments.unsettledPaymentClaims(this.db, before);
  }

  listPayments(query: PaymentQuery): Promise<PaymentRecord[]> {
    return payments.listPayments(this.db, query);
  }

  summarizePayments(query: Omit<PaymentQuery, 'limit'>): Promise<PaymentTotal[]> {
    return payments.summarizePayments(this.db, query);
  }

  ledgerBalance(network: string, asset: string, address: string): Promise<bigint> {
    return payments.ledgerBalance(this.db, network, asset, address);
  }

  creditLedger(network: string, asset: string, address: string, amount: bigint): Promise<bigint> {
    return payments.creditLedger(this.db, this.quirks, network, asset, address, amount);
  }

  ledgerAuthorization(network: string, asset: string, authorizer: string, nonce: string): Promise<string | null> {
    return payments.ledgerAuthorization(this.db, network, asset, authorizer, nonce);
  }

  ledgerTransfer(transfer: LedgerTransfer): Promise<void> {
    return payments.ledgerTransfer(this.db, this.quirks, transfer);
  }
}
