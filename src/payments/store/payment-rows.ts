/**
 * Payments for KyselyPaymentStore (both dialects; migration 0010, ADR 0028): claims of presented authorizations, the
 * ledger of settlements, and the embedded facilitator's token ledger. Amounts are integer base units; columns hold
 * them as safe integers (2^53 base units of a 6-decimal token is 9 billion dollars).
 */
import { sql, type Kysely } from 'kysely';
import { LedgerRefusal, type LedgerTransfer, type PaymentClaim, type PaymentMethod, type PaymentQuery, type PaymentRecord, type PaymentTotal, type StoredPaymentClaim } from '../../domain/payments.js';
import { fromMillis, toMillis, toSafeInteger } from '../../db/column-codec.js';
import type { PaymentClaimsTable, PaymentTables, PaymentsTable } from './payment-tables.js';
import type { DialectQuirks } from '../../db/dialect-quirks.js';

function units(amount: bigint, what: string): number {
  const n = Number(amount);
  if (amount < 0n || !Number.isSafeInteger(n)) throw new RangeError(`${what} must be a non-negative safe integer of base units, got ${amount}`);
  return n;
}

function rowToClaim(row: PaymentClaimsTable): PaymentClaim {
  return {
    key: row.key,
    method: row.method as PaymentMethod,
    network: row.network,
    asset: row.asset,
    payer: row.payer,
    payTo: row.pay_to,
    amount: BigInt(toSafeInteger(row.amount)),
    route: row.route,
    claimedAt: fromMillis(row.claimed_at),
    validBefore: fromMillis(row.valid_before),
  };
}

function rowToPayment(row: PaymentsTable): PaymentRecord {
  return {
    id: row.id,
    claimKey: row.claim_key,
    method: row.method as PaymentMethod,
    network: row.network,
    asset: row.asset,
    payer: row.payer,
    payTo: row.pay_to,
    amount: BigInt(toSafeInteger(row.amount)),
    transaction: row.tx,
    route: row.route,
    settledAt: fromMillis(row.settled_at),
  };
}

export async function claimPayment(db: Kysely<PaymentTables>, claim: PaymentClaim): Promise<boolean> {
  const result = await db
    .insertInto('payment_claims')
    .values({
      key: claim.key,
      method: claim.method,
      network: claim.network,
      asset: claim.asset,
      payer: claim.payer,
      pay_to: claim.payTo,
      amount: units(claim.amount, 'amount'),
      route: claim.route,
      state: 'claimed',
      claimed_at: toMillis(claim.claimedAt),
      valid_before: toMillis(claim.validBefore),
    })
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

export async function findPaymentClaim(db: Kysely<PaymentTables>, key: string): Promise<StoredPaymentClaim | null> {
  const row = await db
    .selectFrom('payment_claims as c')
    .leftJoin('payments as p', 'p.claim_key', 'c.key')
    .selectAll('c')
    .select('p.tx')
    .where('c.key', '=', key)
    .executeTakeFirst();
  if (row === undefined) return null;
  return { claim: rowToClaim(row), state: row.state, transaction: row.tx ?? null };
}

export async function releasePaymentClaim(db: Kysely<PaymentTables>, key: string): Promise<void> {
  await db.deleteFrom('payment_claims').where('key', '=', key).where('state', '=', 'claimed').execute();
}

export function recordPayment(db: Kysely<PaymentTables>, quirks: DialectQuirks, payment: PaymentRecord): Promise<boolean> {
  return quirks.writeTransaction(db, async (trx) => {
    const inserted = await trx
      .insertInto('payments')
      .values({
        id: payment.id,
        claim_key: payment.claimKey,
        method: payment.method,
        network: payment.network,
        asset: payment.asset,
        payer: payment.payer,
        pay_to: payment.payTo,
        amount: units(payment.amount, 'amount'),
        tx: payment.transaction,
        route: payment.route,
        settled_at: toMillis(payment.settledAt),
      })
      .onConflict((oc) => oc.column('claim_key').doNothing())
      .executeTakeFirst();
    await trx.updateTable('payment_claims').set({ state: 'settled' }).where('key', '=', payment.claimKey).execute();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1;
  });
}

export async function unsettledPaymentClaims(db: Kysely<PaymentTables>, before: Date): Promise<PaymentClaim[]> {
  const rows = await db.selectFrom('payment_claims').selectAll().where('state', '=', 'claimed').where('claimed_at', '<', toMillis(before)).orderBy('claimed_at').execute();
  return rows.map(rowToClaim);
}

export async function listPayments(db: Kysely<PaymentTables>, query: PaymentQuery): Promise<PaymentRecord[]> {
  let q = db.selectFrom('payments').selectAll();
  if (query.from) q = q.where('settled_at', '>=', toMillis(query.from));
  if (query.to) q = q.where('settled_at', '<', toMillis(query.to));
  const rows = await q.orderBy('settled_at', 'desc').orderBy('id', 'desc').limit(query.limit).execute();
  return rows.map(rowToPayment);
}

export async function summarizePayments(db: Kysely<PaymentTables>, query: Omit<PaymentQuery, 'limit'>): Promise<PaymentTotal[]> {
  let q = db
    .selectFrom('payments')
    .select(['method', 'network', 'asset', sql<number | string>`count(*)`.as('count'), sql<number | string>`sum(amount)`.as('amount')])
    .groupBy(['method', 'network', 'asset']);
  if (query.from) q = q.where('settled_at', '>=', toMillis(query.from));
  if (query.to) q = q.where('settled_at', '<', toMillis(query.to));
  const rows = await q.orderBy('method').orderBy('network').orderBy('asset').execute();
  return rows.map((row) => ({
    method: row.method as PaymentMethod,
    network: row.network,
    asset: row.asset,
    count: toSafeInteger(row.count),
    // PostgreSQL's sum(bigint) is numeric (text): exact as long as it is an integer.
    amount: BigInt(String(row.amount)),
  }));
}

// ---- the embedded facilitator's token ledger ----

const lower = (s: string): string => s.toLowerCase();

export async function ledgerBalance(db: Kysely<PaymentTables>, network: string, asset: string, address: string): Promise<bigint> {
  const row = await db
    .selectFrom('ledger_accounts')
    .select('balance')
    .where('network', '=', network)
    .where('asset', '=', lower(asset))
    .where('address', '=', lower(address))
    .executeTakeFirst();
  return row === undefined ? 0n : BigInt(toSafeInteger(row.balance));
}

async function addBalance(db: Kysely<PaymentTables>, network: string, asset: string, address: string, amount: number, at: number): Promise<void> {
  await db
    .insertInto('ledger_accounts')
    .values({ network, asset: lower(asset), address: lower(address), balance: amount, updated_at: at })
    .onConflict((oc) => oc.columns(['network', 'asset', 'address']).doUpdateSet({ balance: sql`ledger_accounts.balance + ${amount}`, updated_at: at }))
    .execute();
}

export async function creditLedger(db: Kysely<PaymentTables>, quirks: DialectQuirks, network: string, asset: string, address: string, amount: bigint): Promise<bigint> {
  const value = units(amount, 'amount');
  await quirks.writeTransaction(db, (trx) => addBalance(trx, network, asset, address, value, Date.now()));
  return ledgerBalance(db, network, asset, address);
}

export async function ledgerAuthorization(db: Kysely<PaymentTables>, network: string, asset: string, authorizer: string, nonce: string): Promise<string | null> {
  const row = await db
    .selectFrom('ledger_authorizations')
    .select('tx')
    .where('network', '=', network)
    .where('asset', '=', lower(asset))
    .where('authorizer', '=', lower(authorizer))
    .where('nonce', '=', lower(nonce))
    .executeTakeFirst();
  return row?.tx ?? null;
}

/**
 * `transferWithAuthorization` on the ledger, atomically: the authorization is marked used (its primary key
 * refuses a second use in any process), the payer's balance is debited only when it covers the value (a
 * conditional update, so two transfers can never overdraw it), and the recipient credited.
 */
export function ledgerTransfer(db: Kysely<PaymentTables>, quirks: DialectQuirks, t: LedgerTransfer): Promise<void> {
  const value = units(t.value, 'value');
  const at = toMillis(t.at);
  return quirks.writeTransaction(db, async (trx) => {
    const used = await trx
      .insertInto('ledger_authorizations')
      .values({ network: t.network, asset: lower(t.asset), authorizer: lower(t.from), nonce: lower(t.nonce), recipient: lower(t.to), value, tx: t.transaction, used_at: at })
      .onConflict((oc) => oc.columns(['network', 'asset', 'authorizer', 'nonce']).doNothing())
      .executeTakeFirst();
    if (Number(used.numInsertedOrUpdatedRows ?? 0n) !== 1) throw new LedgerRefusal('authorization_used');
    const debited = await trx
      .updateTable('ledger_accounts')
      .set({ balance: sql`balance - ${value}`, updated_at: at })
      .where('network', '=', t.network)
      .where('asset', '=', lower(t.asset))
      .where('address', '=', lower(t.from))
      .where('balance', '>=', value)
      .executeTakeFirst();
    if (Number(debited.numUpdatedRows) !== 1) throw new LedgerRefusal('insufficient_balance');
    await addBalance(trx, t.network, t.asset, t.to, value, at);
  });
}
