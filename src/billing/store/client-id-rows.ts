/**
 * Client IDs for KyselyBillingStore (both dialects; migration 0017): the IDs with their referrer rules, and request
 * counts per (client ID, product, billing period), added in groups by the allowance meter (billing/client-id-usage.ts).
 */
import { sql, type Kysely } from 'kysely';
import type { ClientIdRecord, ClientIdUsageEntry } from '../../domain/client-id-record.js';
import type { ClientIdProduct } from '../../domain/client-ids.js';
import { fromMillis, fromNullableMillis, toMillis, toSafeInteger } from '../../db/column-codec.js';
import type { BillingTables, ClientIdsTable } from './billing-tables.js';
import type { DialectQuirks } from '../../db/dialect-quirks.js';

function rowToClientId(row: ClientIdsTable): ClientIdRecord {
  return {
    id: row.id,
    orgId: row.org_id,
    name: row.name,
    allowedReferrers: JSON.parse(row.allowed_referrers) as string[],
    requireReferrer: Number(row.require_referrer) === 1,
    createdAt: fromMillis(row.created_at),
    revokedAt: fromNullableMillis(row.revoked_at),
  };
}

export async function createClientId(db: Kysely<BillingTables>, record: ClientIdRecord): Promise<void> {
  await db
    .insertInto('client_ids')
    .values({
      id: record.id,
      org_id: record.orgId,
      name: record.name,
      allowed_referrers: JSON.stringify(record.allowedReferrers),
      require_referrer: record.requireReferrer ? 1 : 0,
      created_at: toMillis(record.createdAt),
      revoked_at: record.revokedAt === null ? null : toMillis(record.revokedAt),
    })
    .execute();
}

export async function getClientId(db: Kysely<BillingTables>, id: string): Promise<ClientIdRecord | null> {
  const row = await db.selectFrom('client_ids').selectAll().where('id', '=', id).executeTakeFirst();
  return row === undefined ? null : rowToClientId(row);
}

export async function listClientIds(db: Kysely<BillingTables>, orgId: string): Promise<ClientIdRecord[]> {
  const rows = await db.selectFrom('client_ids').selectAll().where('org_id', '=', orgId).orderBy('created_at').orderBy('id').execute();
  return rows.map(rowToClientId);
}

/** False when the ID does not exist; revoking twice keeps the first time. */
export async function revokeClientId(db: Kysely<BillingTables>, id: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('client_ids')
    .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(toMillis(at))) }))
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function setClientIdReferrers(db: Kysely<BillingTables>, id: string, referrers: readonly string[], requireReferrer: boolean): Promise<boolean> {
  const result = await db
    .updateTable('client_ids')
    .set({ allowed_referrers: JSON.stringify(referrers), require_referrer: requireReferrer ? 1 : 0 })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Adds the counts in one transaction (an upsert per group: two processes adding at once both count). */
export async function addClientIdUsage(db: Kysely<BillingTables>, quirks: DialectQuirks, entries: readonly ClientIdUsageEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await quirks.writeTransaction(db, async (trx) => {
    for (const e of entries) {
      await trx
        .insertInto('client_id_usage')
        .values({ client_id: e.clientId, org_id: e.orgId, product: e.product, period: e.period, requests: e.requests })
        .onConflict((oc) => oc.columns(['client_id', 'product', 'period']).doUpdateSet({ requests: sql`client_id_usage.requests + excluded.requests` }))
        .execute();
    }
  });
}

/** Requests of all the organization's client IDs for the product in the period. */
export async function clientIdUsage(db: Kysely<BillingTables>, orgId: string, product: ClientIdProduct, period: string): Promise<number> {
  const row = await db
    .selectFrom('client_id_usage')
    .select((eb) => eb.fn.sum<number | string | bigint | null>('requests').as('total'))
    .where('org_id', '=', orgId)
    .where('product', '=', product)
    .where('period', '=', period)
    .executeTakeFirstOrThrow();
  return row.total === null ? 0 : toSafeInteger(row.total);
}
