/**
 * An organization's standing access for KyselyAccessStore (both dialects; issue 23): the purchases that credited it and
 * its MCP tokens, as the dashboard's payments page lists them. Never a secret: keys and tokens are held as hashes.
 */
import type { Kysely } from 'kysely';
import type { AccessPurchase, McpTokenRecord } from '../../domain/access-purchases.js';
import { rowToMcpToken, rowToPurchase } from './access-rows.js';
import type { AccessTables } from './access-tables.js';
import type { PaymentTables } from './payment-tables.js';

export async function listAccessPurchases(db: Kysely<AccessTables & PaymentTables>, orgId: string, limit: number): Promise<AccessPurchase[]> {
  const rows = await db.selectFrom('access_purchases').selectAll().where('org_id', '=', orgId).orderBy('paid_at', 'desc').orderBy('payment_key', 'desc').limit(limit).execute();
  return rows.map(rowToPurchase);
}

export async function listMcpTokens(db: Kysely<AccessTables & PaymentTables>, orgId: string): Promise<McpTokenRecord[]> {
  const rows = await db.selectFrom('mcp_tokens').selectAll().where('org_id', '=', orgId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  return rows.map(rowToMcpToken);
}
