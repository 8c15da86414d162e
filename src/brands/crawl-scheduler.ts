import { JOB_NAMES, QueueFullError, type JobQueue } from '../jobs/queue.js';

export type ScheduleResult = 'queued' | 'full';

/**
 * Queues background crawls (HEAD prefetch, batch misses). At most one queued or running crawl per domain (the
 * queue deduplicates); `maxDepth` bounds the backlog so a flood of prefetches answers 503 instead of growing it.
 */
export class CrawlScheduler {
  constructor(
    private readonly queue: JobQueue,
    private readonly maxDepth: number,
    /** Wakes this process's idle workers at once (null in an API-only process). */
    private readonly notify: () => void = () => undefined,
  ) {}

  async schedule(domain: string): Promise<ScheduleResult> {
    try {
      await this.queue.enqueue(JOB_NAMES.crawlBrand, domain, { domain, refresh: false }, { maxDepth: this.maxDepth });
    } catch (error) {
      if (error instanceof QueueFullError) return 'full';
      throw error;
    }
    this.notify();
    return 'queued';
  }
}
