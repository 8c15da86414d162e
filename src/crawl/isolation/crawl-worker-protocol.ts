/**
 * The messages between the API process and its crawl workers (ADR 0014). One message carries a whole crawl each
 * way: `crawl` in, the crawl's outcome (the draft record, holding asset keys) out. A worker asks the main side
 * only to render a page in the one shared Chromium, and forwards its log lines.
 */
import type { Config } from '../../config/config.js';
import type { Logo } from '../../domain/brand.js';
import type { CrawlOutcome } from '../crawl-brand.js';
import type { AnalysisRecord } from '../analysis-memo.js';
import type { RenderedPage } from '../fetch/render/page-renderer.js';

/** What a worker is started with (the first message it receives). */
export interface CrawlWorkerData {
  config: Readonly<Config>;
  /**
   * The asset folder the worker writes the crawl's files to (content-addressed, atomic renames: ADR 0009), with the
   * local backend; with `config.assetStore` naming a bucket, the worker writes there (ADR 0038).
   */
  assetsDir: string;
  /** Whether the main side renders JavaScript-built pages (a Chromium was found). */
  rendering: boolean;
}

export type ToWorker =
  | { type: 'init'; data: CrawlWorkerData }
  /** `known`: the analyses the domain's last crawl used (content-hash cache, ADR 0030). */
  | { type: 'crawl'; id: number; domain: string; known?: AnalysisRecord[] }
  | { type: 'renditions'; id: number; logos: Logo[] }
  | { type: 'rendered'; id: number; page: RenderedPage | null };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'crawled'; id: number; outcome: CrawlOutcome }
  | { type: 'rendition-done'; id: number; logos: Logo[] | null }
  /** The task threw (a bug, not the site): the main side reports it as the in-process crawl would. */
  | { type: 'task-error'; id: number; message: string; stack?: string }
  | { type: 'render'; id: number; url: string; timeoutMs: number; awaitMark?: boolean }
  | { type: 'render-abort'; id: number }
  /** One pino line of the worker's logger, re-emitted by the main side's logger. */
  | { type: 'log'; line: string };
