/**
 * Queues the palette's background render (ADR 0023, palette-render-job.ts) after a crawl that kept only CSS evidence
 * because it did not render the page. Nothing is queued when the setting is off (BRANDBASE_PALETTE_RENDER), when no
 * Chromium executable is installed, for NSFW brands (their palette is null anyway) or for evidence that is already
 * rendered. The job is the operator's own work (owner null): it never counts against an organization's queue share
 * and takes its turns in the operator's lane of the fair claim order (ADR 0015).
 */
import type { PaletteEvidence } from '../domain/palette.js';
import { JOB_NAMES, QueueFullError, type JobQueue, type PaletteRenderPayload } from '../jobs/queue.js';
import type { Logger } from '../platform/logger.js';
import type { StoredBrand } from '../store/store.js';

export interface PaletteRenderSchedulerOptions {
  /** The setting is on and a Chromium executable was found. */
  enabled: boolean;
  /**
   * A render is queued only while fewer jobs than this wait: palette renders are a nicety and must not fill the
   * backlog that bounds HEAD prefetches (BRANDBASE_QUEUE_MAX_DEPTH); past it the brand keeps its CSS evidence.
   */
  maxDepth: number;
  /** Wakes this process's idle workers (the in-process pool of `serve`). */
  notify?: () => void;
}

/** One job per brand and crawl: a later crawl's job is a new one, the earlier one finds itself stale. */
export function paletteRenderKey(payload: PaletteRenderPayload): string {
  return `${payload.brandId}@${payload.observedAt}`;
}

export class PaletteRenderScheduler {
  constructor(
    private readonly queue: Pick<JobQueue, 'enqueue'>,
    private readonly logger: Logger,
    private readonly options: PaletteRenderSchedulerOptions,
  ) {}

  get enabled(): boolean {
    return this.options.enabled;
  }

  /** Called once the crawl's record and evidence are stored. True when a job was queued; never throws. */
  async afterCrawl(stored: StoredBrand, evidence: PaletteEvidence): Promise<boolean> {
    if (!this.options.enabled || evidence.source !== 'css' || stored.brand.isNsfw) return false;
    const payload: PaletteRenderPayload = { brandId: stored.brand.id, domain: stored.brand.domain, observedAt: stored.crawledAt.getTime() };
    try {
      const { created } = await this.queue.enqueue(JOB_NAMES.paletteRender, paletteRenderKey(payload), payload, { maxDepth: this.options.maxDepth, owner: null });
      if (created) this.options.notify?.();
      return created;
    } catch (error) {
      // Losing the job costs only the rendered evidence: the palette is built from the CSS evidence instead.
      if (error instanceof QueueFullError) this.logger.info({ brandId: payload.brandId, depth: error.depth }, 'palette render not queued: the queue is busy');
      else this.logger.warn({ brandId: payload.brandId, err: error instanceof Error ? error.message : String(error) }, 'palette render not queued');
      return false;
    }
  }
}
