/**
 * This process's credit leases (ADR 0040): blocks of an organization's credits, per source and period, granted by
 * the store against the ledger and every other process's leases. Reservations are served from them in memory; a
 * lease is topped up when its free credits run out (one grant serves every request waiting in that tick), renewed
 * while used, and given back when idle or on close. A process that dies stops renewing: its credits come back
 * when the lease expires.
 */
import { randomBytes } from 'node:crypto';
import type { UsageSource } from '../domain/accounts.js';
import type { CreditLeaseStore } from './credit-lease-store.js';
import type { BillingPeriod } from './billing-period.js';

export interface CreditLeaseSettings {
  /** A lease not renewed for this long expires and its credits return to the organization. */
  leaseMs: number;
  /** Credits a grant gives at least while plenty are left. */
  block: number;
  /** Below this many blocks left, grants are only what waiting requests need. */
  endZoneBlocks: number;
  /** After a source had nothing left to grant, it is asked again only after this long (refusals cost no query). */
  exhaustedRetryMs: number;
  /** A lease whose block lasted under a second asks for twice as much next time, up to this many blocks. */
  maxBurstBlocks: number;
}

export const DEFAULT_CREDIT_LEASE_SETTINGS: CreditLeaseSettings = { leaseMs: 30_000, block: 50, endZoneBlocks: 10, exhaustedRetryMs: 1000, maxBurstBlocks: 64 };

/** A block used up faster than this makes the next grant of the lease twice as large. */
const BURST_WINDOW_MS = 1000;

/** One lease as this process knows it. Its row holds `held` credits: free, reserved or charged awaiting the flush. */
export class HeldLease {
  readonly id = `lse_${randomBytes(12).toString('hex')}`;
  held = 0;
  /** Held by reservations in flight. */
  reserved = 0;
  /** Charged, not yet written to the ledger (the flush debits the lease by as many). */
  charged = 0;
  /** Epoch ms; 0 before the first grant. */
  expiresAt = 0;
  /** A reservation took credits since the last renewal (an idle lease is given back). */
  usedSinceRenewal = false;
  /** Epoch ms until which the source is not asked for more (it had none left). */
  exhaustedUntil = 0;
  /** Preferred grant size: grows while blocks last under a second (a busy process asks the store less often). */
  burst = 0;
  /** Epoch ms of the last grant that gave credits. */
  grantedAt = 0;
  /** The grant being collected: requests of the same tick add what they lack. */
  batch: { demand: number; done: Promise<boolean> } | null = null;
  inflight: Promise<number> | null = null;

  constructor(
    readonly orgId: string,
    readonly source: UsageSource,
    /** The billing period key; '' for prepaid. */
    readonly period: string,
  ) {}

  get free(): number {
    return this.held - this.reserved - this.charged;
  }
}

export class CreditLeases {
  private readonly leases = new Map<string, HeldLease>();
  private readonly holder = `mtr_${randomBytes(8).toString('hex')}`;
  private timer: NodeJS.Timeout | null = null;
  private maintaining: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: CreditLeaseStore,
    private readonly now: () => Date,
    private readonly settings: CreditLeaseSettings,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Credits may be served from a lease only well before it expires, so a renewal can fail once without harm. */
  private get guardMs(): number {
    return Math.floor(this.settings.leaseMs / 4);
  }

  /** The current lease of (organization, source, period). One too close to expiry is retired and replaced. */
  current(orgId: string, source: UsageSource, period: string, nowMs: number): HeldLease {
    const key = `${orgId}|${source}|${period}`;
    const lease = this.leases.get(key);
    if (lease && (lease.expiresAt === 0 || lease.batch || lease.inflight || this.usable(lease, nowMs))) return lease;
    // Its reservations and charges keep their reference to it; their flush debits an expired row, which counts as zero.
    const fresh = new HeldLease(orgId, source, period);
    this.leases.set(key, fresh);
    this.startTimer();
    return fresh;
  }

  free(lease: HeldLease, nowMs: number): number {
    return this.usable(lease, nowMs) ? Math.max(0, lease.free) : 0;
  }

  exhausted(lease: HeldLease, nowMs: number): boolean {
    return lease.exhaustedUntil > nowMs;
  }

  /**
   * Asks the store for `shortfall` more credits (with the other requests of this tick). Resolves when that grant is
   * done: true when it gave all that was asked (callers look at the lease again), false when the source had less.
   */
  acquire(lease: HeldLease, shortfall: number, limit: number, period: BillingPeriod): Promise<boolean> {
    if (lease.batch) {
      lease.batch.demand += shortfall;
      return lease.batch.done;
    }
    const batch = { demand: shortfall, done: Promise.resolve(false) };
    lease.batch = batch;
    batch.done = (async () => {
      await lease.inflight?.catch(() => undefined);
      await new Promise((resolve) => setImmediate(resolve));
      lease.batch = null;
      const run = this.grant(lease, batch.demand, limit, period);
      lease.inflight = run;
      try {
        return (await run) >= batch.demand;
      } finally {
        if (lease.inflight === run) lease.inflight = null;
      }
    })();
    return batch.done;
  }

  /** Makes the organization's sources ask the store again at once (after a credit grant, for example). */
  forget(orgId: string): void {
    for (const lease of this.leases.values()) if (lease.orgId === orgId) lease.exhaustedUntil = 0;
  }

  /** The leases of an organization this process serves from (for `available`). */
  usableFree(orgId: string, source: UsageSource, period: string, nowMs: number): number {
    const lease = this.leases.get(`${orgId}|${source}|${period}`);
    return lease ? this.free(lease, nowMs) : 0;
  }

  /** Gives every lease back except what reservations in flight and unflushed charges hold. Call after the last flush. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.maintaining;
    const leases = [...this.leases.values()];
    this.leases.clear();
    for (const lease of leases) {
      if (lease.expiresAt === 0) continue;
      const keep = Math.max(0, lease.reserved + lease.charged);
      lease.held = Math.min(lease.held, keep);
      await this.store.releaseCreditLease(lease.id, keep);
    }
  }

  private usable(lease: HeldLease, nowMs: number): boolean {
    return lease.expiresAt - this.guardMs > nowMs;
  }

  private async grant(lease: HeldLease, want: number, limit: number, period: BillingPeriod): Promise<number> {
    const now = this.now();
    // Too close to expiry (renewals failed): its row may be gone, and adding to it would count credits twice. The
    // callers look again and get a fresh lease.
    if (lease.expiresAt !== 0 && !this.usable(lease, now.getTime())) return 0;
    const expiresAt = new Date(now.getTime() + this.settings.leaseMs);
    const { block, maxBurstBlocks } = this.settings;
    const quick = lease.grantedAt !== 0 && now.getTime() - lease.grantedAt < BURST_WINDOW_MS;
    lease.burst = quick ? Math.min(Math.max(lease.burst, block) * 2, block * maxBurstBlocks) : block;
    const granted = await this.store.acquireCreditLease({
      leaseId: lease.id,
      holder: this.holder,
      orgId: lease.orgId,
      source: lease.source,
      period: lease.period,
      from: period.start,
      to: period.end,
      limit: Number.isFinite(limit) ? limit : 0,
      want,
      block,
      burst: lease.burst,
      endZoneBlocks: this.settings.endZoneBlocks,
      now,
      expiresAt,
    });
    if (granted > 0) {
      lease.held += granted;
      lease.expiresAt = expiresAt.getTime();
      lease.grantedAt = now.getTime();
    }
    // Everything left went to this grant (or nothing was): do not ask again for a while.
    if (granted < want) lease.exhaustedUntil = now.getTime() + this.settings.exhaustedRetryMs;
    return granted;
  }

  private startTimer(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.maintaining = this.maintaining.then(() => this.maintain()).catch((error: unknown) => this.onError(error));
    }, Math.max(1, this.guardMs));
    this.timer.unref();
  }

  /** Renews the leases in use, gives back the free credits of idle ones, and forgets empty ones. */
  private async maintain(): Promise<void> {
    const now = this.now();
    for (const [key, lease] of this.leases) {
      if (lease.batch || lease.inflight) continue;
      if (lease.expiresAt === 0) {
        // Never granted anything (the source had none): kept only while it remembers that.
        if (lease.exhaustedUntil <= now.getTime()) this.leases.delete(key);
        continue;
      }
      const idle = !lease.usedSinceRenewal && lease.reserved === 0;
      lease.usedSinceRenewal = false;
      if (idle) {
        // Accounted before the await, so no reservation takes credits on their way back.
        const keep = Math.max(0, lease.charged);
        lease.held = Math.min(lease.held, keep);
        if (keep === 0) this.leases.delete(key);
        await this.store.releaseCreditLease(lease.id, keep);
      } else if (!(await this.store.renewCreditLease(lease.id, now, new Date(now.getTime() + this.settings.leaseMs)))) {
        // Expired meanwhile (this process could not renew in time): its credits may be another's now.
        if (this.leases.get(key) === lease) this.leases.delete(key);
      } else {
        lease.expiresAt = now.getTime() + this.settings.leaseMs;
      }
    }
    if (this.leases.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }
}
