/**
 * The content-hash cache of image analyses, on the indexer's side (docs/refresh.md "The analysis cache", ADR 0030).
 * Before a crawl the indexer loads what the domain's last crawl used and sends it with the crawl (to a crawl worker
 * when crawls are isolated); the crawl's memo (crawl/analysis-memo.ts) skips decoding, measuring, colour clustering
 * and classifying any file whose downloaded bytes have the same sha256. After the crawl the indexer keeps the
 * perceptual signature of every file met (change detection reads them inside the save's transaction, so they are
 * written before the save) and replaces the domain's entries with what this crawl used.
 *
 * Everything here is an optimisation: a store error costs a full analysis (or, for signatures, a comparison of
 * files by content only), never the crawl or the saved brand, so errors are logged and swallowed.
 */
import type { AnalysisRecord } from '../crawl/analysis-memo.js';
import type { CrawlAnalysis } from '../crawl/crawl-brand.js';
import type { Logger } from '../platform/logger.js';
import type { RefreshStore } from './brand-store.js';

/** Rows kept across all domains by default (a brand's crawl uses a few dozen; about 10,000 brands' worth). */
export const DEFAULT_ANALYSIS_CACHE_ROWS = 200_000;

export type AnalysisCacheStore = Pick<RefreshStore, 'loadAnalyses' | 'saveAnalyses' | 'saveMarkSignatures'>;

export class AnalysisCache {
  constructor(
    private readonly store: AnalysisCacheStore,
    private readonly logger: Logger,
    private readonly options: { maxRows: number; now: () => Date },
  ) {}

  /** The analyses `domain`'s last crawl used (empty on a first crawl, or when the store cannot say). */
  async known(domain: string): Promise<AnalysisRecord[]> {
    try {
      return await this.store.loadAnalyses(domain, this.options.now());
    } catch (error) {
      this.warn(domain, error, 'analysis cache not read; the crawl analyses every file');
      return [];
    }
  }

  /** Keeps the perceptual signatures of the files the crawl met. Call before saving the record. */
  async keepMarks(analysis: CrawlAnalysis): Promise<void> {
    if (analysis.marks.length === 0) return;
    try {
      await this.store.saveMarkSignatures(new Map(analysis.marks), this.options.now());
    } catch (error) {
      this.warn(null, error, 'mark signatures not kept; change detection compares these files by content');
    }
  }

  /** Replaces `domain`'s entries with what this crawl used (files the site no longer serves are dropped). */
  async keep(domain: string, analysis: CrawlAnalysis): Promise<void> {
    try {
      await this.store.saveAnalyses(domain, analysis.entries, this.options.now(), this.options.maxRows);
    } catch (error) {
      this.warn(domain, error, 'analysis cache not saved; the next crawl analyses every file');
    }
  }

  private warn(domain: string | null, error: unknown, message: string): void {
    this.logger.warn({ ...(domain ? { domain } : {}), err: error instanceof Error ? error.message : String(error) }, message);
  }
}
