import type { Config } from '../config/config.js';
import type { CrawlOptions } from '../crawl/crawl-brand.js';
import type { CrawlLimits } from '../crawl/crawl-limits.js';

/**
 * The options of every crawl this process runs, from Config: the one place both the in-process crawler
 * (`crawler.ts`) and a crawl worker (`crawl-worker.ts`, which gets the Config by message) build them from.
 */
export function crawlOptionsFor(config: Readonly<Config>): CrawlOptions {
  return { timeoutMs: config.crawlTimeoutMs, limits: crawlLimitsFor(config) };
}

/** The bounds on what a site can make a crawl parse and decode (crawl-limits.ts, docs/security.md). */
export function crawlLimitsFor(config: Readonly<Config>): CrawlLimits {
  return {
    html: {
      maxDepth: config.htmlMaxDepth,
      maxElements: config.htmlMaxElements,
      maxAttributes: config.htmlMaxAttributes,
      maxBytes: config.htmlMaxBytes,
      maxDownloadBytes: config.htmlMaxDownloadBytes,
    },
    css: {
      maxSheetBytes: config.cssMaxSheetBytes,
      maxTotalBytes: config.cssMaxTotalBytes,
      maxRules: config.cssMaxRules,
      parseTimeMs: config.cssParseTimeMs,
    },
    images: { maxPixels: config.imageMaxPixels, maxBitmapPixels: config.bitmapMaxPixels, maxBytes: config.imageMaxBytes },
  };
}
