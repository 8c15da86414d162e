/**
 * Billing's rows <-> its port types (moved out of store/kysely/row-mapping.ts, issue 30), for kysely-billing-store.ts
 * and purchased-account-rows.ts. Pure functions and SQL fragments: no queries run here.
 */
import { sql } from 'kysely';
import type { ApiKeyRecord, CreditGrant, NewOrganization, Organization, UsageEntry } from '../../domain/accounts.js';
import { assertSafeInteger, fromMillis, fromNullableMillis, toMillis, toSafeInteger } from '../../db/column-codec.js';
import type { ApiKeysTable, CreditGrantsTable, OrganizationsTable, UsageLedgerTable } from './billing-tables.js';

function nullableInteger(value: number | string | bigint | null): number | null {
  return value === null ? null : toSafeInteger(value);
}

export function contactsToColumn(contacts: readonly string[]): string {
  return JSON.stringify(contacts);
}

function contactsFromColumn(text: string): string[] {
  const parsed: unknown = JSON.parse(text);
  return Array.isArray(parsed) ? parsed.filter((c): c is string => typeof c === 'string') : [];
}

export function organizationToRow(org: NewOrganization): OrganizationsTable {
  assertSafeInteger(org.quota, 'quota');
  const spendingLimitCents = org.spendingLimitCents ?? null;
  const rateLimitPerMinute = org.rateLimitPerMinute ?? null;
  if (spendingLimitCents !== null) assertSafeInteger(spendingLimitCents, 'spendingLimitCents');
  if (rateLimitPerMinute !== null) assertSafeInteger(rateLimitPerMinute, 'rateLimitPerMinute');
  return {
    id: org.id,
    name: org.name,
    plan: org.plan,
    quota: org.quota,
    created_at: toMillis(org.createdAt),
    spending_limit_cents: spendingLimitCents,
    billing_contacts: contactsToColumn(org.billingContacts ?? []),
    rate_limit_per_minute: rateLimitPerMinute,
  };
}

/** `prepaid_credits` is computed by the query (grants minus prepaid charges). */
export function rowToOrganization(row: OrganizationsTable & { prepaid_credits: number | string | bigint | null }): Organization {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan,
    quota: toSafeInteger(row.quota),
    prepaidCredits: row.prepaid_credits === null ? 0 : toSafeInteger(row.prepaid_credits),
    spendingLimitCents: nullableInteger(row.spending_limit_cents),
    billingContacts: contactsFromColumn(row.billing_contacts),
    rateLimitPerMinute: nullableInteger(row.rate_limit_per_minute),
    createdAt: fromMillis(row.created_at),
  };
}

export function creditGrantToRow(grant: CreditGrant): CreditGrantsTable {
  assertSafeInteger(grant.credits, 'credits');
  if (grant.amountCents !== null) assertSafeInteger(grant.amountCents, 'amountCents');
  return {
    id: grant.id,
    org_id: grant.orgId,
    credits: grant.credits,
    amount_cents: grant.amountCents,
    reason: grant.reason,
    created_at: toMillis(grant.createdAt),
  };
}

/**
 * The next grant's insertion sequence, computed in its insert. Writes to SQLite are serialized; on PostgreSQL two
 * grants inserted at once may share a number (their order is undefined anyway), and the id still orders those.
 */
export const NEXT_CREDIT_GRANT_SEQ = sql<number>`(select coalesce(max(seq), 0) + 1 from credit_grants)`;

export function rowToCreditGrant(row: CreditGrantsTable): CreditGrant {
  return {
    id: row.id,
    orgId: row.org_id,
    credits: toSafeInteger(row.credits),
    amountCents: nullableInteger(row.amount_cents),
    reason: row.reason,
    createdAt: fromMillis(row.created_at),
  };
}

export function apiKeyToRow(key: ApiKeyRecord): ApiKeysTable {
  return {
    id: key.id,
    org_id: key.orgId,
    name: key.name,
    secret_hash: key.secretHash,
    prefix: key.prefix,
    created_at: toMillis(key.createdAt),
    revoked_at: key.revokedAt === null ? null : toMillis(key.revokedAt),
  };
}

export function rowToApiKey(row: ApiKeysTable): ApiKeyRecord {
  return {
    id: row.id,
    orgId: row.org_id,
    name: row.name,
    secretHash: row.secret_hash,
    prefix: row.prefix,
    createdAt: fromMillis(row.created_at),
    revokedAt: fromNullableMillis(row.revoked_at),
  };
}

export function usageToRow(entry: UsageEntry): UsageLedgerTable {
  assertSafeInteger(entry.credits, 'credits');
  return {
    id: entry.id,
    org_id: entry.orgId,
    key_id: entry.keyId,
    credits: entry.credits,
    reason: entry.reason,
    created_at: toMillis(entry.createdAt),
    source: entry.source ?? 'quota',
  };
}
