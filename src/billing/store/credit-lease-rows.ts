/**
 * SQL of the credit leases (migration 0020, ADR 0040), for both dialects. A grant runs in a write transaction
 * (SQLite: `begin immediate`, one writer at a time; PostgreSQL: the organization's row locked `for no key update`, so
 * the grants of one organization take turns) and reads the ledger and the live leases in one statement: a concurrent
 * flush, which moves credits from a lease to the ledger in one transaction, is seen whole or not at all.
 */
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { grantSize, type CreditLeaseDebit, type CreditLeaseGrant, type LeasedCredits } from '../credit-lease-store.js';
import { assertSafeInteger, toMillis, toSafeInteger } from '../../db/column-codec.js';
import type { BillingTables } from './billing-tables.js';
import type { DialectQuirks } from '../../db/dialect-quirks.js';

type Aggregate = number | string | bigint | null;

function count(value: Aggregate | undefined): number {
  return value === null || value === undefined ? 0 : toSafeInteger(value);
}

function assertPositive(value: number, what: string): void {
  assertSafeInteger(value, what);
  if (value < 1) throw new RangeError(`${what} must be at least 1, got ${value}`);
}

/** Credits of the source still free to lease: its limit minus the ledger minus every live lease, in one snapshot. */
async function creditsLeft(trx: Kysely<BillingTables>, g: CreditLeaseGrant): Promise<number> {
  const now = toMillis(g.now);
  const leased = sql<Aggregate>`(select coalesce(sum(credits), 0) from credit_leases
    where org_id = ${g.orgId} and source = ${g.source} and period = ${g.period} and expires_at > ${now})`;
  const { rows } =
    g.source === 'prepaid'
      ? await sql<{ limit: Aggregate; used: Aggregate; leased: Aggregate }>`select
          (select coalesce(sum(credits), 0) from credit_grants where org_id = ${g.orgId}) as "limit",
          (select coalesce(sum(credits), 0) from usage_ledger where org_id = ${g.orgId} and source = 'prepaid') as used,
          ${leased} as leased`.execute(trx)
      : await sql<{ limit?: undefined; used: Aggregate; leased: Aggregate }>`select
          (select coalesce(sum(credits), 0) from usage_ledger where org_id = ${g.orgId} and source = ${g.source}
            and created_at >= ${toMillis(g.from)} and created_at < ${toMillis(g.to)}) as used,
          ${leased} as leased`.execute(trx);
  const row = rows[0];
  const limit = g.source === 'prepaid' ? count(row?.limit) : g.limit;
  return limit - count(row?.used) - count(row?.leased);
}

export async function acquireCreditLease(db: Kysely<BillingTables>, quirks: DialectQuirks, g: CreditLeaseGrant): Promise<number> {
  assertPositive(g.want, 'want');
  assertPositive(g.block, 'block');
  assertPositive(g.endZoneBlocks, 'endZoneBlocks');
  if (g.burst !== undefined) assertPositive(g.burst, 'burst');
  if (g.source !== 'prepaid') assertSafeInteger(g.limit, 'limit');
  return quirks.writeTransaction(db, async (trx) => {
    // `no key update`: grants of the organization take turns (PostgreSQL; SQLite's writers all do), while flushes
    // (whose ledger rows only take a key share lock on the organization through their foreign key) never wait for a grant.
    const org = await trx
      .selectFrom('organizations')
      .select('id')
      .where('id', '=', g.orgId)
      .$call((qb) => quirks.lockRows(qb, { mode: 'no key update' }))
      .executeTakeFirst();
    if (!org) return 0;
    const now = toMillis(g.now);
    await trx.deleteFrom('credit_leases').where('org_id', '=', g.orgId).where('expires_at', '<=', now).execute();
    const granted = grantSize(await creditsLeft(trx, g), g.want, g.block, g.endZoneBlocks, g.burst ?? g.block);
    if (granted <= 0) return 0;
    await trx
      .insertInto('credit_leases')
      .values({ id: g.leaseId, holder: g.holder, org_id: g.orgId, source: g.source, period: g.period, credits: granted, expires_at: toMillis(g.expiresAt), created_at: now })
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({ credits: eb('credit_leases.credits', '+', eb.ref('excluded.credits')), expires_at: eb.ref('excluded.expires_at') })),
      )
      .execute();
    return granted;
  });
}

export async function renewCreditLease(db: Kysely<BillingTables>, leaseId: string, now: Date, expiresAt: Date): Promise<boolean> {
  const result = await db
    .updateTable('credit_leases')
    .set({ expires_at: toMillis(expiresAt) })
    .where('id', '=', leaseId)
    .where('expires_at', '>', toMillis(now))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function releaseCreditLease(db: Kysely<BillingTables>, leaseId: string, keep: number): Promise<void> {
  assertSafeInteger(keep, 'keep');
  if (keep <= 0) {
    await db.deleteFrom('credit_leases').where('id', '=', leaseId).execute();
    return;
  }
  await db.updateTable('credit_leases').set({ credits: keep }).where('id', '=', leaseId).where('credits', '>', keep).execute();
}

export async function leasedCredits(db: Kysely<BillingTables>, orgId: string, period: string, now: Date): Promise<LeasedCredits> {
  const rows = await db
    .selectFrom('credit_leases')
    .select((eb) => ['source', eb.fn.sum<Aggregate>('credits').as('credits')])
    .where('org_id', '=', orgId)
    .where('expires_at', '>', toMillis(now))
    .where((eb) => eb.or([eb('period', '=', period), eb('source', '=', 'prepaid')]))
    .groupBy('source')
    .execute();
  const out: LeasedCredits = { quota: 0, prepaid: 0, overage: 0 };
  for (const row of rows) out[row.source] = count(row.credits);
  return out;
}

/** Inside the flush's transaction: each lease gives up what was written to the ledger (never below zero). */
export async function debitCreditLeases(trx: Kysely<BillingTables>, debits: readonly CreditLeaseDebit[]): Promise<void> {
  for (const debit of debits) {
    assertSafeInteger(debit.credits, 'debit');
    if (debit.credits <= 0) continue;
    await trx
      .updateTable('credit_leases')
      .set({ credits: sql<number>`case when credits > ${debit.credits} then credits - ${debit.credits} else 0 end` })
      .where('id', '=', debit.leaseId)
      .execute();
  }
}
