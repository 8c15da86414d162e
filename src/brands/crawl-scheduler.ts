import type { OrganizationStanding, QueueAdmissionRules, QueueStanding } from '../domain/queue-admission.js';
import { JOB_NAMES, QueueFullError, type JobQueue } from '../jobs/queue.js';

export type ScheduleResult = 'queued' | 'full';

/**
 * How a crawl was asked for: `api` with a secret key or a payment (the organization's share), `client` through a public
 * client ID (logo CDN fallbacks: a share of its own, never the paid reserve, ADR 0050).
 */
export type CrawlChannel = 'api' | 'client';

/** Fair admission (ADR 0050): the rules and where an owner's standing is read. */
export interface CrawlAdmission {
  rules: QueueAdmissionRules;
  /** The organization's standing; null when the owner is no organization (a wallet paying per request). */
  standingOf(owner: string): Promise<OrganizationStanding | null>;
  now?: () => Date;
}

/** The job owner of crawls queued through an organization's client IDs: counted apart from its API share. */
export function clientIdOwner(orgId: string): string {
  return `${orgId}:client`;
}

/** The bounds before ADR 0050 (a depth and one share for every owner): tests and tools that need nothing more. */
function plainBounds(maxDepth: number, maxPerOwner: number | undefined): CrawlAdmission {
  const share = maxPerOwner ?? Number.POSITIVE_INFINITY;
  const rules = { maxDepth, paidReserve: 0, maxPerOrg: share, maxPerNewOrg: share, maxPerClientId: share, newOrgAgeMs: 0, paidMinSpendCents: 0 };
  return { rules, standingOf: () => Promise.resolve(null) };
}

/**
 * Queues background crawls (HEAD prefetch, batch misses, webhook subscriptions, logo CDN fallbacks). At most one
 * queued or running crawl per domain (the queue deduplicates). Admission is the queue's, decided in the enqueue
 * transaction by the fair policy (domain/queue-admission.ts): a depth, a share per owner by the organization's plan,
 * age and spend, a reserve of the depth for paid organizations, back-pressure on the biggest holders, and a share
 * of its own for client IDs; claims take turns between owners as well (ADR 0015, ADR 0050).
 */
export class CrawlScheduler {
  private readonly admission: CrawlAdmission;

  constructor(
    private readonly queue: JobQueue,
    /** The admission rules and standing reader, or (tests, tools) a plain depth with `maxPerOwner` as every owner's share. */
    limits: number | CrawlAdmission,
    /** Wakes this process's idle workers at once (null in an API-only process). */
    private readonly notify: () => void = () => undefined,
    maxPerOwner?: number,
  ) {
    this.admission = typeof limits === 'number' ? plainBounds(limits, maxPerOwner) : limits;
  }

  /**
   * `owner`: the organization the crawl is queued for (null: the operator's own); `requestId`: the API request that
   * queued it, so the worker's log lines carry the same `reqId` (ADR 0039); `channel`: `client` when it came through
   * a client ID rather than a secret key.
   */
  async schedule(domain: string, owner: string | null = null, requestId?: string, channel: CrawlChannel = 'api'): Promise<ScheduleResult> {
    try {
      const standing = await this.standing(owner, channel);
      const jobOwner = owner === null ? null : channel === 'client' ? clientIdOwner(owner) : owner;
      const payload = requestId === undefined ? { domain, refresh: false } : { domain, refresh: false, requestId };
      await this.queue.enqueue(JOB_NAMES.crawlBrand, domain, payload, { owner: jobOwner, admission: { standing, rules: this.admission.rules } });
    } catch (error) {
      if (error instanceof QueueFullError) return 'full';
      throw error;
    }
    this.notify();
    return 'queued';
  }

  private async standing(owner: string | null, channel: CrawlChannel): Promise<QueueStanding> {
    if (owner === null) return { channel: 'operator', plan: null, ageMs: null, spentCents: 0 };
    const org = await this.admission.standingOf(owner);
    if (org === null) return { channel, plan: null, ageMs: null, spentCents: 0 };
    const now = (this.admission.now ?? (() => new Date()))();
    return { channel, plan: org.plan, ageMs: Math.max(0, now.getTime() - org.createdAt.getTime()), spentCents: org.spentCents };
  }
}
