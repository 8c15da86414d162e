/**
 * Queues the palette's background render (ADR 0023, palette-render-job.ts) for a crawl that kept only CSS evidence
 * because it did not render the page. It is a brand save hook (brands/brand-save-hooks.ts): the job is enqueued in the
 * transaction that saves the crawl's record and evidence, so a crash after the commit still leaves the job, and a save
 * that rolls back leaves none. Nothing is queued when the setting is off (BRANDBASE_PALETTE_RENDER), when no
 * Chromium executable is installed, for NSFW brands (their palette is null anyway) or for evidence that is already
 * rendered. The job is the operator's own work (owner null): it never counts against an organization's queue share
 * and takes its turns in the operator's lane of the fair claim order (ADR 0015).
 */
import type { BrandSave, BrandSaveHook } from '../brands/brand-save-hooks.js';
import type { DbTransaction } from '../db/database.js';
import type { PaletteEvidence } from '../domain/palette.js';
import { JOB_NAMES, QueueFullError, type JobQueue, type PaletteRenderPayload } from '../jobs/queue.js';
import type { Logger } from '../platform/logger.js';
import type { StoredBrand } from '../brands/brand-store.js';

export interface PaletteRenderSchedulerOptions {
  /** The setting is on and a Chromium executable was found. */
  enabled: boolean;
  /**
   * A render is queued only while fewer jobs than this wait: palette renders are a nicety and must not fill the
   * backlog that bounds HEAD prefetches (BRANDBASE_QUEUE_MAX_DEPTH); past it the brand keeps its CSS evidence.
   */
  maxDepth: number;
  /** Wakes this process's idle workers (the in-process pool of `serve`), once the save committed (afterCrawl). */
  notify?: () => void;
}

/** One job per brand and crawl: a later crawl's job is a new one, the earlier one finds itself stale. */
export function paletteRenderKey(payload: PaletteRenderPayload): string {
  return `${payload.brandId}@${payload.observedAt}`;
}

export class PaletteRenderScheduler implements BrandSaveHook {
  constructor(
    private readonly queue: Pick<JobQueue, 'enqueue'>,
    private readonly logger: Logger,
    private readonly options: PaletteRenderSchedulerOptions,
  ) {}

  get enabled(): boolean {
    return this.options.enabled;
  }

  /**
   * Inside the save's transaction: queues the render of a crawl that kept CSS evidence. A full queue only costs the
   * rendered evidence (the palette is built from the CSS evidence), so the save goes on; any other failure is the
   * database's and fails the save with it (on PostgreSQL the transaction could not commit anyway).
   */
  async onBrandSaved(trx: DbTransaction<unknown>, save: BrandSave): Promise<void> {
    const evidence = save.options.paletteEvidence;
    if (evidence === undefined || !this.wanted(save.next, evidence)) return;
    const payload: PaletteRenderPayload = { brandId: save.next.brand.id, domain: save.next.brand.domain, observedAt: save.next.crawledAt.getTime() };
    try {
      await this.queue.enqueue(JOB_NAMES.paletteRender, paletteRenderKey(payload), payload, { tx: trx, maxDepth: this.options.maxDepth, owner: null });
    } catch (error) {
      if (!(error instanceof QueueFullError)) throw error;
      this.logger.info({ brandId: payload.brandId, depth: error.depth }, 'palette render not queued: the queue is busy');
    }
  }

  /** Called once the crawl's record and evidence are committed: wakes idle workers when a render may have been queued. */
  async afterCrawl(stored: StoredBrand, evidence: PaletteEvidence): Promise<boolean> {
    if (!this.wanted(stored, evidence)) return false;
    this.options.notify?.();
    return true;
  }

  private wanted(stored: StoredBrand, evidence: PaletteEvidence): boolean {
    return this.options.enabled && evidence.source === 'css' && !stored.brand.isNsfw;
  }
}
