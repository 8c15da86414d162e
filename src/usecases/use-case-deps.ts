import type { BatchLookup } from '../brands/batch-lookup.js';
import type { BrandLookup } from '../brands/brand-lookup.js';
import type { CrawlScheduler } from '../brands/crawl-scheduler.js';
import type { ChargeRule } from './charge-rule.js';
import type { PaletteSource } from '../palette/palette-service.js';
import type { MerchantMatcher } from '../transactions/merchant-matcher.js';
import type { BrandContexts } from '../context/context-service.js';
import type { MerchantCorrections } from '../transactions/corrections/merchant-corrections.js';

/** What the use cases run on; main/ builds it once. Transports (HTTP, later MCP) hold it and a payer per request. */
export interface UseCaseDeps {
  lookup: BrandLookup;
  batch: BatchLookup;
  scheduler: CrawlScheduler;
  rule: ChargeRule;
  /** Per-item time budget of a batch, in milliseconds (504 `timeout` past it). */
  batchItemTimeoutMs: number;
  /** Byte budget of one batch response (items past it answer 413 `response_too_large`). */
  batchResponseMaxBytes: number;
  /** Builds and reads palettes (spec 2.8); without it every requested palette is null. */
  palettes?: PaletteSource;
  /** Card descriptors to merchants (enrich-transaction.ts, ADR 0036); without it transactions answer 503. */
  transactions?: MerchantMatcher;
  /**
   * Organizations' corrections and the operator's aliases, read before every matching rule (issue 34, ADR 0053);
   * without it only the rules answer.
   */
  corrections?: Pick<MerchantCorrections, 'find'>;
  /** Reads and builds brand contexts (ADR 0035); without it every context answers as not yet generated. */
  contexts?: BrandContexts;
}
