/**
 * The billing rules of brand lookups (spec 4.3, 5.1, 5.3, 7.1, 8 and the billing rule of section 7), on top of
 * the usage meter: who may use which route, the per-organization throughput limit, credit reservations drawn
 * from the period quota, then the prepaid balance, then overage (paid plan, within the monthly spending limit),
 * and the usage warning emails at 80 and 100 percent of the quota. docs/billing.md describes the rules.
 */
import { ApiError } from '../domain/errors.js';
import type { Logger } from '../platform/logger.js';
import { NO_METRICS, type BoundCounter, type CounterMetric, type MetricsRegistry } from '../platform/metrics.js';
import type { Organization, UsageSummary } from '../domain/accounts.js';
import type { BillingStore } from './billing-store.js';
import type { Principal } from './authenticator.js';
import { billingPeriod, type BillingPeriod } from './billing-period.js';
import type { Mailer } from './mailer.js';
import { RateLimiter } from './rate-limiter.js';
import type { Reservation, SourceLimits, UsageMeter } from './usage-meter.js';

export type RouteClass = 'lookup' | 'prefetch' | 'batch';

/** Credits held for one request: settle what the answer costs (the rest is released) or release them all. */
export interface Hold {
  readonly reserved: number;
  /** Charges `charged` credits (0 ≤ charged ≤ reserved) under `reason` (e.g. `brand.lookup`); once. */
  settle(charged: number, reason: string): void;
  /** Charges nothing (malformed requests, rejected keys, service failures, free answers). */
  release(): void;
}

export interface BillingDefaults {
  /** Monthly overage cap for organizations without their own, in US cents (0 disables overage). */
  spendingLimitCents: number;
  /** Request throughput limit for organizations without their own (0: no limit). */
  rateLimitPerMinute: number;
  /** Free HEAD prefetches per organization per minute, on top of the throughput limit (0 or unset: no limit). */
  prefetchPerMinute?: number;
}

/** Price of one overage credit (spec 8: 0.1 US dollars per request beyond the quota). */
export const OVERAGE_PRICE_CENTS = 10;
/** Prepaid credits bought per US dollar (spec 5.3). */
export const CREDITS_PER_USD = 20;
/** Usage warnings, in percent of the period quota. */
export const WARNING_THRESHOLDS = [80, 100] as const;

/** The spending limit that applies to the organization, in cents. */
export function effectiveSpendingLimitCents(org: Organization, defaults: BillingDefaults): number {
  return org.spendingLimitCents ?? defaults.spendingLimitCents;
}

/** Overage credits the organization may use per period: none on the free plan; limit ÷ price, rounded down. */
export function overageCreditsAllowed(org: Organization, defaults: BillingDefaults): number {
  if (org.plan !== 'paid') return 0;
  return Math.floor(Math.max(0, effectiveSpendingLimitCents(org, defaults)) / OVERAGE_PRICE_CENTS);
}

/** The numbers `brandbase orgs usage` prints. Money in integer cents. */
export interface UsageReport {
  orgId: string;
  plan: Organization['plan'];
  period: { key: string; start: string; end: string };
  /** Credits charged this period, all sources. */
  used: number;
  quota: number;
  quotaUsed: number;
  prepaidUsed: number;
  /** Prepaid credits left (they carry over to later periods). */
  prepaidBalance: number;
  overageCredits: number;
  overageCents: number;
  /** The limit in force (the organization's own or the default); 0 or the free plan means no overage. */
  spendingLimitCents: number;
  overageAllowed: boolean;
}

export function usageReport(org: Organization, summary: UsageSummary, period: BillingPeriod, defaults: BillingDefaults): UsageReport {
  return {
    orgId: org.id,
    plan: org.plan,
    period: { key: period.key, start: period.start.toISOString(), end: period.end.toISOString() },
    used: summary.quota + summary.prepaid + summary.overage,
    quota: org.quota,
    quotaUsed: summary.quota,
    prepaidUsed: summary.prepaid,
    prepaidBalance: summary.prepaidBalance,
    overageCredits: summary.overage,
    overageCents: summary.overage * OVERAGE_PRICE_CENTS,
    spendingLimitCents: effectiveSpendingLimitCents(org, defaults),
    overageAllowed: overageCreditsAllowed(org, defaults) > 0,
  };
}

function sourceLimits(org: Organization, defaults: BillingDefaults): SourceLimits {
  return { quota: org.quota, overage: overageCreditsAllowed(org, defaults) };
}

function dollars(cents: number): string {
  return `$${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

class MeterHold implements Hold {
  readonly reserved: number;

  constructor(
    private readonly meter: UsageMeter,
    private readonly reservation: Reservation | null,
    /** After a charge of at least one credit: `reason` is the settlement's (e.g. `brand.lookup`). */
    private readonly onCharge: (credits: number, reason: string) => void,
  ) {
    this.reserved = reservation?.credits ?? 0;
  }

  settle(charged: number, reason: string): void {
    if (!this.reservation) {
      if (charged !== 0) throw new RangeError(`cannot charge ${charged} credits of an empty hold`);
      return;
    }
    if (this.reservation.settled) return;
    this.meter.commit(this.reservation, reason, charged);
    if (charged > 0) this.onCharge(charged, reason);
  }

  release(): void {
    if (this.reservation) this.meter.cancel(this.reservation);
  }
}

/** Where a usage warning stands in this process (the usage_notices row decides across processes). */
type NoticeState = { state: 'done' } | { state: 'no-contacts' } | { state: 'retry-after'; at: number };

export class Billing {
  private readonly store: BillingStore;
  private readonly meter: UsageMeter;
  private readonly mailer: Mailer;
  private readonly logger: Logger;
  private readonly now: () => Date;
  private readonly defaults: BillingDefaults;
  private readonly limiter: RateLimiter;
  private readonly prefetchLimiter: RateLimiter;
  /** Key `orgId|period|threshold`. */
  private readonly notices = new Map<string, NoticeState>();
  private readonly pending = new Set<Promise<void>>();

  /** Credits charged by reason (ADR 0039): counted where the charge is settled, so every transport is counted once. */
  private readonly creditsCharged: CounterMetric<'reason'>;
  private readonly chargedBy = new Map<string, BoundCounter>();

  constructor(deps: { store: BillingStore; meter: UsageMeter; mailer: Mailer; logger: Logger; now?: () => Date; defaults: BillingDefaults; metrics?: MetricsRegistry }) {
    this.creditsCharged = (deps.metrics ?? NO_METRICS).counter('brandbase_credits_charged_total', 'Credits charged to organizations, by settlement reason.', ['reason']);
    this.store = deps.store;
    this.meter = deps.meter;
    this.mailer = deps.mailer;
    this.logger = deps.logger;
    this.now = deps.now ?? (() => new Date());
    this.defaults = deps.defaults;
    this.limiter = new RateLimiter(() => this.now().getTime());
    this.prefetchLimiter = new RateLimiter(() => this.now().getTime());
  }

  /**
   * 403 for organizations that may not use the route class. HEAD prefetch and batch need a paid plan or prepaid
   * credits (`paid_plan_required`); an organization with no credits at all (quota 0, no prepaid credits, no
   * overage) gets `paid_plan_required` on the free plan and `no_credits` otherwise.
   */
  async assertCanUse(org: Organization, route: RouteClass): Promise<void> {
    if (org.quota > 0 && (route === 'lookup' || org.plan === 'paid')) return;
    const snapshot = await this.meter.snapshot(org.id);
    const prepaid = snapshot.prepaidBalance > 0;
    if (org.quota <= 0 && !prepaid && overageCreditsAllowed(org, this.defaults) === 0) {
      throw new ApiError(org.plan === 'free' ? 'paid_plan_required' : 'no_credits');
    }
    if (route !== 'lookup' && org.plan !== 'paid' && !prepaid) throw new ApiError('paid_plan_required');
  }

  /**
   * Per-organization request throughput limit (token bucket, per process): 429 `rate_limited`. Prefetches are
   * free, so they are throttled on their own too (spec 4.2: "Prefetch requests may be throttled"): a flood of
   * free HEADs cannot fill the crawl queue faster than `prefetchPerMinute`.
   */
  admit(org: Organization, route: RouteClass = 'lookup'): void {
    if (!this.limiter.take(org.id, org.rateLimitPerMinute ?? this.defaults.rateLimitPerMinute)) throw new ApiError('rate_limited');
    if (route === 'prefetch' && !this.prefetchLimiter.take(org.id, this.defaults.prefetchPerMinute ?? 0)) throw new ApiError('rate_limited');
  }

  /**
   * Reserves up to `credits`: quota first, then prepaid, then overage. `single`: 429 `quota_exceeded` when not
   * even one credit is available. `batch`: all `credits` or a 429 carrying {quota, used, remaining, required}, `used`
   * exact (the ledger after a flush, like `usage`); nothing is charged either way.
   */
  async reserve(principal: Principal, credits: number, kind: 'single' | 'batch'): Promise<Hold> {
    const { org } = principal;
    if (!Number.isInteger(credits) || credits < 0) throw new RangeError('credits must be a whole number');
    if (credits === 0) return new MeterHold(this.meter, null, () => undefined);
    const limits = sourceLimits(org, this.defaults);
    const reservation = await this.meter.reserveFromSources(org.id, principal.key.id, credits, limits, kind === 'batch');
    if (!reservation) {
      if (kind === 'single') throw new ApiError('quota_exceeded');
      // One read of the ledger after a flush: `used` is exact and agrees with `remaining` (issue 33).
      const { used, available } = await this.meter.refusal(org.id, limits);
      const remaining = available.quota + available.prepaid + available.overage;
      throw new ApiError('quota_exceeded', 'API key quota exceeded', { quota: org.quota, used, remaining, required: credits });
    }
    return new MeterHold(this.meter, reservation, (charged, reason) => this.charged(org, charged, reason));
  }

  /**
   * Reserves credits for work an organization pays for without an API key in hand (webhook deliveries, ADR 0031):
   * quota, then prepaid, then overage, like a lookup; null when `credits` are not all available. Charges made
   * through the hold count toward the usage warnings like any other.
   */
  async reserveForOrganization(org: Organization, credits: number): Promise<Hold | null> {
    if (!Number.isInteger(credits) || credits <= 0) throw new RangeError('credits must be a positive whole number');
    const reservation = await this.meter.reserveFromSources(org.id, null, credits, sourceLimits(org, this.defaults), true);
    return reservation === null ? null : new MeterHold(this.meter, reservation, (charged, reason) => this.charged(org, charged, reason));
  }

  /**
   * Whether a lookup of the organization would be charged now rather than refused (403 `no_credits`, 429
   * `quota_exceeded`): at least one credit is available from its quota, prepaid credits or overage. Reserves nothing.
   * A webhook test event carries a held brand only then (docs/webhooks.md, "Test events").
   */
  async canLookUp(org: Organization): Promise<boolean> {
    const available = await this.meter.available(org.id, sourceLimits(org, this.defaults));
    return available.quota + available.prepaid + available.overage > 0;
  }

  /** Exact usage for the viewer: credits charged this billing period (all sources) and the quota. */
  async usage(org: Organization): Promise<{ used: number; quota: number }> {
    return { used: await this.meter.exactUsed(org.id), quota: org.quota };
  }

  /** For the `x-api-key-approximate-usage` header: this process's count, which may trail other processes. */
  approximateUsed(org: Organization): Promise<number> {
    return this.meter.approximateUsed(org.id);
  }

  /** Exact per-source usage of this period, the prepaid balance and overage in cents (`brandbase orgs usage`). */
  async report(org: Organization): Promise<UsageReport> {
    const summary = await this.meter.exactSummary(org.id);
    return usageReport(org, summary, summary.period, this.defaults);
  }

  /** Flushes the usage buffer and waits for usage warnings being sent. */
  async close(): Promise<void> {
    await this.meter.flush();
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  // ---- usage warnings ----

  /** A settled charge: counted for /metrics (one bound counter per reason, no label lookup per request), then the usage warnings. */
  private charged(org: Organization, credits: number, reason: string): void {
    let counter = this.chargedBy.get(reason);
    if (!counter) this.chargedBy.set(reason, (counter = this.creditsCharged.bind({ reason })));
    counter.inc(credits);
    this.afterCharge(org);
  }

  private afterCharge(org: Organization): void {
    if (org.quota <= 0) return;
    // The hot path: below the first threshold, or every warning of this period already handled, costs no promise.
    const peek = this.meter.peekQuotaUsed(org.id);
    if (peek) {
      const crossed = (t: number) => peek.quotaUsed * 100 >= org.quota * t;
      const handled = (t: number) => {
        const state = this.notices.get(`${org.id}|${peek.periodKey}|${t}`)?.state;
        return state === 'done' || (state === 'no-contacts' && org.billingContacts.length === 0);
      };
      if (WARNING_THRESHOLDS.every((t) => !crossed(t) || handled(t))) return;
    }
    const task = this.checkThresholds(org).catch((error: unknown) => {
      this.logger.error({ err: error, orgId: org.id }, 'usage warning check failed');
    });
    this.pending.add(task);
    void task.finally(() => this.pending.delete(task));
  }

  private async checkThresholds(org: Organization): Promise<void> {
    const snapshot = await this.meter.snapshot(org.id);
    const quotaUsed = snapshot.used.quota;
    for (const threshold of WARNING_THRESHOLDS) {
      // Integers only: used / quota >= threshold / 100.
      if (quotaUsed * 100 < org.quota * threshold) continue;
      const key = `${org.id}|${snapshot.periodKey}|${threshold}`;
      const state = this.notices.get(key);
      if (state?.state === 'done') continue;
      if (state?.state === 'no-contacts' && org.billingContacts.length === 0) continue;
      if (state?.state === 'retry-after' && state.at > this.now().getTime()) continue;
      this.notices.set(key, { state: 'done' });
      await this.sendWarning(org, snapshot.periodKey, threshold, quotaUsed, snapshot.prepaidBalance, key);
    }
  }

  private async sendWarning(org: Organization, periodKey: string, threshold: number, quotaUsed: number, prepaidBalance: number, key: string): Promise<void> {
    const log = { orgId: org.id, period: periodKey, threshold };
    if (!this.mailer.sends) {
      this.logger.warn(log, 'usage warning not sent: no mail server configured (BRANDBASE_SMTP_URL is empty)');
      return;
    }
    if (org.billingContacts.length === 0) {
      this.notices.set(key, { state: 'no-contacts' });
      this.logger.warn(log, 'usage warning not sent: the organization has no billing contacts');
      return;
    }
    const claimed = await this.store.claimUsageNotice({ orgId: org.id, period: periodKey, threshold, createdAt: this.now() });
    if (!claimed) return;
    const message = this.warningMessage(org, periodKey, threshold, quotaUsed, prepaidBalance);
    try {
      await this.mailer.send({ to: org.billingContacts, ...message });
      this.logger.info({ ...log, recipients: org.billingContacts.length }, 'usage warning sent');
    } catch (error) {
      // Give the claim back so a later request tries again (after a pause, not on every request).
      await this.store.releaseUsageNotice(org.id, periodKey, threshold).catch(() => undefined);
      this.notices.set(key, { state: 'retry-after', at: this.now().getTime() + 60_000 });
      this.logger.error({ ...log, err: error }, 'usage warning could not be sent; will retry');
    }
  }

  private warningMessage(org: Organization, periodKey: string, threshold: number, quotaUsed: number, prepaidBalance: number): { subject: string; text: string } {
    const period = billingPeriod(this.now());
    const ends = period.key === periodKey ? period.end.toISOString().slice(0, 10) : 'the end of the period';
    const subject =
      threshold >= 100
        ? `Brandbase: ${org.name} has used its whole credit quota for ${periodKey}`
        : `Brandbase: ${org.name} has used ${threshold}% of its credit quota for ${periodKey}`;
    const lines = [
      `Organization: ${org.name} (${org.id})`,
      `Billing period: ${periodKey} (a new period starts on ${ends}, UTC)`,
      `Credits used from the quota: ${quotaUsed} of ${org.quota} (${threshold}% warning)`,
      `Prepaid credits left: ${Math.max(0, prepaidBalance)}`,
    ];
    const overage = overageCreditsAllowed(org, this.defaults);
    if (threshold >= 100) {
      lines.push(
        '',
        overage > 0
          ? `Once the prepaid credits are used, each further request is billed as overage at ${dollars(OVERAGE_PRICE_CENTS)} up to the monthly spending limit of ${dollars(effectiveSpendingLimitCents(org, this.defaults))}.`
          : 'Once the prepaid credits are used, requests answer 429 "API key quota exceeded" until the period ends.',
      );
    }
    lines.push('', 'This warning is sent at most once per billing period.');
    return { subject, text: lines.join('\n') };
  }
}
