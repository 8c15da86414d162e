/**
 * Billing entities: organizations and their plans, API keys, the append-only usage ledger, prepaid credit grants
 * and usage warnings. Pure types shared by billing/, the billing store port (billing/billing-store.ts) and its backend.
 */

export type Plan = 'free' | 'paid';

export interface Organization {
  id: string;
  name: string;
  plan: Plan;
  /** Credits per billing period. */
  quota: number;
  /**
   * Prepaid credit balance as of this read: credit grants minus prepaid consumption written to the ledger.
   * Bought credits do not expire at the end of a period. Billing's in-memory counters are the exact view.
   */
  prepaidCredits: number;
  /** Monthly overage cap in US cents (paid plan only); `null` means the configured default; 0 disables overage. */
  spendingLimitCents: number | null;
  /** Where usage warning emails go (the operator's customer contacts). */
  billingContacts: string[];
  /** Request throughput limit; `null` means the configured default. */
  rateLimitPerMinute: number | null;
  createdAt: Date;
}

export interface NewOrganization {
  id: string;
  name: string;
  plan: Plan;
  quota: number;
  spendingLimitCents?: number | null;
  billingContacts?: string[];
  rateLimitPerMinute?: number | null;
  createdAt: Date;
}

/** The settings an operator may change on an organization. */
export type OrganizationPatch = Partial<Pick<Organization, 'name' | 'plan' | 'quota' | 'spendingLimitCents' | 'billingContacts' | 'rateLimitPerMinute'>>;

export interface ApiKeyRecord {
  id: string;
  orgId: string;
  name: string;
  /** SHA-256 of the secret, hex. The secret itself is never stored. */
  secretHash: string;
  /** The first characters of the key, kept so an operator can tell keys apart. Not secret. */
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
}

/** Where a charged credit came from: the period quota, the prepaid balance, or overage (paid plan, billed). */
export type UsageSource = 'quota' | 'prepaid' | 'overage';

export interface UsageEntry {
  id: string;
  orgId: string;
  keyId: string | null;
  /** Integer credits; positive for a charge. Entries are appended, never updated. */
  credits: number;
  /** What was charged, e.g. `brand.lookup`. Never a URL or email address. */
  reason: string;
  /** Defaults to `quota`. */
  source?: UsageSource;
  createdAt: Date;
}

/** Credits charged per source in a time range, and the prepaid balance over all time. */
export interface UsageSummary {
  quota: number;
  prepaid: number;
  overage: number;
  /** Credit grants minus every prepaid charge ever written (not limited to the range). */
  prepaidBalance: number;
}

/** Prepaid credits added to an organization. Appended, never updated. */
export interface CreditGrant {
  id: string;
  orgId: string;
  /** Positive integer credits. */
  credits: number;
  /** What was paid for them, in US cents, when known. */
  amountCents: number | null;
  /** Why, e.g. `purchase` or `operator`. Never an email address. */
  reason: string;
  createdAt: Date;
}

/** A usage warning (80 or 100 percent of the period quota) claimed for sending. */
export interface UsageNotice {
  orgId: string;
  /** Billing period key, `YYYY-MM`. */
  period: string;
  /** Percent of the quota. */
  threshold: number;
  createdAt: Date;
}
