import type { Authenticator } from '../billing/authenticator.js';
import type { Billing } from '../billing/billing.js';
import type { BatchLookup } from '../brands/batch-lookup.js';
import type { BrandLookup } from '../brands/brand-lookup.js';
import type { CrawlScheduler } from '../brands/crawl-scheduler.js';
import type { AssetStore } from '../assets/asset-store.js';
import type { Logger } from '../platform/logger.js';

/** Everything the HTTP layer needs; main/ builds it from Config. Routes never touch a backend directly. */
export interface AppDeps {
  logger: Logger;
  publicUrl: string;
  operatorDomain: string | null;
  authenticator: Authenticator;
  billing: Billing;
  lookup: BrandLookup;
  batch: BatchLookup;
  scheduler: CrawlScheduler;
  assets: AssetStore;
  /** Per-item time budget of a batch, in milliseconds (504 `timeout` past it). */
  batchItemTimeoutMs: number;
  /** Byte budget of one batch response (items past it answer 413 `response_too_large`). */
  batchResponseMaxBytes: number;
  /** Readiness probe: resolves when the store answers. */
  ping: () => Promise<void>;
}
