/**
 * The credit-lease part of billing's storage port (billing-store.ts; ADR 0040): blocks of an organization's credits
 * leased by live processes, so several API processes enforce one quota exactly without a database write per request.
 *
 * Invariant, per (organization, source, period): ledger entries + credits held by live leases ≤ the limit.
 * A grant is the only step that raises the left side, and it checks the limit in one serialized transaction; a
 * flush turns used lease credits into ledger entries in the transaction that shrinks the lease (appendUsage with
 * debits), so the sum does not move. An expired lease counts as zero: its credits come back.
 */
import type { UsageSource } from '../domain/accounts.js';

/** A grant asked for by a usage meter. Plain data (it crosses process boundaries in tests). */
export interface CreditLeaseGrant {
  /** The lease to create or add to (one per meter, organization, source and period). */
  leaseId: string;
  /** The holding process (the meter's id), recorded for operators. */
  holder: string;
  orgId: string;
  source: UsageSource;
  /** The billing period key for quota and overage; '' for prepaid credits (they span periods). */
  period: string;
  /** Quota and overage: ledger entries with createdAt in [from, to) count against the limit. Ignored for prepaid. */
  from: Date;
  to: Date;
  /** Quota and overage: credits the source allows this period. Prepaid: ignored (grants minus prepaid charges). */
  limit: number;
  /** Credits the meter's waiting reservations lack (≥ 1). */
  want: number;
  /** Credits granted at least while plenty are left (see `grantSize`). */
  block: number;
  /** A busy process's preferred grant while plenty are left (≥ block; it never eats into the end zone). */
  burst?: number;
  /** Below `endZoneBlocks × block` credits left, a grant is only what is wanted: no credit idles in a block. */
  endZoneBlocks: number;
  now: Date;
  /** The lease's new expiry (a grant renews it). */
  expiresAt: Date;
}

/** Credits of a lease that its holder's flush wrote to the ledger: the lease shrinks by as many. */
export interface CreditLeaseDebit {
  leaseId: string;
  credits: number;
}

/** Live leased credits per source: quota and overage of one period, prepaid over all periods. */
export interface LeasedCredits {
  quota: number;
  prepaid: number;
  overage: number;
}

export interface CreditLeaseStore {
  /**
   * Grants credits to the lease (creating it, or adding to it and renewing it): `grantSize(left, ...)` where `left`
   * is the limit minus the ledger minus every live lease of the source, read in the same serialized transaction.
   * Returns the credits granted (0: none left). Expired leases of the organization are deleted on the way.
   */
  acquireCreditLease(grant: CreditLeaseGrant): Promise<number>;
  /** Extends a live lease to `expiresAt`; false when it has expired (at `now`) or is gone: its credits were given back. */
  renewCreditLease(leaseId: string, now: Date, expiresAt: Date): Promise<boolean>;
  /** Shrinks a lease to `keep` credits (0 deletes it): unused credits go back to the organization at once. */
  releaseCreditLease(leaseId: string, keep: number): Promise<void>;
  /** Credits held by leases live at `now`: quota and overage of `period`, prepaid of any. */
  leasedCredits(orgId: string, period: string, now: Date): Promise<LeasedCredits>;
}

/**
 * How many credits a grant gives when `left` remain: nothing when none do; while plenty remain at least a block, or
 * a busy process's `burst` as far as it leaves the end zone (`endZoneBlocks × block`) for the others (the hot path
 * then serves many requests from memory); near the limit only what is wanted, so the last credits go to processes
 * that have requests waiting instead of idling in another process's block.
 */
export function grantSize(left: number, want: number, block: number, endZoneBlocks: number, burst = block): number {
  if (left <= 0 || want <= 0) return 0;
  const endZone = endZoneBlocks * block;
  const size = left >= endZone ? Math.max(want, block, Math.min(burst, left - endZone)) : want;
  return Math.min(size, left);
}
