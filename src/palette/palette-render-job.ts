/**
 * The palette's background render (ADR 0023): a brand whose crawl did not render its page (most sites are static)
 * has only CSS evidence, so no on-pairs, no element usage and often no themes. When Chromium is installed, a job
 * queued after such a crawl (palette-render-scheduler.ts) renders the brand's home page in the worker process
 * through the crawl's own air-gapped renderer, once as rendered and once with `prefers-color-scheme: dark`, and
 * replaces the CSS evidence with the rendered evidence; the built palette is dropped with it, so the next
 * `palette=true` request builds from the rendered evidence. The brand record (and its `colors`) is never written.
 *
 * A job is stale, and does nothing, when the brand was re-crawled (or removed) after the crawl that queued it. A
 * render that yields no samples fails the job with a retryable error (the worker pool retries it with backoff up to
 * its attempt limit); the CSS evidence stays in place and usable meanwhile and afterwards.
 */
import { MAX_RENDER_MS } from '../crawl/fetch/render/render-if-needed.js';
import type { PageRenderer } from '../crawl/fetch/render/page-renderer.js';
import { PALETTE_EVIDENCE_VERSION } from '../domain/palette.js';
import type { PaletteRenderPayload } from '../jobs/queue.js';
import type { Logger } from '../platform/logger.js';
import type { BrandStore } from '../brands/brand-store.js';
import type { PaletteStore, StoredPalette } from './palette-store.js';
import { renderPaletteEvidence } from './render-palette-evidence.js';

export type PaletteRenderResult =
  /** The rendered evidence replaced the CSS evidence. */
  | 'rendered'
  /** The brand was re-crawled or removed since the job was queued, or its evidence is not the crawl's CSS evidence. */
  | 'stale'
  /** This worker cannot render (no Chromium, or BRANDBASE_PALETTE_RENDER=off): the CSS evidence stays. */
  | 'off';

/** The render produced no palette samples (page unreachable, render failed or timed out); worth another try. */
export class PaletteRenderFailedError extends Error {
  readonly retryable = true;
  /** Logged by the worker pool in one line, without a stack (worker-pool.ts). */
  readonly expected = true;

  constructor(readonly brandId: string) {
    super(`palette render of ${brandId} yielded no samples`);
    this.name = 'PaletteRenderFailedError';
  }

  details(): { brandId: string } {
    return { brandId: this.brandId };
  }
}

export interface PaletteRenderJobDeps {
  store: Pick<BrandStore, 'getBrand'>;
  palettes: Pick<PaletteStore, 'getStoredPalette' | 'replacePaletteEvidence'>;
  /** The crawl's renderer, opened on first use; undefined when no Chromium is installed. */
  renderer: () => Promise<PageRenderer | undefined>;
  logger: Logger;
  /** BRANDBASE_PALETTE_RENDER in this worker. */
  enabled: boolean;
  /** The render's cap: the crawl's own render cap unless a test sets another. */
  timeoutMs?: number;
  now?: () => Date;
}

export class PaletteRenderJob {
  private readonly now: () => Date;

  constructor(private readonly deps: PaletteRenderJobDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async run(payload: PaletteRenderPayload): Promise<PaletteRenderResult> {
    const kept = await this.current(payload);
    if (!kept) return this.skipped(payload, 'stale');
    const renderer = this.deps.enabled ? await this.deps.renderer() : undefined;
    if (!renderer) return this.skipped(payload, 'off');
    const started = performance.now();
    const evidence = await renderPaletteEvidence(renderer, payload.domain, kept.evidence, { timeoutMs: this.deps.timeoutMs ?? MAX_RENDER_MS });
    if (!evidence) throw new PaletteRenderFailedError(payload.brandId);
    // Strictly later than the crawl's evidence, so a build of that evidence still running cannot store its palette.
    const observedAt = new Date(Math.max(this.now().getTime(), payload.observedAt + 1));
    const replaced = await this.deps.palettes.replacePaletteEvidence(payload.brandId, evidence, kept.observedAt, observedAt);
    if (!replaced) return this.skipped(payload, 'stale');
    this.deps.logger.info({ brandId: payload.brandId, pairs: evidence.pairs.length, dark: evidence.themes.dark !== undefined, ms: Math.round(performance.now() - started) }, 'palette evidence rendered');
    return 'rendered';
  }

  /** The stored CSS evidence of the crawl that queued the job, or null when the job is stale. */
  private async current(payload: PaletteRenderPayload): Promise<StoredPalette | null> {
    const stored = await this.deps.store.getBrand(payload.brandId);
    if (!stored || stored.status !== 'indexed' || stored.brand.isNsfw || stored.crawledAt.getTime() !== payload.observedAt) return null;
    const kept = await this.deps.palettes.getStoredPalette(payload.brandId);
    if (!kept || kept.evidence.version !== PALETTE_EVIDENCE_VERSION || kept.evidence.source !== 'css') return null;
    return kept.observedAt.getTime() === payload.observedAt ? kept : null;
  }

  private skipped(payload: PaletteRenderPayload, result: Exclude<PaletteRenderResult, 'rendered'>): PaletteRenderResult {
    this.deps.logger.info({ brandId: payload.brandId, result }, 'palette render skipped');
    return result;
  }
}
