import type { Logger } from '../platform/logger.js';
import type { JobQueue } from './queue.js';

export interface JobRetentionOptions {
  /** Finished jobs (done or failed) older than this are deleted. */
  retentionMs: number;
  /** How often a sweep runs. */
  everyMs: number;
  /** Jobs deleted per statement; a sweep runs statements until one deletes fewer. */
  batch?: number;
  now?: () => Date;
}

/**
 * Deletes finished jobs past their retention, so the jobs table of a fleet that has run millions of crawls stays
 * the size of its live work (ADR 0041: the retention pg-boss would have brought). Every worker process sweeps; the
 * deletes are idempotent, so two sweeps at once only share the work. Queued and running jobs are never touched.
 */
export class JobRetention {
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<number> | null = null;

  constructor(
    private readonly queue: JobQueue,
    private readonly logger: Logger,
    private readonly options: JobRetentionOptions,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.sweep().catch((error: unknown) => this.logger.warn({ err: error }, 'job retention sweep failed')), this.options.everyMs);
    this.timer.unref();
  }

  /** One sweep now; resolves with how many jobs it deleted. A sweep already running is joined, not doubled. */
  sweep(): Promise<number> {
    this.sweeping ??= this.deleteAll().finally(() => (this.sweeping = null));
    return this.sweeping;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.sweeping?.catch(() => 0);
  }

  private async deleteAll(): Promise<number> {
    const batch = this.options.batch ?? 1000;
    const before = new Date((this.options.now?.() ?? new Date()).getTime() - this.options.retentionMs);
    let total = 0;
    for (;;) {
      const deleted = await this.queue.purgeFinished(before, batch);
      total += deleted;
      if (deleted < batch) break;
    }
    if (total > 0) this.logger.info({ deleted: total, before: before.toISOString() }, 'finished jobs past their retention deleted');
    return total;
  }
}
