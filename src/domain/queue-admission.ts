/**
 * Admission to the crawl queue (ADR 0050, amending ADR 0015): whether one more crawl may be queued for an owner,
 * given how full the queue is, how many jobs the owner already has, and who the owner is. Pure: the queue adapter
 * reads the counts under its enqueue lock and calls it in the enqueue transaction (jobs/sql/sql-job-queue.ts), so
 * the decision and the insert are one atomic step on SQLite and PostgreSQL alike.
 *
 * The rules, in order:
 * 1. **Depth:** no job past `maxDepth` queued jobs, whoever asks.
 * 2. **Share:** an owner's active (queued or running) jobs are bounded by its share: `maxPerOrg` for a paid
 *    organization (a paid plan, or `paidMinSpendCents` spent on credits) and for an unpaid one past `newOrgAgeMs`;
 *    `maxPerNewOrg` for an unpaid organization younger than that, or an owner with no organization (a wallet);
 *    `maxPerClientId` (and never more than the organization's own share) for crawls queued through a public client
 *    ID, which count as an owner of their own, so a client ID seen in a web page cannot spend the API's share.
 *    The operator's own work (no owner) has no share.
 * 3. **Paid reserve:** the last `paidReserve` places of the depth are kept for paid organizations' API requests (and
 *    the operator): past `maxDepth - paidReserve` queued jobs, unpaid organizations and client IDs are refused.
 * 4. **Back-pressure:** inside the reserve a paid owner is admitted only while it holds fewer than its share scaled
 *    by the room left (`ceil(share * room / paidReserve)`): as the queue fills, the owners holding the most jobs are
 *    refused first, and an owner holding none is admitted until the very last place.
 */
import type { Plan } from './accounts.js';

/** Who queues: the operator's own work, an organization's API request (a secret key, a payment), or a public client ID. */
export type QueueChannel = 'operator' | 'api' | 'client';

/** What admission knows of an organization (billing/queue-standing.ts reads it; the scheduler turns it into a standing). */
export interface OrganizationStanding {
  plan: Plan;
  createdAt: Date;
  /** US cents paid for credits, all time. */
  spentCents: number;
}

/** What the policy knows of the owner, read by the caller before the enqueue. */
export interface QueueStanding {
  channel: QueueChannel;
  /** The organization's plan; null when the owner has no organization (a wallet paying per request) or is the operator. */
  plan: Plan | null;
  /** Milliseconds since the organization was created; null when unknown (treated as new). */
  ageMs: number | null;
  /** US cents the organization has paid for credits (standing-access purchases and top-ups), all time. */
  spentCents: number;
}

export interface QueueAdmissionRules {
  maxDepth: number;
  /** Places of `maxDepth` kept for paid organizations (clamped to `maxDepth`). */
  paidReserve: number;
  maxPerOrg: number;
  maxPerNewOrg: number;
  maxPerClientId: number;
  /** An unpaid organization younger than this gets `maxPerNewOrg`. */
  newOrgAgeMs: number;
  /** Spend (US cents) that makes an organization on the free plan count as paid. */
  paidMinSpendCents: number;
}

/** The queue as the adapter read it, under its enqueue lock. */
export interface QueueCounts {
  /** Queued jobs of every owner (running ones excluded), as `maxDepth` counts them. */
  queued: number;
  /** The owner's queued or running jobs (0 for the operator). */
  ownerActive: number;
}

/** Why a crawl was refused: `depth` the queue is full; `share` the owner's share is used; `reserve` only paid owners may queue now; `pressure` the queue is nearly full and this owner already holds many jobs. */
export type QueueRefusalReason = 'depth' | 'share' | 'reserve' | 'pressure';

export type QueueAdmission =
  | { admitted: true }
  /** `scope`: `queue` when the queue's state refused it, `owner` when the owner's own share did; `count`: the count that hit the bound. */
  | { admitted: false; reason: QueueRefusalReason; scope: 'queue' | 'owner'; count: number };

/** A paid plan, or real money spent on credits: such an owner may queue from the reserve. */
export function isPaidStanding(standing: QueueStanding, rules: QueueAdmissionRules): boolean {
  return standing.plan === 'paid' || standing.spentCents >= rules.paidMinSpendCents;
}

/** The owner's share of the queue (active jobs); Infinity for the operator. */
export function queueShare(standing: QueueStanding, rules: QueueAdmissionRules): number {
  if (standing.channel === 'operator') return Number.POSITIVE_INFINITY;
  const isNew = standing.ageMs === null || standing.ageMs < rules.newOrgAgeMs;
  const orgShare = isPaidStanding(standing, rules) || !isNew ? rules.maxPerOrg : Math.min(rules.maxPerNewOrg, rules.maxPerOrg);
  return standing.channel === 'client' ? Math.min(rules.maxPerClientId, orgShare) : orgShare;
}

export function queueAdmission(standing: QueueStanding, counts: QueueCounts, rules: QueueAdmissionRules): QueueAdmission {
  const { queued, ownerActive } = counts;
  if (queued >= rules.maxDepth) return { admitted: false, reason: 'depth', scope: 'queue', count: queued };
  const share = queueShare(standing, rules);
  if (ownerActive >= share) return { admitted: false, reason: 'share', scope: 'owner', count: ownerActive };
  const reserve = Math.max(0, Math.min(rules.paidReserve, rules.maxDepth));
  if (queued < rules.maxDepth - reserve || standing.channel === 'operator') return { admitted: true };
  // Inside the reserve: paid organizations' API requests only, the biggest holders refused first.
  if (standing.channel === 'client' || !isPaidStanding(standing, rules)) return { admitted: false, reason: 'reserve', scope: 'queue', count: queued };
  const room = rules.maxDepth - queued;
  const cap = Math.ceil((share * room) / reserve);
  return ownerActive < cap ? { admitted: true } : { admitted: false, reason: 'pressure', scope: 'queue', count: queued };
}
