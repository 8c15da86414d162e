/**
 * Standing access for KyselyAccessStore (both dialects; migration 0012, ADR 0029): the purchase transaction, the
 * one-time delivery, the agent a key was bought by, and MCP tokens by hash.
 */
import type { Kysely } from 'kysely';
import type { AccessDelivery, AccessPurchase, AccessPurchaseCompletion, AgentPayer, CardCharge, CardChargeResult, CardTokenRecord, McpTokenRecord } from '../../domain/access-purchases.js';
import type { PaymentMethod } from '../../domain/payments.js';
import { fromMillis, fromNullableMillis, toMillis, toSafeInteger } from '../../db/column-codec.js';
import type { DialectQuirks } from '../../db/dialect-quirks.js';
import type { AccessPurchasesTable, AccessTables, McpTokensTable } from './access-tables.js';
import type { PaymentTables } from './payment-tables.js';
import type { PurchasedAccountWriter } from './purchased-account-writer.js';

/** The tables standing access reads and writes: its own and the payments' (a purchase settles its payment). */
type Database = AccessTables & PaymentTables;

export function rowToPurchase(row: AccessPurchasesTable): AccessPurchase {
  const payer: AgentPayer = row.payer_kind === 'wallet' && row.network !== null && row.payer !== null ? { kind: 'wallet', network: row.network, address: row.payer } : { kind: 'card' };
  return {
    paymentKey: row.payment_key,
    method: row.method as PaymentMethod,
    payer,
    usd: toSafeInteger(row.usd),
    credits: toSafeInteger(row.credits),
    orgId: row.org_id,
    apiKeyId: row.api_key_id,
    topUp: Number(row.top_up) === 1,
    paidAt: fromMillis(row.paid_at),
    deliveredAt: fromNullableMillis(row.delivered_at),
  };
}

export function rowToMcpToken(row: McpTokensTable): McpTokenRecord {
  return {
    id: row.id,
    orgId: row.org_id,
    apiKeyId: row.api_key_id,
    tokenHash: row.token_hash,
    prefix: row.prefix,
    createdAt: fromMillis(row.created_at),
    revokedAt: fromNullableMillis(row.revoked_at),
  };
}

/** The organization and key a wallet owns, read under the transaction's write lock. */
function walletOwner(trx: Kysely<Database>, network: string, address: string): Promise<{ org_id: string; api_key_id: string } | undefined> {
  return trx.selectFrom('agent_wallets').select(['org_id', 'api_key_id']).where('network', '=', network).where('address', '=', address).executeTakeFirst();
}

/** A new organization with its key and MCP token; for a wallet also the row that makes it the wallet's. */
async function createPurchasedAccount(trx: Kysely<Database>, accounts: PurchasedAccountWriter, c: AccessPurchaseCompletion): Promise<{ orgId: string; apiKeyId: string }> {
  const { org, apiKey, mcpToken } = c.fresh;
  await accounts.createAccount(trx as Kysely<unknown>, org, apiKey);
  await trx
    .insertInto('mcp_tokens')
    .values({
      id: mcpToken.id,
      org_id: org.id,
      api_key_id: apiKey.id,
      token_hash: mcpToken.tokenHash,
      prefix: mcpToken.prefix,
      created_at: toMillis(mcpToken.createdAt),
      revoked_at: null,
    })
    .execute();
  if (c.payer.kind === 'wallet') {
    await trx
      .insertInto('agent_wallets')
      .values({ network: c.payer.network, address: c.payer.address, org_id: org.id, api_key_id: apiKey.id, created_at: toMillis(c.paidAt) })
      .execute();
  }
  return { orgId: org.id, apiKeyId: apiKey.id };
}

/**
 * The purchase, in one transaction: the settlement's ledger row (kept if reconciliation wrote it already), its
 * claim marked settled, the purchase row, the organization, key and MCP token (or, for a wallet that owns an
 * organization, nothing new), and the credit grant. Returns null, writing nothing, when the payment already
 * bought something (another request completed it first).
 */
export function completeAccessPurchase(db: Kysely<Database>, quirks: DialectQuirks, accounts: PurchasedAccountWriter, c: AccessPurchaseCompletion): Promise<AccessPurchase | null> {
  return quirks.writeTransaction(db, async (trx) => {
    // SQLite's `begin immediate` serializes writers already; PostgreSQL takes transaction locks on the payment and
    // the wallet (always in that order), so two copies of a payment, or two payments of one wallet, queue up
    // instead of both inserting.
    await quirks.transactionLock(trx as Kysely<unknown>, { name: [`access:${c.payment.claimKey}`] });
    if (c.payer.kind === 'wallet') await quirks.transactionLock(trx as Kysely<unknown>, { name: [`wallet:${c.payer.network}:${c.payer.address}`] });
    const taken = await trx.selectFrom('access_purchases').select('payment_key').where('payment_key', '=', c.payment.claimKey).executeTakeFirst();
    if (taken !== undefined) return null;
    const p = c.payment;
    await trx
      .insertInto('payments')
      .values({
        id: p.id,
        claim_key: p.claimKey,
        method: p.method,
        network: p.network,
        asset: p.asset,
        payer: p.payer,
        pay_to: p.payTo,
        amount: toSafeInteger(p.amount.toString()),
        tx: p.transaction,
        route: p.route,
        settled_at: toMillis(p.settledAt),
      })
      .onConflict((oc) => oc.column('claim_key').doNothing())
      .execute();
    await trx.updateTable('payment_claims').set({ state: 'settled' }).where('key', '=', p.claimKey).execute();
    const owner = c.payer.kind === 'wallet' ? await walletOwner(trx, c.payer.network, c.payer.address) : undefined;
    const account = owner === undefined ? await createPurchasedAccount(trx, accounts, c) : { orgId: owner.org_id, apiKeyId: owner.api_key_id };
    await accounts.grantCredits(trx as Kysely<unknown>, { ...c.grant, orgId: account.orgId });
    const row: AccessPurchasesTable = {
      payment_key: p.claimKey,
      method: p.method,
      payer_kind: c.payer.kind,
      network: c.payer.kind === 'wallet' ? c.payer.network : null,
      payer: c.payer.kind === 'wallet' ? c.payer.address : null,
      usd: c.usd,
      credits: c.credits,
      org_id: account.orgId,
      api_key_id: account.apiKeyId,
      top_up: owner === undefined ? 0 : 1,
      paid_at: toMillis(c.paidAt),
      delivered_at: null,
      // A top-up creates no secret; its seal only lets the exact request be recognised on a retry.
      sealed: owner === undefined ? c.fresh.sealed : c.topUpSealed,
    };
    await trx.insertInto('access_purchases').values(row).execute();
    return rowToPurchase(row);
  });
}

export async function findAccessPurchase(db: Kysely<Database>, paymentKey: string): Promise<AccessPurchase | null> {
  const row = await db.selectFrom('access_purchases').selectAll().where('payment_key', '=', paymentKey).executeTakeFirst();
  return row === undefined ? null : rowToPurchase(row);
}

/**
 * Hands the purchase to exactly one response: the undelivered purchase paid at or after `paidSince`, whose seal
 * `accept` approves, is marked
 * delivered at `at` and its sealed secrets are wiped in the same transaction; the caller gets what was sealed.
 * Null when it was delivered already, is older, or does not exist. The conditional update decides between
 * concurrent callers (PostgreSQL re-checks `delivered_at is null` after the first commits).
 */
export function takeAccessDelivery(
  db: Kysely<Database>,
  quirks: DialectQuirks,
  paymentKey: string,
  at: Date,
  paidSince: Date,
  accept: (sealed: string | null) => boolean,
): Promise<AccessDelivery | null> {
  return quirks.writeTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom('access_purchases')
      .selectAll()
      .where('payment_key', '=', paymentKey)
      .where('delivered_at', 'is', null)
      .where('paid_at', '>=', toMillis(paidSince))
      .executeTakeFirst();
    // The caller checks the seal under the write lock: a request that is not the exact one must not burn it.
    if (row === undefined || !accept(row.sealed)) return null;
    const updated = await trx
      .updateTable('access_purchases')
      .set({ delivered_at: toMillis(at), sealed: null })
      .where('payment_key', '=', paymentKey)
      .where('delivered_at', 'is', null)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return null;
    return { purchase: { ...rowToPurchase(row), deliveredAt: at }, sealed: row.sealed };
  });
}

/** Wipes the sealed secrets of purchases paid before `before` (their retry window is over); returns how many. */
export async function wipeAccessSeals(db: Kysely<Database>, before: Date): Promise<number> {
  const result = await db.updateTable('access_purchases').set({ sealed: null }).where('sealed', 'is not', null).where('paid_at', '<', toMillis(before)).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The payer that bought the key through standing access, or null for keys created any other way. */
export async function agentOfApiKey(db: Kysely<Database>, apiKeyId: string): Promise<AgentPayer | null> {
  const wallet = await db.selectFrom('agent_wallets').select(['network', 'address']).where('api_key_id', '=', apiKeyId).executeTakeFirst();
  if (wallet !== undefined) return { kind: 'wallet', network: wallet.network, address: wallet.address };
  const card = await db.selectFrom('access_purchases').select('payment_key').where('api_key_id', '=', apiKeyId).where('payer_kind', '=', 'card').executeTakeFirst();
  return card === undefined ? null : { kind: 'card' };
}

export async function findMcpTokenByHash(db: Kysely<Database>, tokenHash: string): Promise<McpTokenRecord | null> {
  const row = await db.selectFrom('mcp_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  return row === undefined ? null : rowToMcpToken(row);
}

/** Stores a new card token of the embedded card processor (its hash only). */
export async function issueCardToken(db: Kysely<Database>, token: CardTokenRecord): Promise<void> {
  await db
    .insertInto('card_tokens')
    .values({
      token_hash: token.tokenHash,
      currency: token.currency,
      max_amount: toSafeInteger(token.maxAmount.toString()),
      expires_at: toMillis(token.expiresAt),
      created_at: toMillis(token.createdAt),
      used_at: null,
      amount: null,
      payment_intent: null,
      idempotency_hash: null,
    })
    .execute();
}

/**
 * Charges a card token once, in one transaction: refused when unknown, expired, used by another charge, in another
 * currency or above its limit; the same idempotency key answers the charge it made again (`replayed`), as a card
 * processor's idempotent API does. The conditional update decides between concurrent callers.
 */
export function chargeCardToken(db: Kysely<Database>, quirks: DialectQuirks, c: CardCharge): Promise<CardChargeResult> {
  return quirks.writeTransaction(db, async (trx) => {
    const row = await trx.selectFrom('card_tokens').selectAll().where('token_hash', '=', c.tokenHash).executeTakeFirst();
    if (row === undefined) return { ok: false, reason: 'no_such_token' };
    if (row.used_at !== null) {
      return row.idempotency_hash === c.idempotencyHash && row.payment_intent !== null ? { ok: true, paymentIntent: row.payment_intent, replayed: true } : { ok: false, reason: 'token_used' };
    }
    if (toSafeInteger(row.expires_at) <= toMillis(c.at)) return { ok: false, reason: 'token_expired' };
    if (row.currency !== c.currency.toLowerCase()) return { ok: false, reason: 'currency_mismatch' };
    if (BigInt(row.max_amount) < c.amount) return { ok: false, reason: 'amount_too_large' };
    const updated = await trx
      .updateTable('card_tokens')
      .set({ used_at: toMillis(c.at), amount: toSafeInteger(c.amount.toString()), payment_intent: c.paymentIntent, idempotency_hash: c.idempotencyHash })
      .where('token_hash', '=', c.tokenHash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) === 1 ? { ok: true, paymentIntent: c.paymentIntent, replayed: false } : { ok: false, reason: 'token_used' };
  });
}

/** The payment intent a card token was charged under, or null (unused or unknown). */
export async function cardTokenCharge(db: Kysely<Database>, tokenHash: string): Promise<string | null> {
  const row = await db.selectFrom('card_tokens').select('payment_intent').where('token_hash', '=', tokenHash).executeTakeFirst();
  return row?.payment_intent ?? null;
}
