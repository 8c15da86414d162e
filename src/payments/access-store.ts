/**
 * Standing access's storage port (migration 0012, ADR 0029). Implemented over the database kernel in
 * payments/store/kysely-access-store.ts; main/product-stores.ts builds it.
 */
import type { AccessDelivery, AccessPurchase, AccessPurchaseCompletion, AgentPayer, CardCharge, CardChargeResult, CardTokenRecord, McpTokenRecord } from '../domain/access-purchases.js';

/** Standing access (migration 0012, ADR 0029): purchases, their one-time delivery, agent keys and MCP tokens. */
export interface AccessStore {
  /**
   * One transaction: the payment's ledger row and settled claim, the purchase row, the organization, API key and
   * MCP token (`fresh`) unless the paying wallet owns an organization already (then a top-up of it), and the
   * credit grant. Null, writing nothing, when the payment already bought something.
   */
  completeAccessPurchase(completion: AccessPurchaseCompletion): Promise<AccessPurchase | null>;
  findAccessPurchase(paymentKey: string): Promise<AccessPurchase | null>;
  /** Marks the undelivered purchase paid since `paidSince` whose seal `accept` approves delivered at `at`, wiping the seal; once. */
  takeAccessDelivery(paymentKey: string, at: Date, paidSince: Date, accept: (sealed: string | null) => boolean): Promise<AccessDelivery | null>;
  /** Wipes the seals of purchases paid before `before`; returns how many. */
  wipeAccessSeals(before: Date): Promise<number>;
  /** The payer that bought the key through standing access; null for dashboard or CLI keys. */
  agentOfApiKey(apiKeyId: string): Promise<AgentPayer | null>;
  /** For the MCP server: the token whose SHA-256 is `tokenHash`. */
  findMcpTokenByHash(tokenHash: string): Promise<McpTokenRecord | null>;
  /** The embedded card processor (payments/embedded-card-processor.ts): a new single-use card token, by hash. */
  issueCardToken(token: CardTokenRecord): Promise<void>;
  /** Charges a card token once (idempotent per key); refusals are results, not errors. */
  chargeCardToken(charge: CardCharge): Promise<CardChargeResult>;
  /** The payment intent a card token was charged under; null when unused or unknown. */
  cardTokenCharge(tokenHash: string): Promise<string | null>;
  /** The organization's standing-access purchases (ADR 0029), newest first, at most `limit`. */
  listAccessPurchases(orgId: string, limit: number): Promise<AccessPurchase[]>;
  /** The organization's MCP tokens (hashes and prefixes only), newest first. */
  listMcpTokens(orgId: string): Promise<McpTokenRecord[]>;
}
