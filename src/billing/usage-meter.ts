import { newId } from '../domain/ids.js';
import type { UsageEntry, UsageStore } from '../store/store.js';
import { billingPeriod, type BillingPeriod } from './billing-period.js';

interface OrgCounter {
  periodKey: string;
  /** Credits persisted in the ledger for this period, as far as this process knows. */
  persisted: number;
  /** Credits charged but still in the write buffer. */
  buffered: number;
  /** Credits promised to requests in flight (reserve → commit or cancel). */
  reserved: number;
}

export interface Reservation {
  orgId: string;
  keyId: string | null;
  credits: number;
  settled: boolean;
}

/**
 * Counts credits in the append-only usage ledger (integers, never updated). Charges are grouped: within one
 * flush window (`flushMs`) the charges of one (organization, key, reason) become one ledger entry carrying their
 * sum, written with the other groups in one transaction. Writing a row per request was the largest cost of the
 * cached lookup path (docs/performance.md). `exactUsed` flushes first, so it is exact; the
 * `x-api-key-approximate-usage` header may use `approximateUsed`, which the spec allows to trail.
 *
 * Quota checks reserve credits before the work and commit or cancel after, so concurrent requests of one
 * organization in this process can never together pass the quota. Other processes' charges are picked up when
 * the counter is reloaded (each new period, and every `reloadMs`).
 */
export class UsageMeter {
  private readonly counters = new Map<string, OrgCounter>();
  private readonly loading = new Map<string, Promise<OrgCounter>>();
  /** Charges not yet written, grouped per (org, key, reason, period): one ledger entry per group and flush. */
  private buffer = new Map<string, UsageEntry>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private readonly loadedAt = new Map<string, number>();
  private cachedPeriod: BillingPeriod | null = null;

  constructor(
    private readonly store: UsageStore,
    private readonly now: () => Date = () => new Date(),
    private readonly options: { flushMs?: number; reloadMs?: number; onFlushError?: (error: unknown) => void } = {},
  ) {}

  /** Reserves credits if the organization has them; returns null when the quota would be exceeded. */
  async reserve(orgId: string, keyId: string | null, credits: number, quota: number): Promise<Reservation | null> {
    const counter = await this.counter(orgId);
    if (counter.persisted + counter.buffered + counter.reserved + credits > quota) return null;
    counter.reserved += credits;
    return { orgId, keyId, credits, settled: false };
  }

  /** Charges `credits` (≤ the reserved amount) and releases the rest of the reservation. */
  commit(reservation: Reservation, reason: string, credits = reservation.credits): void {
    if (reservation.settled) return;
    reservation.settled = true;
    const counter = this.counters.get(reservation.orgId);
    if (counter) counter.reserved -= reservation.credits;
    if (credits > 0) this.charge(reservation.orgId, reservation.keyId, credits, reason);
  }

  cancel(reservation: Reservation): void {
    this.commit(reservation, '', 0);
  }

  /** Appends a charge without a reservation (callers that already checked the quota). */
  charge(orgId: string, keyId: string | null, credits: number, reason: string): void {
    if (!Number.isInteger(credits) || credits <= 0) throw new Error('credits must be a positive integer');
    const at = this.now();
    const periodKey = this.period(at).key;
    const counter = this.counters.get(orgId);
    if (counter && counter.periodKey === periodKey) counter.buffered += credits;
    const group = `${orgId}|${keyId ?? ''}|${reason}|${periodKey}`;
    const pending = this.buffer.get(group);
    if (pending) pending.credits += credits;
    else this.buffer.set(group, { id: newId('use'), orgId, keyId, credits, reason, createdAt: at });
    this.scheduleFlush();
  }

  /** Credits used this period as known in memory (may trail other processes). */
  async approximateUsed(orgId: string): Promise<number> {
    const counter = await this.counter(orgId);
    return counter.persisted + counter.buffered;
  }

  /** Credits used this period, read from the ledger after flushing this process's buffer. */
  async exactUsed(orgId: string): Promise<number> {
    await this.flush();
    const period = billingPeriod(this.now());
    return this.store.sumUsage(orgId, period.start, period.end);
  }

  async flush(): Promise<void> {
    const run = this.flushing.then(() => this.writeBuffer());
    // The chain must survive a failed flush, or every later flush would fail with it.
    this.flushing = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
  }

  private async writeBuffer(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.buffer.size === 0) return;
    const entries = [...this.buffer.values()];
    this.buffer = new Map();
    try {
      await this.store.appendUsage(entries);
    } catch (error) {
      // Keep what was not written: it goes out with the next flush instead of being lost.
      for (const entry of entries) this.requeue(entry);
      this.scheduleFlush();
      throw error;
    }
    for (const entry of entries) {
      const counter = this.counters.get(entry.orgId);
      if (counter && counter.periodKey === this.period(entry.createdAt).key) {
        counter.buffered -= entry.credits;
        counter.persisted += entry.credits;
      }
    }
  }

  private requeue(entry: UsageEntry): void {
    const group = `${entry.orgId}|${entry.keyId ?? ''}|${entry.reason}|${this.period(entry.createdAt).key}`;
    const pending = this.buffer.get(group);
    if (pending) pending.credits += entry.credits;
    else this.buffer.set(group, entry);
  }

  /** The billing period of `at`, cached: computing it on every charge showed in the lookup profile. */
  private period(at: Date): BillingPeriod {
    const cached = this.cachedPeriod;
    if (cached && at >= cached.start && at < cached.end) return cached;
    this.cachedPeriod = billingPeriod(at);
    return this.cachedPeriod;
  }

  private scheduleFlush(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.flush().catch((error: unknown) => this.options.onFlushError?.(error));
    }, this.options.flushMs ?? 50);
    this.timer.unref();
  }

  private async counter(orgId: string): Promise<OrgCounter> {
    const period = this.period(this.now());
    const existing = this.counters.get(orgId);
    const fresh = (this.loadedAt.get(orgId) ?? 0) + (this.options.reloadMs ?? 5000) > this.now().getTime();
    if (existing && existing.periodKey === period.key && fresh) return existing;
    let pending = this.loading.get(orgId);
    if (!pending) {
      pending = this.load(orgId, existing).finally(() => this.loading.delete(orgId));
      this.loading.set(orgId, pending);
    }
    return pending;
  }

  /** Reloads the persisted sum; serialized with flushes so a flush is counted exactly once. */
  private async load(orgId: string, existing: OrgCounter | undefined): Promise<OrgCounter> {
    const run = this.flushing.then(async () => {
      const period = this.period(this.now());
      const persisted = await this.store.sumUsage(orgId, period.start, period.end);
      const samePeriod = existing?.periodKey === period.key;
      const counter: OrgCounter = {
        periodKey: period.key,
        persisted,
        buffered: samePeriod ? existing.buffered : this.bufferedCredits(orgId, period.key),
        reserved: samePeriod ? existing.reserved : 0,
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

  private bufferedCredits(orgId: string, periodKey: string): number {
    let credits = 0;
    for (const entry of this.buffer.values()) if (entry.orgId === orgId && this.period(entry.createdAt).key === periodKey) credits += entry.credits;
    return credits;
  }
}
