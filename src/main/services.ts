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
import { BrandCacheSync } from '../brands/brand-cache-sync.js';
import { BrandIndexer } from '../brands/brand-indexer.js';
import { BrandLookup } from '../brands/brand-lookup.js';
import { FinancialResolver } from '../brands/financial-resolver.js';
import { CrawlScheduler } from '../brands/crawl-scheduler.js';
import type { JobQueue } from '../jobs/queue.js';
import { LocalAssetStore } from '../assets/local/local-asset-store.js';
import { AssetUrls } from '../assets/asset-urls.js';
import type { AssetStore } from '../assets/asset-store.js';
import type { Logger } from '../platform/logger.js';
import { SafeFetcher } from '../platform/safe-fetcher.js';
import type { Store } from '../store/store.js';
import { X402Payments } from '../payments/x402-payments.js';
import { MppPayments } from '../payments/mpp-payments.js';
import { randomBytes } from 'node:crypto';
import { paymentRequiredBody } from '../http/payment-bodies.js';
import { ChargeRule } from '../usecases/charge-rule.js';
import type { UseCaseDeps } from '../usecases/use-case-deps.js';
import { PaletteService } from '../palette/palette-service.js';
import { openCrawler } from './crawler.js';
import { openBackends, type Backends } from './open-backends.js';

export interface Services {
  config: Readonly<Config>;
  logger: Logger;
  store: Store;
  /** Where the store is and whether this start created it (open-backends.ts): commands say so. */
  backends: Pick<Backends, 'location' | 'created'>;
  queue: JobQueue;
  assets: AssetStore;
  fetcher: SafeFetcher;
  accounts: Accounts;
  authenticator: Authenticator;
  meter: UsageMeter;
  billing: Billing;
  cache: BrandCache;
  /** Drops cached brands written by other processes (ADR 0017). An API process starts it before it serves; close stops it. */
  cacheSync: BrandCacheSync;
  indexer: BrandIndexer;
  lookup: BrandLookup;
  batch: BatchLookup;
  scheduler: CrawlScheduler;
  /** The charged operations every transport calls (HTTP routes, later the MCP server). */
  usecases: UseCaseDeps;
  /** Registers the in-process worker pool's wake-up, called after each crawl this process queues. */
  onJobQueued(listener: () => void): void;
  /** Loads the extractors and opens the renderer now (serve does, so the first lookup does not wait for it). */
  warmCrawler(): Promise<void>;
  /** Pay-per-request over x402 (ADR 0028); null when BRANDBASE_PAYMENTS=off. */
  payments: X402Payments | null;
  /** Pay-per-request over MPP (ADR 0028); null when payments or BRANDBASE_MPP are off. */
  mpp: MppPayments | null;
  close(): Promise<void>;
}

/** x402 with the configured facilitator, or the embedded one over the store's ledger (ADR 0028). */
function paymentsFor(config: Readonly<Config>, store: Store, logger: Logger): X402Payments | null {
  const p = config.payments;
  if (!p.enabled) return null;
  const settings = { network: p.network, asset: p.asset, assetName: p.assetName, assetVersion: p.assetVersion, payTo: p.payTo, priceUnits: p.priceUnits, maxTimeoutSeconds: p.maxTimeoutSeconds, facilitatorUrl: p.facilitatorUrl };
  return new X402Payments(store, settings, config.publicUrl, logger, (route) => paymentRequiredBody(config.publicUrl, route));
}

/** MPP (mppx, evm method) on the embedded ledger; the challenge key is random per process unless configured. */
function mppFor(config: Readonly<Config>, store: Store, logger: Logger): MppPayments | null {
  const p = config.payments;
  if (!p.enabled || !p.mpp) return null;
  const settings = { network: p.network, asset: p.asset, assetName: p.assetName, assetVersion: p.assetVersion, payTo: p.payTo, priceUnits: p.priceUnits, maxTimeoutSeconds: p.maxTimeoutSeconds, facilitatorUrl: p.facilitatorUrl };
  const secret = p.mppSecretKey ?? randomBytes(32).toString('hex');
  return new MppPayments(store, settings, secret, config.publicUrl, logger, (route) => paymentRequiredBody(config.publicUrl, route));
}

/** Builds every service from Config. The only place that chooses backends (SQLite file or PostgreSQL). */
export async function createServices(config: Readonly<Config>, logger: Logger): Promise<Services> {
  const { store, queue, location, created, close: closeBackends } = await openBackends(config);
  const assetsDir = path.join(config.dataDir, 'assets');
  const assets = new LocalAssetStore({ dir: assetsDir });
  const fetcher = new SafeFetcher({ hostMap: config.crawlHosts, logger });
  // Records hold asset keys; answers get URLs under the configured base (ADR 0011).
  // The TTL is a backstop only: writes by other processes are dropped within BRANDBASE_CACHE_SYNC_MS (ADR 0017).
  const cache = new BrandCache(60_000, new AssetUrls(config.assetBaseUrl));
  const cacheSync = new BrandCacheSync(store, cache, logger, { intervalMs: config.cacheSyncMs });
  // Crawls and logo renditions run in crawl workers unless BRANDBASE_CRAWL_ISOLATION=off (ADR 0014).
  const crawler = openCrawler(config, { fetcher, assets, assetsDir, logger });
  // Tickers, ISINs and crypto symbols → websites, from the reference data in the store (spec 1 rules 5-9).
  const resolver = new FinancialResolver(store);
  const indexer = new BrandIndexer(store, crawler.crawl, logger, {
    onSaved: (stored, domains) => cache.put(stored, domains),
    declaredIdentifiers: (brand) => resolver.declaredRefs(brand),
    completeLogos: crawler.completeLogos,
    failureMemory: { baseMs: config.crawlFailureMemoryMs, maxMs: config.crawlFailureMemoryMaxMs },
  });
  const meter = new UsageMeter(store, () => new Date(), { onFlushError: (err) => logger.error({ err }, 'usage ledger flush failed; retrying') });
  const mailer = config.smtpUrl ? createSmtpMailer(config.smtpUrl, config.mailFrom) : null;
  const billing = new Billing({ store, meter, mailer, logger, defaults: billingDefaults(config) });
  const listeners: (() => void)[] = [];
  const scheduler = new CrawlScheduler(queue, config.queueMaxDepth, () => listeners.forEach((wake) => wake()), config.queueMaxPerOrg);
  const lookup = new BrandLookup(store, cache, indexer, resolver);
  const batch = new BatchLookup(lookup, scheduler);
  const usecases: UseCaseDeps = {
    lookup,
    batch,
    scheduler,
    rule: new ChargeRule(config.operatorDomain),
    batchItemTimeoutMs: config.batchItemTimeoutMs,
    batchResponseMaxBytes: config.batchResponseMaxBytes,
    // Palettes are built lazily from the evidence kept with the last crawl (spec 2.8, ADR 0023).
    palettes: new PaletteService(store, assets, { budgetMs: config.paletteBudgetMs, logger }),
  };
  return {
    config,
    logger,
    store,
    backends: { location, created },
    queue,
    assets,
    fetcher,
    accounts: new Accounts(store, { freeQuota: config.defaultFreeQuota, paidQuota: config.defaultPaidQuota }),
    authenticator: new Authenticator(store, config.keyCacheMs),
    meter,
    billing,
    cache,
    cacheSync,
    indexer,
    lookup,
    batch,
    scheduler,
    usecases,
    payments: paymentsFor(config, store, logger),
    mpp: mppFor(config, store, logger),
    onJobQueued: (listener) => void listeners.push(listener),
    warmCrawler: () => crawler.warm(),
    async close() {
      await cacheSync.stop();
      await crawler.close();
      await billing.close();
      await meter.close();
      await closeBackends();
    },
  };
}
