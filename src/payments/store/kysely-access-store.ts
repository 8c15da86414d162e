/**
 * Standing access's storage over the database kernel (both dialects; access-rows.ts holds the SQL). A purchase also
 * writes billing's rows in its transaction, through the writer billing's storage supplies (purchased-account-writer.ts).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { DialectQuirks } from '../../db/dialect-quirks.js';
import type { AccessDelivery, AccessPurchase, AccessPurchaseCompletion, AgentPayer, CardCharge, CardChargeResult, CardTokenRecord, McpTokenRecord } from '../../domain/access-purchases.js';
import type { AccessStore } from '../access-store.js';
import * as access from './access-rows.js';
import type { AccessTables } from './access-tables.js';
import * as orgAccess from './org-access-rows.js';
import type { PaymentTables } from './payment-tables.js';
import type { PurchasedAccountWriter } from './purchased-account-writer.js';

export class KyselyAccessStore implements AccessStore {
  private readonly db: Kysely<AccessTables & PaymentTables>;
  private readonly quirks: DialectQuirks;

  constructor(
    database: Database,
    private readonly accounts: PurchasedAccountWriter,
  ) {
    this.db = database.tables<AccessTables & PaymentTables>();
    this.quirks = database.quirks;
  }

  completeAccessPurchase(completion: AccessPurchaseCompletion): Promise<AccessPurchase | null> {
    return access.completeAccessPurchase(this.db, this.quirks, this.accounts, completion);
  }

  findAccessPurchase(paymentKey: string): Promise<AccessPurchase | null> {
    return access.findAccessPurchase(this.db, paymentKey);
  }

  takeAccessDelivery(paymentKey: string, at: Date, paidSince: Date, accept: (sealed: string | null) => boolean): Promise<AccessDelivery | null> {
    return access.takeAccessDelivery(this.db, this.quirks, paymentKey, at, paidSince, accept);
  }

  wipeAccessSeals(before: Date): Promise<number> {
    return access.wipeAccessSeals(this.db, before);
  }

  agentOfApiKey(apiKeyId: string): Promise<AgentPayer | null> {
    return access.agentOfApiKey(this.db, apiKeyId);
  }

  findMcpTokenByHash(tokenHash: string): Promise<McpTokenRecord | null> {
    return access.findMcpTokenByHash(this.db, tokenHash);
  }

  issueCardToken(token: CardTokenRecord): Promise<void> {
    return access.issueCardToken(this.db, token);
  }

  chargeCardToken(charge: CardCharge): Promise<CardChargeResult> {
    return access.chargeCardToken(this.db, this.quirks, charge);
  }

  cardTokenCharge(tokenHash: string): Promise<string | null> {
    return access.cardTokenCharge(this.db, tokenHash);
  }

  listAccessPurchases(orgId: string, limit: number): Promise<AccessPurchase[]> {
    return orgAccess.listAccessPurchases(this.db, orgId, limit);
  }

  listMcpTokens(orgId: string): Promise<McpTokenRecord[]> {
    return orgAccess.listMcpTokens(this.db, orgId);
  }
}
