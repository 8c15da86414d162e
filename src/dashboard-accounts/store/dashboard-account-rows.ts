/**
 * Dashboard accounts' rows for KyselyDashboardAccountStore (both dialects; migration 0021, ADR 0043): users, memberships, sign-in tokens,
 * sessions, sign-in request counts and the generated session secret.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DashboardSessionRecord, DashboardUser, MemberListing, MemberRole, Membership, SignInTokenRecord } from '../../domain/dashboard-accounts.js';
import { fromMillis, fromNullableMillis, toMillis, toSafeInteger } from '../../db/column-codec.js';
import type { DashboardAccountTables as Database, DashboardMembershipsTable, DashboardSessionsTable, DashboardSignInTokensTable, DashboardUsersTable } from './dashboard-account-tables.js';
import type { DialectQuirks } from '../../db/dialect-quirks.js';

type Db = Kysely<Database>;

function rowToUser(row: DashboardUsersTable): DashboardUser {
  return { id: row.id, email: row.email, createdAt: fromMillis(row.created_at) };
}

function rowToMembership(row: DashboardMembershipsTable): Membership {
  return { userId: row.user_id, orgId: row.org_id, role: row.role as MemberRole, createdAt: fromMillis(row.created_at) };
}

function rowToToken(row: DashboardSignInTokensTable): SignInTokenRecord {
  return {
    id: row.id,
    userId: row.user_id,
    linkHash: row.link_hash,
    codeHash: row.code_hash,
    createdAt: fromMillis(row.created_at),
    expiresAt: fromMillis(row.expires_at),
    usedAt: fromNullableMillis(row.used_at),
    failedCodes: toSafeInteger(row.failed_codes),
  };
}

function rowToSession(row: DashboardSessionsTable): DashboardSessionRecord {
  return {
    id: row.id,
    userId: row.user_id,
    createdAt: fromMillis(row.created_at),
    lastSeenAt: fromMillis(row.last_seen_at),
    expiresAt: fromMillis(row.expires_at),
    revokedAt: fromNullableMillis(row.revoked_at),
    userAgent: row.user_agent,
  };
}

// ---- users and memberships ----

export async function createDashboardUser(db: Db, user: DashboardUser): Promise<DashboardUser> {
  await db
    .insertInto('dashboard_users')
    .values({ id: user.id, email: user.email, created_at: toMillis(user.createdAt) })
    .onConflict((oc) => oc.column('email').doNothing())
    .execute();
  const stored = await findDashboardUserByEmail(db, user.email);
  if (!stored) throw new Error('dashboard user vanished right after its insert');
  return stored;
}

export async function findDashboardUserByEmail(db: Db, email: string): Promise<DashboardUser | null> {
  const row = await db.selectFrom('dashboard_users').selectAll().where('email', '=', email).executeTakeFirst();
  return row ? rowToUser(row) : null;
}

export async function getDashboardUser(db: Db, id: string): Promise<DashboardUser | null> {
  const row = await db.selectFrom('dashboard_users').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? rowToUser(row) : null;
}

/** Children first, in one transaction (SQLite enforces the cascade only with foreign keys on). */
export async function deleteDashboardUser(db: Db, quirks: DialectQuirks, id: string): Promise<boolean> {
  return quirks.writeTransaction(db, async (trx) => {
    await trx.deleteFrom('dashboard_sessions').where('user_id', '=', id).execute();
    await trx.deleteFrom('dashboard_sign_in_tokens').where('user_id', '=', id).execute();
    await trx.deleteFrom('dashboard_memberships').where('user_id', '=', id).execute();
    const result = await trx.deleteFrom('dashboard_users').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  });
}

export async function setDashboardMembership(db: Db, m: Membership): Promise<void> {
  await db
    .insertInto('dashboard_memberships')
    .values({ user_id: m.userId, org_id: m.orgId, role: m.role, created_at: toMillis(m.createdAt) })
    .onConflict((oc) => oc.columns(['user_id', 'org_id']).doUpdateSet({ role: m.role }))
    .execute();
}

export async function removeDashboardMembership(db: Db, userId: string, orgId: string): Promise<boolean> {
  const result = await db.deleteFrom('dashboard_memberships').where('user_id', '=', userId).where('org_id', '=', orgId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function dashboardMembership(db: Db, userId: string, orgId: string): Promise<Membership | null> {
  const row = await db.selectFrom('dashboard_memberships').selectAll().where('user_id', '=', userId).where('org_id', '=', orgId).executeTakeFirst();
  return row ? rowToMembership(row) : null;
}

export async function dashboardMemberships(db: Db, userId: string): Promise<Membership[]> {
  const rows = await db.selectFrom('dashboard_memberships').selectAll().where('user_id', '=', userId).orderBy('org_id').execute();
  return rows.map(rowToMembership);
}

export async function listDashboardMembers(db: Db, orgId: string | null): Promise<MemberListing[]> {
  let query = db
    .selectFrom('dashboard_memberships as m')
    .innerJoin('dashboard_users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.email', 'u.created_at', 'm.org_id', 'm.role']);
  if (orgId !== null) query = query.where('m.org_id', '=', orgId);
  const rows = await query.orderBy('u.email').orderBy('m.org_id').execute();
  return rows.map((r) => ({ user: rowToUser({ id: r.id, email: r.email, created_at: r.created_at }), orgId: r.org_id, role: r.role as MemberRole }));
}

// ---- sign-in tokens and request counts ----

export async function insertSignInToken(db: Db, t: SignInTokenRecord): Promise<void> {
  await db
    .insertInto('dashboard_sign_in_tokens')
    .values({
      id: t.id,
      user_id: t.userId,
      link_hash: t.linkHash,
      code_hash: t.codeHash,
      created_at: toMillis(t.createdAt),
      expires_at: toMillis(t.expiresAt),
      used_at: t.usedAt === null ? null : toMillis(t.usedAt),
      failed_codes: t.failedCodes,
    })
    .execute();
}

export async function findSignInTokenByLinkHash(db: Db, linkHash: string): Promise<SignInTokenRecord | null> {
  const row = await db.selectFrom('dashboard_sign_in_tokens').selectAll().where('link_hash', '=', linkHash).executeTakeFirst();
  return row ? rowToToken(row) : null;
}

export async function latestSignInToken(db: Db, userId: string, now: Date): Promise<SignInTokenRecord | null> {
  const row = await db
    .selectFrom('dashboard_sign_in_tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', toMillis(now))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row ? rowToToken(row) : null;
}

/** One conditional update: of two concurrent uses, exactly one changes the row. */
export async function useSignInToken(db: Db, id: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('dashboard_sign_in_tokens')
    .set({ used_at: toMillis(at) })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', toMillis(at))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Counts one code tried on the token if it is unused and not expired at `at`, and returns the tries so far (this one
 * included), or null when the token is used, expired or unknown. The try is counted before the code is checked, in
 * one statement, so concurrent guesses cannot all be checked before any is counted.
 */
export async function countSignInCodeTry(db: Db, quirks: DialectQuirks, id: string, at: Date): Promise<number | null> {
  return quirks.writeTransaction(db, async (trx) => {
    const updated = await trx
      .updateTable('dashboard_sign_in_tokens')
      .set((eb) => ({ failed_codes: eb('failed_codes', '+', 1) }))
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .where('expires_at', '>', toMillis(at))
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return null;
    const row = await trx.selectFrom('dashboard_sign_in_tokens').select('failed_codes').where('id', '=', id).executeTakeFirst();
    return row ? toSafeInteger(row.failed_codes) : null;
  });
}

/**
 * Admits one sign-in request under `key` when fewer than `limit` were admitted in [since, at]: inserts first, then
 * counts, and takes the row back when over the limit. So only admitted requests count (a refused one never extends
 * the wait), and two concurrent requests see each other: the limit is never exceeded (both may be refused).
 */
export async function admitSignInRequest(db: Db, key: string, limit: number, at: Date, since: Date): Promise<boolean> {
  await db.deleteFrom('dashboard_sign_in_requests').where('at', '<', toMillis(since)).execute();
  const id = randomBytes(12).toString('hex');
  await db.insertInto('dashboard_sign_in_requests').values({ id, key_hash: key, at: toMillis(at) }).execute();
  const row = await db
    .selectFrom('dashboard_sign_in_requests')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
    .where('key_hash', '=', key)
    .where('at', '>=', toMillis(since))
    .executeTakeFirst();
  if (toSafeInteger(row?.n ?? 0) <= limit) return true;
  await db.deleteFrom('dashboard_sign_in_requests').where('id', '=', id).execute();
  return false;
}

export async function forgetSignInRequests(db: Db, keys: readonly string[]): Promise<void> {
  if (keys.length > 0) await db.deleteFrom('dashboard_sign_in_requests').where('key_hash', 'in', [...keys]).execute();
}

// ---- sessions ----

export async function insertDashboardSession(db: Db, s: DashboardSessionRecord): Promise<void> {
  await db
    .insertInto('dashboard_sessions')
    .values({
      id: s.id,
      user_id: s.userId,
      created_at: toMillis(s.createdAt),
      last_seen_at: toMillis(s.lastSeenAt),
      expires_at: toMillis(s.expiresAt),
      revoked_at: s.revokedAt === null ? null : toMillis(s.revokedAt),
      user_agent: s.userAgent,
    })
    .execute();
}

export async function getDashboardSession(db: Db, id: string): Promise<DashboardSessionRecord | null> {
  const row = await db.selectFrom('dashboard_sessions').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? rowToSession(row) : null;
}

export async function touchDashboardSession(db: Db, id: string, at: Date): Promise<void> {
  await db.updateTable('dashboard_sessions').set({ last_seen_at: toMillis(at) }).where('id', '=', id).execute();
}

export async function listDashboardSessions(db: Db, userId: string, now: Date): Promise<DashboardSessionRecord[]> {
  const rows = await db
    .selectFrom('dashboard_sessions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', toMillis(now))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(rowToSession);
}

export async function revokeDashboardSessions(db: Db, userId: string, at: Date, scope: { sessionId?: string; except?: string } = {}): Promise<number> {
  let query = db.updateTable('dashboard_sessions').set({ revoked_at: toMillis(at) }).where('user_id', '=', userId).where('revoked_at', 'is', null).where('expires_at', '>', toMillis(at));
  if (scope.sessionId !== undefined) query = query.where('id', '=', scope.sessionId);
  if (scope.except !== undefined) query = query.where('id', '!=', scope.except);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function dashboardSecret(db: Db, name: string, candidate: string, at: Date): Promise<string> {
  await db
    .insertInto('dashboard_secrets')
    .values({ name, value: candidate, created_at: toMillis(at) })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('dashboard_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}
