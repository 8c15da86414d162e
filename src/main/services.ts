import path from 'node:path';
import type { Config } from '../config/config.js';
import { Accounts } from '../billing/accounts.js';
import { Authenticator } from '../billing/authenticator.js';
import { UsageMeter } from '../billing/usage-meter.js';
import { Billing } from '../billing/billing.js';
import { billingDefaults } from '../billing/billing-defaults.js';
import { createSmtpMailer } from '../billing/mailer.js';
import { BatchLookup } from '../brands/batch-lookup.js';
import { BrandCache } from '../brands/brand-cache.js';
import { BrandIndexer, type Crawl } from '../brands/brand-indexer.js';
import { BrandLookup } from '../brands/brand-lookup.js';
import { CrawlScheduler } from '../brands/crawl-scheduler.js';
import type { JobQueue } from '../jobs/queue.js';
import { LocalAssetStore } from '../assets/local/local-asset-store.js';
import type { AssetStore } from '../assets/asset-store.js';
import type { Logger } from '../platform/logger.js';
import { SafeFetcher, USER_AGENT } from '../platform/safe-fetcher.js';
import type { Store } from '../store/store.js';
import { openBackends } from './open-backends.js';

export interface Services {
  config: Readonly<Config>;
  logger: Logger;
  store: Store;
  queue: JobQueue;
  assets: AssetStore;
  fetcher: SafeFetcher;
  accounts: Accounts;
  authenticator: Authenticator;
  meter: UsageMeter;
  billing: Billing;
  cache: BrandCache;
  indexer: BrandIndexer;
  lookup: BrandLookup;
  batch: BatchLookup;
  scheduler: CrawlScheduler;
  /** Registers the in-process worker pool's wake-up, called after each crawl this process queues. */
  onJobQueued(listener: () => void): void;
  /** Loads the extractors and opens the renderer now (serve does, so the first lookup does not wait for it). */
  warmCrawler(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The crawler, loaded on first use: admin commands never crawl, and the extractors and Playwright are the
 * slowest modules to load. The renderer is opened with it (it logs whether rendering is on or off).
 */
function lazyCrawler(config: Readonly<Config>, fetcher: SafeFetcher, assets: AssetStore, logger: Logger) {
  let loading: Promise<Crawl> | null = null;
  let renderer: { close(): Promise<void> } | undefined;
  return {
    load(): Promise<Crawl> {
      loading ??= (async () => {
        const [{ crawlBrand }, { openRenderer }] = await Promise.all([import('../crawl/crawl-brand.js'), import('../crawl/fetch/render/browser-renderer.js')]);
        const opened = openRenderer({ chromiumPath: config.chromiumPath, fetcher, userAgent: USER_AGENT, logger });
        renderer = opened;
        return (domain: string) => crawlBrand(domain, { fetcher, assets, renderer: opened }, { timeoutMs: config.crawlTimeoutMs });
      })();
      return loading;
    },
    async close(): Promise<void> {
      await renderer?.close();
    },
  };
}

/** Builds every service from Config. The only place that chooses backends (SQLite file or PostgreSQL). */
export async function createServices(config: Readonly<Config>, logger: Logger): Promise<Services> {
  const { store, queue, close: closeBackends } = await openBackends(config);
  const assets = new LocalAssetStore({ dir: path.join(config.dataDir, 'assets'), publicUrl: config.publicUrl });
  const fetcher = new SafeFetcher({ hostMap: config.crawlHosts, logger });
  const cache = new BrandCache(60_000);
  const crawler = lazyCrawler(config, fetcher, assets, logger);
  const indexer = new BrandIndexer(store, async (domain) => (await crawler.load())(domain), logger, {
    onSaved: (stored, domains) => cache.put(stored, domains),
    // Loaded with the crawler, not before: sharp is among the slowest modules and admin commands never crawl.
    completeLogos: async (logos) => (await import('../media/logo-renditions.js')).withLogoRenditions(logos, assets),
  });
  const meter = new UsageMeter(store, () => new Date(), { onFlushError: (err) => logger.error({ err }, 'usage ledger flush failed; retrying') });
  const mailer = config.smtpUrl ? createSmtpMailer(config.smtpUrl, config.mailFrom) : null;
  const billing = new Billing({ store, meter, mailer, logger, defaults: billingDefaults(config) });
  const listeners: (() => void)[] = [];
  const scheduler = new CrawlScheduler(queue, config.queueMaxDepth, () => listeners.forEach((wake) => wake()));
  const lookup = new BrandLookup(store, cache, indexer);
  return {
    config,
    logger,
    store,
    queue,
    assets,
    fetcher,
    accounts: new Accounts(store, { freeQuota: config.defaultFreeQuota, paidQuota: config.defaultPaidQuota }),
    authenticator: new Authenticator(store, config.keyCacheMs),
    meter,
    billing,
    cache,
    indexer,
    lookup,
    batch: new BatchLookup(lookup, scheduler, config.operatorDomain),
    scheduler,
    onJobQueued: (listener) => void listeners.push(listener),
    warmCrawler: async () => void (await crawler.load()),
    async close() {
      await crawler.close();
      await billing.close();
      await meter.close();
      await closeBackends();
    },
  };
}
