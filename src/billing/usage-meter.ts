import { newId } from '../domain/ids.js';
import type { UsageEntry, UsageSource, UsageSummary } from '../domain/accounts.js';
import type { CreditLeaseStore, UsageStore } from './billing-store.js';
import { billingPeriod, type BillingPeriod } from './billing-period.js';
import { CreditLeases, DEFAULT_CREDIT_LEASE_SETTINGS, type CreditLeaseSettings, type HeldLease } from './credit-leases.js';

/** Credits per source. */
export interface SourceCounts {
  quota: number;
  prepaid: number;
  overage: number;
}

/** The charging order: period quota first, then the prepaid balance, then overage. */
export const SOURCES: readonly UsageSource[] = ['quota', 'prepaid', 'overage'];

function zero(): SourceCounts {
  return { quota: 0, prepaid: 0, overage: 0 };
}

function total(counts: SourceCounts): number {
  return counts.quota + counts.prepaid + counts.overage;
}

interface OrgCounter {
  periodKey: string;
  /** Credits persisted in the ledger for this period, per source, as far as this process knows. */
  persisted: SourceCounts;
  /** Credits of this period charged but still in the write buffer. */
  buffered: SourceCounts;
  /** Credits promised to requests in flight (reserve → commit or cancel). */
  reserved: SourceCounts;
  /** Prepaid balance as persisted: grants minus every prepaid charge in the ledger (all periods). */
  prepaidBalance: number;
  /** Prepaid credits charged but still in the write buffer, whatever their period. */
  prepaidPending: number;
}

export interface Reservation {
  orgId: string;
  keyId: string | null;
  /** Total credits held (the sum of `parts`). */
  credits: number;
  /** Credits held per source. */
  parts: SourceCounts;
  /** The billing period the reservation was made in. */
  periodKey: string;
  settled: boolean;
  /** The leases the credits were taken from, per source (ADR 0040). */
  leases?: Partial<Record<UsageSource, HeldLease>>;
}

export interface UsageMeterOptions {
  flushMs?: number;
  reloadMs?: number;
  onFlushError?: (error: unknown) => void;
  /** Credit leases (ADR 0040): timeout, block size and the rest; defaults in DEFAULT_CREDIT_LEASE_SETTINGS. */
  leases?: Partial<CreditLeaseSettings>;
  /** A lease could not be renewed or given back (it then expires on its own). */
  onLeaseError?: (error: unknown) => void;
}

/** What an organization may use per source beyond what it already used (the prepaid balance is the meter's). */
export interface SourceLimits {
  /** Credits per billing period. */
  quota: number;
  /** Overage credits allowed this period (0 on the free plan or with overage disabled). */
  overage: number;
}

/** What the meter knows about an organization's current period. */
export interface UsageSnapshot {
  periodKey: string;
  /** Charged this period (persisted + buffered), per source. */
  used: SourceCounts;
  /** Held by requests in flight, per source. */
  reserved: SourceCounts;
  /** Prepaid credits left, not counting reservations in flight. */
  prepaidBalance: number;
}

/**
 * Counts credits in the append-only usage ledger (integers, never updated). Charges are grouped: within one
 * flush window (`flushMs`) the charges of one (organization, key, reason, source) become one ledger entry carrying
 * their sum, written with the other groups in one transaction. Writing a row per request was the largest cost of
 * the cached lookup path (docs/performance.md). `exactUsed` flushes first, so it is exact; the
 * `x-api-key-approximate-usage` header may use `approximateUsed`, which the spec allows to trail.
 *
 * Every entry has a source: the period quota, the prepaid balance (which spans periods) or overage. Quota checks
 * reserve credits per source before the work and settle or cancel after. Credits are reserved from blocks this
 * process leased from the store (credit-leases.ts, ADR 0040): a grant checks the ledger and every process's leases
 * against the limit, and the flush moves charged credits from the lease to the ledger in one transaction, so however
 * many processes serve an organization, together they never pass what a source allows, and a request served from a
 * block costs no query. The counters (usage figures, warnings) still reload from the ledger every `reloadMs`.
 */
export class UsageMeter {
  private readonly counters = new Map<string, OrgCounter>();
  private readonly loading = new Map<string, Promise<OrgCounter>>();
  /** Charges not yet written, grouped per (org, key, reason, source, period): one ledger entry per group and flush. */
  private buffer = new Map<string, UsageEntry>();
  /** Credits charged from each lease since the last flush: the flush debits the lease by as many. */
  private debits = new Map<HeldLease, number>();
  private readonly leases: CreditLeases;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private readonly loadedAt = new Map<string, number>();
  private cachedPeriod: BillingPeriod | null = null;
  private cachedFrom = 0;
  private cachedTo = 0;

  constructor(
    private readonly store: UsageStore & CreditLeaseStore,
    private readonly now: () => Date = () => new Date(),
    private readonly options: UsageMeterOptions = {},
  ) {
    const settings = { ...DEFAULT_CREDIT_LEASE_SETTINGS, ...options.leases };
    this.leases = new CreditLeases(store, now, settings, (error) => (options.onLeaseError ?? options.onFlushError)?.(error));
  }

  /** Reserves credits of the period quota if the organization has them; returns null when the quota would be exceeded. */
  reserve(orgId: string, keyId: string | null, credits: number, quota: number): Promise<Reservation | null> {
    if (!Number.isInteger(credits) || credits <= 0) return Promise.reject(new RangeError('credits must be a positive integer'));
    return this.reserveLeased(orgId, keyId, credits, { quota, overage: 0 }, true, ['quota']);
  }

  /**
   * Reserves credits from the sources in charging order (quota, prepaid, overage). `all`: exactly `credits` or
   * nothing (null); otherwise as many as available up to `credits`, null when not even one is.
   */
  reserveFromSources(orgId: string, keyId: string | null, credits: number, limits: SourceLimits, all: boolean): Promise<Reservation | null> {
    if (!Number.isInteger(credits) || credits <= 0) return Promise.reject(new RangeError('credits must be a positive integer'));
    return this.reserveLeased(orgId, keyId, credits, limits, all, SOURCES);
  }

  /**
   * Takes credits from this process's leases in charging order. A source whose lease lacks credits is topped up
   * first (an await), unless the store recently had none left for it; then the whole choice is made again, so the
   * check and the hold are one synchronous step.
   */
  private async reserveLeased(
    orgId: string,
    keyId: string | null,
    credits: number,
    limits: SourceLimits,
    all: boolean,
    sources: readonly UsageSource[],
  ): Promise<Reservation | null> {
    // The hot path: a fresh counter needs no await (the counter only feeds usage figures; leases decide).
    if (!this.freshCounter(orgId)) await this.counter(orgId);
    /** Leases whose grant for this reservation came back short: their source has nothing more to give it. */
    let drained: Set<HeldLease> | null = null;
    for (;;) {
      const at = this.now();
      const nowMs = at.getTime();
      const period = this.period(at);
      const counter = this.counters.get(orgId);
      const parts = zero();
      const leases: Partial<Record<UsageSource, HeldLease>> = {};
      let wanted = credits;
      let missing: { lease: HeldLease; credits: number; limit: number } | null = null;
      for (const source of sources) {
        const limit = source === 'quota' ? limits.quota : source === 'overage' ? limits.overage : Number.POSITIVE_INFINITY;
        // A source the organization may not use (overage on the free plan, a quota of 0) needs no lease at all.
        if (limit <= 0) continue;
        const lease = this.leases.current(orgId, source, source === 'prepaid' ? '' : period.key, nowMs);
        const take = Math.min(wanted, this.leases.free(lease, nowMs));
        if (take > 0) {
          parts[source] = take;
          leases[source] = lease;
          wanted -= take;
        }
        if (wanted === 0) break;
        // No query for a prepaid balance this process sees empty (a grant made elsewhere shows at the next reload).
        const none = source === 'prepaid' && counter !== undefined && counter.prepaidBalance - counter.prepaidPending <= 0;
        if (!none && !drained?.has(lease) && !this.leases.exhausted(lease, nowMs)) {
          missing = { lease, credits: wanted, limit };
          break;
        }
      }
      if (missing) {
        // A full grant may still be taken by other requests before this one looks again: it then asks again.
        if (!(await this.leases.acquire(missing.lease, missing.credits, missing.limit, period))) (drained ??= new Set()).add(missing.lease);
        continue;
      }
      const got = total(parts);
      if (all ? got < credits : got < 1) return null;
      for (const source of SOURCES) {
        const lease = leases[source];
        if (lease) {
          lease.reserved += parts[source];
          lease.usedSinceRenewal = true;
        }
        if (counter) counter.reserved[source] += parts[source];
      }
      return { orgId, keyId, credits: got, parts, periodKey: counter?.periodKey ?? period.key, settled: false, leases };
    }
  }

  /**
   * Credits each source could still give a new reservation, across processes: the limit minus the ledger minus
   * every live lease, plus what this process's leases hold free. Flushes first; reads the store (refusal path only).
   */
  async available(orgId: string, limits: SourceLimits): Promise<SourceCounts> {
    return (await this.refusal(orgId, limits)).available;
  }

  /**
   * What a refused reservation reports (the batch 429): `available` as above and `used`, the credits charged this
   * period in all sources, from the same read of the ledger after flushing this process's buffer. So `used` is exact
   * (issue 33), not this process's counter, which trails other processes and the leases' charges by `reloadMs`; only
   * other processes' charges of their current flush window (`flushMs`) are not in the ledger yet.
   */
  async refusal(orgId: string, limits: SourceLimits): Promise<{ used: number; available: SourceCounts }> {
    await this.flush();
    const at = this.now();
    const period = this.period(at);
    const [summary, leased] = await Promise.all([this.store.summarizeUsage(orgId, period.start, period.end), this.store.leasedCredits(orgId, period.key, at)]);
    const mine = (source: UsageSource) => this.leases.usableFree(orgId, source, source === 'prepaid' ? '' : period.key, at.getTime());
    return {
      used: summary.quota + summary.prepaid + summary.overage,
      available: {
        quota: Math.max(0, limits.quota - summary.quota - leased.quota) + mine('quota'),
        prepaid: Math.max(0, summary.prepaidBalance - leased.prepaid) + mine('prepaid'),
        overage: Math.max(0, limits.overage - summary.overage - leased.overage) + mine('overage'),
      },
    };
  }

  /**
   * Charges `credits` (≤ the reserved amount) and releases the rest of the reservation. The charge takes the
   * reserved sources in charging order: quota first, then prepaid, then overage.
   */
  commit(reservation: Reservation, reason: string, credits = reservation.credits): void {
    if (reservation.settled) return;
    if (!Number.isInteger(credits) || credits < 0 || credits > reservation.credits) {
      throw new RangeError(`cannot charge ${credits} credits of a reservation of ${reservation.credits}`);
    }
    reservation.settled = true;
    const counter = this.counters.get(reservation.orgId);
    if (counter) {
      // Quota and overage reservations belong to their period (a new period's counter starts without them);
      // the prepaid balance spans periods, so its reservations are carried over.
      const samePeriod = counter.periodKey === reservation.periodKey;
      for (const source of SOURCES) if (source === 'prepaid' || samePeriod) counter.reserved[source] -= reservation.parts[source];
    }
    let left = credits;
    for (const source of SOURCES) {
      const lease = reservation.leases?.[source];
      if (lease) lease.reserved -= reservation.parts[source];
      const take = Math.min(left, reservation.parts[source]);
      if (take > 0) this.chargeFrom(reservation.orgId, reservation.keyId, take, reason, source, lease);
      left -= take;
    }
  }

  cancel(reservation: Reservation): void {
    this.commit(reservation, '', 0);
  }

  /** Appends a charge without a reservation (callers that already checked the quota). */
  charge(orgId: string, keyId: string | null, credits: number, reason: string, source: UsageSource = 'quota'): void {
    this.chargeFrom(orgId, keyId, credits, reason, source, undefined);
  }

  /** Makes the next read of the organization reload from the ledger and ask the store for credits again. */
  forget(orgId: string): void {
    this.loadedAt.delete(orgId);
    this.leases.forget(orgId);
  }

  private chargeFrom(orgId: string, keyId: string | null, credits: number, reason: string, source: UsageSource, lease: HeldLease | undefined): void {
    if (!Number.isInteger(credits) || credits <= 0) throw new Error('credits must be a positive integer');
    if (lease) {
      lease.charged += credits;
      this.debits.set(lease, (this.debits.get(lease) ?? 0) + credits);
    }
    const at = this.now();
    const periodKey = this.period(at).key;
    const counter = this.counters.get(orgId);
    if (counter && counter.periodKey === periodKey) counter.buffered[source] += credits;
    if (counter && source === 'prepaid') counter.prepaidPending += credits;
    const group = `${orgId}|${keyId ?? ''}|${reason}|${source}|${periodKey}`;
    const pending = this.buffer.get(group);
    if (pending) pending.credits += credits;
    else this.buffer.set(group, { id: newId('use'), orgId, keyId, credits, reason, source, createdAt: at });
    this.scheduleFlush();
  }

  /** Credits used this period (all sources) as known in memory (may trail other processes). */
  async approximateUsed(orgId: string): Promise<number> {
    const counter = await this.counter(orgId);
    return total(counter.persisted) + total(counter.buffered);
  }

  /** This process's view of the organization's period: may trail other processes by `reloadMs`. */
  async snapshot(orgId: string): Promise<UsageSnapshot> {
    const c = await this.counter(orgId);
    const used = zero();
    for (const source of SOURCES) used[source] = c.persisted[source] + c.buffered[source];
    return { periodKey: c.periodKey, used, reserved: { ...c.reserved }, prepaidBalance: c.prepaidBalance - c.prepaidPending };
  }

  /** Synchronous peek at a loaded counter (null when none is loaded): credits charged from the quota this period. */
  peekQuotaUsed(orgId: string): { periodKey: string; quotaUsed: number } | null {
    const c = this.counters.get(orgId);
    return c ? { periodKey: c.periodKey, quotaUsed: c.persisted.quota + c.buffered.quota } : null;
  }

  /** Credits used this period (all sources), read from the ledger after flushing this process's buffer. */
  async exactUsed(orgId: string): Promise<number> {
    await this.flush();
    const period = billingPeriod(this.now());
    return this.store.sumUsage(orgId, period.start, period.end);
  }

  /** Per-source usage of this period and the prepaid balance, read from the ledger after flushing. */
  async exactSummary(orgId: string): Promise<UsageSummary & { period: BillingPeriod }> {
    await this.flush();
    const period = billingPeriod(this.now());
    return { ...(await this.store.summarizeUsage(orgId, period.start, period.end)), period };
  }

  async flush(): Promise<void> {
    const run = this.flushing.then(() => this.writeBuffer());
    // The chain must survive a failed flush, or every later flush would fail with it.
    this.flushing = run.catch(() => undefined);
    return run;
  }

  /** Flushes, then gives back the credits this process's leases hold unused (the meter can still be used after). */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
    await this.leases.close();
  }

  private async writeBuffer(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.buffer.size === 0) return;
    const entries = [...this.buffer.values()];
    const debits = this.debits;
    this.buffer = new Map();
    this.debits = new Map();
    try {
      await this.store.appendUsage(
        entries,
        [...debits].map(([lease, credits]) => ({ leaseId: lease.id, credits })),
      );
    } catch (error) {
      // Keep what was not written: it goes out with the next flush instead of being lost.
      for (const entry of entries) this.requeue(entry);
      for (const [lease, credits] of debits) this.debits.set(lease, (this.debits.get(lease) ?? 0) + credits);
      this.scheduleFlush();
      throw error;
    }
    for (const [lease, credits] of debits) {
      lease.held -= credits;
      lease.charged -= credits;
    }
    for (const entry of entries) {
      const counter = this.counters.get(entry.orgId);
      if (!counter) continue;
      const source = entry.source ?? 'quota';
      if (counter.periodKey === this.period(entry.createdAt).key) {
        counter.buffered[source] -= entry.credits;
        counter.persisted[source] += entry.credits;
      }
      if (source === 'prepaid') {
        counter.prepaidPending -= entry.credits;
        counter.prepaidBalance -= entry.credits;
      }
    }
  }

  private requeue(entry: UsageEntry): void {
    const group = `${entry.orgId}|${entry.keyId ?? ''}|${entry.reason}|${entry.source ?? 'quota'}|${this.period(entry.createdAt).key}`;
    const pending = this.buffer.get(group);
    if (pending) pending.credits += entry.credits;
    else this.buffer.set(group, entry);
  }

  /** The billing period of `at`, cached: computing it on every charge showed in the lookup profile. */
  private period(at: Date): BillingPeriod {
    // Compared as numbers: relational operators on Dates convert both through valueOf on every call.
    const ms = at.getTime();
    const cached = this.cachedPeriod;
    if (cached && ms >= this.cachedFrom && ms < this.cachedTo) return cached;
    const period = billingPeriod(at);
    this.cachedPeriod = period;
    this.cachedFrom = period.start.getTime();
    this.cachedTo = period.end.getTime();
    return period;
  }

  private scheduleFlush(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.flush().catch((error: unknown) => this.options.onFlushError?.(error));
    }, this.options.flushMs ?? 50);
    this.timer.unref();
  }

  /** The loaded counter when it is of the current period and younger than `reloadMs`. */
  private freshCounter(orgId: string): OrgCounter | undefined {
    const at = this.now();
    const existing = this.counters.get(orgId);
    const fresh = (this.loadedAt.get(orgId) ?? 0) + (this.options.reloadMs ?? 5000) > at.getTime();
    return existing && fresh && existing.periodKey === this.period(at).key ? existing : undefined;
  }

  private async counter(orgId: string): Promise<OrgCounter> {
    const existing = this.freshCounter(orgId);
    if (existing) return existing;
    let pending = this.loading.get(orgId);
    if (!pending) {
      pending = this.load(orgId).finally(() => this.loading.delete(orgId));
      this.loading.set(orgId, pending);
    }
    return pending;
  }

  /** Reloads the persisted sums; serialized with flushes so a flush is counted exactly once. */
  private async load(orgId: string): Promise<OrgCounter> {
    const run = this.flushing.then(async () => {
      const period = this.period(this.now());
      const summary = await this.store.summarizeUsage(orgId, period.start, period.end);
      // Read after the await: charges and settlements made meanwhile went to the previous counter and the buffer.
      const existing = this.counters.get(orgId);
      const samePeriod = existing?.periodKey === period.key;
      const counter: OrgCounter = {
        periodKey: period.key,
        persisted: { quota: summary.quota, prepaid: summary.prepaid, overage: summary.overage },
        buffered: this.bufferedCredits(orgId, period.key),
        reserved: samePeriod ? existing.reserved : { ...zero(), prepaid: existing?.reserved.prepaid ?? 0 },
        prepaidBalance: summary.prepaidBalance,
        prepaidPending: this.pendingPrepaid(orgId),
      };
      this.counters.set(orgId, counter);
      this.loadedAt.set(orgId, this.now().getTime());
      return counter;
    });
    this.flushing = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private bufferedCredits(orgId: string, periodKey: string): SourceCounts {
    const credits = zero();
    for (const entry of this.buffer.values()) {
      if (entry.orgId === orgId && this.period(entry.createdAt).key === periodKey) credits[entry.source ?? 'quota'] += entry.credits;
    }
    return credits;
  }

  private pendingPrepaid(orgId: string): number {
    let credits = 0;
    for (const entry of this.buffer.values()) if (entry.orgId === orgId && entry.source === 'prepaid') credits += entry.credits;
    return credits;
  }
}
