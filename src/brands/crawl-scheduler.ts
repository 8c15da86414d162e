import { JOB_NAMES, QueueFullError, type JobQueue } from '../jobs/queue.js';

export type ScheduleResult = 'queued' | 'full';

/**
 * Queues background crawls (HEAD prefetch, batch misses). At most one queued or running crawl per domain (the
 * queue deduplicates); `maxDepth` bounds the backlog so a flood of prefetches answers 503 instead of growing it,
 * and `maxPerOwner` bounds one organization's share of it, so its flood never fills the queue for the others
 * (claims take turns between organizations as well: ADR 0015).
 */
export class CrawlScheduler {
  constructor(
    private readonly queue: JobQueue,
    private readonly maxDepth: number,
    /** Wakes this process's idle workers at once (null in an API-only process). */
    private readonly notify: () => void = () => undefined,
    private readonly maxPerOwner?: number,
  ) {}

  /**
   * `owner`: the organization the crawl is queued for (null: the operator's own); `requestId`: the API request that
   * queued it, so the worker's log lines carry the same `reqId` (ADR 0039).
   */
  async schedule(domain: string, owner: string | null = null, requestId?: string): Promise<ScheduleResult> {
    try {
      const bound = this.maxPerOwner === undefined ? {} : { maxPerOwner: this.maxPerOwner };
      const payload = requestId === undefined ? { domain, refresh: false } : { domain, refresh: false, requestId };
      await this.queue.enqueue(JOB_NAMES.crawlBrand, domain, payload, { maxDepth: this.maxDepth, owner, ...bound });
    } catch (error) {
      if (error instanceof QueueFullError) return 'full';
      throw error;
    }
    this.notify();
    return 'queued';
  }
}
