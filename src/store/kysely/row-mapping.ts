/**
 * Row <-> port-type mapping for KyselyStore. Pure functions: no queries here.
 */
import type { Brand } from '../../domain/brand.js';
import type { ApiKeyRecord, Organization, StoredBrand, UsageEntry } from '../store.js';
import { assertSafeInteger, fromMillis, fromNullableMillis, toMillis, toSafeInteger } from './column-codec.js';
import type { ApiKeysTable, BrandsTable, OrganizationsTable, UsageLedgerTable } from './schema.js';

export function brandToRow(stored: StoredBrand): BrandsTable {
  // The palette is built per request (spec 2.8); it is never part of the stored record.
  const { palette: _palette, ...record } = stored.brand;
  return {
    id: stored.brand.id,
    domain: stored.brand.domain,
    status: stored.status,
    record: JSON.stringify(record),
    crawled_at: toMillis(stored.crawledAt),
    created_at: toMillis(stored.createdAt),
    updated_at: toMillis(stored.updatedAt),
  };
}

export function rowToBrand(row: BrandsTable): StoredBrand {
  return {
    brand: JSON.parse(row.record) as Brand,
    status: row.status,
    crawledAt: fromMillis(row.crawled_at),
    createdAt: fromMillis(row.created_at),
    updatedAt: fromMillis(row.updated_at),
  };
}

export function organizationToRow(org: Organization): OrganizationsTable {
  assertSafeInteger(org.quota, 'quota');
  return { id: org.id, name: org.name, plan: org.plan, quota: org.quota, created_at: toMillis(org.createdAt) };
}

export function rowToOrganization(row: OrganizationsTable): Organization {
  return { id: row.id, name: row.name, plan: row.plan, quota: toSafeInteger(row.quota), createdAt: fromMillis(row.created_at) };
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
  };
}
