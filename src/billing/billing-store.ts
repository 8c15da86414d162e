/**
 * Billing's storage port (issue 30): organizations and their API keys, the append-only usage ledger, prepaid credit
 * grants and usage warnings; credit leases in credit-lease-store.ts. `store/` implements it over the kernel's
 * Database (KyselyBillingStore), and its contract suites (test/billing/store/) prove it on SQLite and PostgreSQL.
 * Every method is atomic on its own.
 */
import type { ApiKeyRecord, CreditGrant, NewOrganization, Organization, OrganizationPatch, UsageEntry, UsageNotice, UsageSummary } from '../domain/accounts.js';
import type { CreditLeaseDebit, CreditLeaseStore } from './credit-lease-store.js';
export type { CreditLeaseDebit, CreditLeaseGrant, CreditLeaseStore, LeasedCredits } from './credit-lease-store.js';

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

/** Credits charged on one UTC day, per source (the dashboard's usage chart, issue 23). */
export interface DailyUsage {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  quota: number;
  prepaid: number;
  overage: number;
}

/** The usage ledger summed per day (store/usage-by-day-rows.ts), for the dashboard's usage chart. */
export interface UsageByDayStore {
  /** Credits charged with createdAt in [from, to), summed per UTC day and source; days without a charge are absent. Oldest first. */
  usageByDay(orgId: string, from: Date, to: Date): Promise<DailyUsage[]>;
}

/** All of billing's storage: what main/ builds once (KyselyBillingStore) and hands to billing's services. */
export interface BillingStore extends AccountStore, UsageStore, CreditStore, CreditLeaseStore, UsageByDayStore {}
