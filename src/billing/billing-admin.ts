/**
 * Operator administration of plans, quotas, prepaid credits, spending limits, contacts and throughput limits
 * (the back end of `brandbase orgs set-*`, `add-credits` and `usage`).
 */
import { newId } from '../domain/ids.js';
import type { CreditGrant, Organization, OrganizationPatch, Plan } from '../domain/accounts.js';
import type { BillingStore, DailyUsage } from './billing-store.js';
import { AccountError } from './accounts.js';
import { CREDITS_PER_USD, usageReport, type BillingDefaults, type UsageReport } from './billing.js';
import { billingPeriod } from './billing-period.js';

const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]+$/;
const MAX_CONTACTS = 20;

export type { DailyUsage } from './billing-store.js';

export class BillingAdmin {
  constructor(
    private readonly store: BillingStore,
    private readonly defaults: BillingDefaults,
    private readonly now: () => Date = () => new Date(),
  ) {}

  setPlan(orgId: string, plan: Plan): Promise<Organization> {
    if (plan !== 'free' && plan !== 'paid') throw new AccountError('invalid_argument', 'Plan must be free or paid.');
    return this.update(orgId, { plan });
  }

  setQuota(orgId: string, credits: number): Promise<Organization> {
    wholeNumber(credits, 'Quota');
    return this.update(orgId, { quota: credits });
  }

  /** `cents` null: back to the configured default. 0 disables overage. */
  setSpendingLimit(orgId: string, cents: number | null): Promise<Organization> {
    if (cents !== null) wholeNumber(cents, 'Spending limit');
    return this.update(orgId, { spendingLimitCents: cents });
  }

  /** Replaces the billing contacts (an empty list removes them all). */
  setContacts(orgId: string, emails: readonly string[]): Promise<Organization> {
    const contacts: string[] = [];
    for (const raw of emails) {
      const email = raw.trim();
      if (email.length > 254 || !EMAIL.test(email)) throw new AccountError('invalid_argument', `Not an email address: ${email}`);
      if (!contacts.some((c) => c.toLowerCase() === email.toLowerCase())) contacts.push(email);
    }
    if (contacts.length > MAX_CONTACTS) throw new AccountError('invalid_argument', `At most ${MAX_CONTACTS} billing contacts.`);
    return this.update(orgId, { billingContacts: contacts });
  }

  /** `perMinute` null: back to the configured default. */
  setRateLimit(orgId: string, perMinute: number | null): Promise<Organization> {
    if (perMinute !== null && (!Number.isSafeInteger(perMinute) || perMinute < 1)) {
      throw new AccountError('invalid_argument', 'The rate limit must be a whole number of requests per minute >= 1.');
    }
    return this.update(orgId, { rateLimitPerMinute: perMinute });
  }

  /** Appends a prepaid credit grant. `amountCents`: what was paid, when known. */
  async addCredits(orgId: string, credits: number, amountCents: number | null, reason = 'operator'): Promise<{ grant: CreditGrant; org: Organization }> {
    if (!Number.isSafeInteger(credits) || credits < 1) throw new AccountError('invalid_argument', 'Credits must be a whole number >= 1.');
    if (amountCents !== null) wholeNumber(amountCents, 'Amount');
    await this.existing(orgId);
    // Same random ID format as every other record; `crg_` tells grants apart from ledger entries.
    const grant: CreditGrant = { id: newId('use').replace(/^use_/, 'crg_'), orgId, credits, amountCents, reason, createdAt: this.now() };
    await this.store.addCreditGrant(grant);
    return { grant, org: await this.existing(orgId) };
  }

  /** Credits charged per UTC day between `from` and `to` (the dashboard's usage chart). */
  dailyUsage(orgId: string, from: Date, to: Date): Promise<DailyUsage[]> {
    return this.store.usageByDay(orgId, from, to);
  }

  /** Exact usage of the current period, read from the ledger (the CLI process has no unwritten charges). */
  async usage(orgId: string): Promise<UsageReport> {
    const org = await this.existing(orgId);
    const period = billingPeriod(this.now());
    const summary = await this.store.summarizeUsage(org.id, period.start, period.end);
    return usageReport(org, summary, period, this.defaults);
  }

  private async update(orgId: string, patch: OrganizationPatch): Promise<Organization> {
    const org = await this.store.updateOrganization(orgId, patch);
    if (!org) throw notFound(orgId);
    return org;
  }

  private async existing(orgId: string): Promise<Organization> {
    const org = await this.store.getOrganization(orgId);
    if (!org) throw notFound(orgId);
    return org;
  }
}

function notFound(orgId: string): AccountError {
  return new AccountError('org_not_found', `No organization with id ${orgId}.`);
}

function wholeNumber(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new AccountError('invalid_argument', `${what} must be a whole number >= 0.`);
}

/** Credits bought for `cents` US cents at 20 credits per dollar; null when the amount buys no whole number of credits. */
export function creditsForCents(cents: number): number | null {
  const credits = (cents * CREDITS_PER_USD) / 100;
  return Number.isSafeInteger(credits) ? credits : null;
}
