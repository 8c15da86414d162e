/**
 * The billing product's storage port (issue 30; moved out of store/store.ts): organizations and API keys, the
 * append-only usage ledger, prepaid credit grants and usage warnings, credit leases (credit-lease-store.ts), client IDs
 * and the dashboard's daily usage sums (organization-activity-store.ts). Implemented over the database kernel in
 * billing/store/kysely-billing-store.ts; main/product-stores.ts builds it. Every method is atomic on its own: a method
 * that writes several rows writes all or none.
 */
import type { ApiKeyRecord, CreditGrant, NewOrganization, Organization, OrganizationPatch, UsageEntry, UsageNotice, UsageSummary } from '../domain/accounts.js';
import type { ClientIdRecord, ClientIdUsageEntry } from '../domain/client-id-record.js';
import type { ClientIdProduct } from '../domain/client-ids.js';
import type { CreditLeaseDebit, CreditLeaseStore } from './credit-lease-store.js';
import type { OrganizationActivityStore } from './organization-activity-store.js';

export type { CreditLeaseDebit, CreditLeaseGrant, CreditLeaseStore, LeasedCredits } from './credit-lease-store.js';
export type { DailyUsage, OrganizationActivityStore } from './organization-activity-store.js';

export interface AccountStore {
  createOrganization(org: NewOrganization): Promise<Organization>;
  getOrganization(id: string): Promise<Organization | null>;
  listOrganizations(): Promise<Organization[]>;
  updateOrganization(id: string, patch: OrganizationPatch): Promise<Organization | null>;
  createApiKey(key: ApiKeyRecord): Promise<void>;
  getApiKey(id: string): Promise<ApiKeyRecord | null>;
  findApiKeyBySecretHash(secretHash: string): Promise<ApiKeyRecord | null>;
  listApiKeys(orgId: string): Promise<ApiKeyRecord[]>;
  /** Returns false when the key does not exist; revoking twice keeps the first revocation time. */
  revokeApiKey(id: string, at: Date): Promise<boolean>;
}

export interface UsageStore {
  /**
   * Appends entries in one transaction: all are written or none (the usage meter flushes in groups). `debits`
   * shrink the credit leases those charges were served from, in the same transaction (ADR 0040).
   */
  appendUsage(entries: readonly UsageEntry[], debits?: readonly CreditLeaseDebit[]): Promise<void>;
  /** Sum of credits charged to the organization with createdAt in [from, to). */
  sumUsage(orgId: string, from: Date, to: Date): Promise<number>;
  /** Per-source sums with createdAt in [from, to), plus the all-time prepaid balance, in one consistent read. */
  summarizeUsage(orgId: string, from: Date, to: Date): Promise<UsageSummary>;
}

export interface CreditStore {
  /** Appends a prepaid credit grant. */
  addCreditGrant(grant: CreditGrant): Promise<void>;
  listCreditGrants(orgId: string): Promise<CreditGrant[]>;
  /**
   * Records that a usage warning is being sent. Returns true only for the one caller that inserted the row:
   * (orgId, period, threshold) is unique, so two processes can never both send the same warning.
   */
  claimUsageNotice(notice: UsageNotice): Promise<boolean>;
  /** Drops a claim whose email could not be sent, so a later request may try again. */
  releaseUsageNotice(orgId: string, period: string, threshold: number): Promise<void>;
}

/** Client IDs (migration 0017, ADR 0033): publishable credentials for search and the logo CDN. */
export interface ClientIdStore {
  createClientId(record: ClientIdRecord): Promise<void>;
  getClientId(id: string): Promise<ClientIdRecord | null>;
  listClientIds(orgId: string): Promise<ClientIdRecord[]>;
  /** False when the ID does not exist; revoking twice keeps the first revocation time. */
  revokeClientId(id: string, at: Date): Promise<boolean>;
  /** Replaces the allowed referrer hosts and the require-a-referrer flag; false when the ID does not exist. */
  setClientIdReferrers(id: string, referrers: readonly string[], requireReferrer: boolean): Promise<boolean>;
  /** Adds request counts (grouped by the caller) in one transaction. */
  addClientIdUsage(entries: readonly ClientIdUsageEntry[]): Promise<void>;
  /** Requests counted for the organization's client IDs, one product, one billing period (`YYYY-MM`). */
  clientIdUsage(orgId: string, product: ClientIdProduct, period: string): Promise<number>;
}

/** Everything billing stores: what `ProductStores.billing` is. */
export interface BillingStore extends AccountStore, UsageStore, CreditStore, CreditLeaseStore, ClientIdStore, OrganizationActivityStore {}
