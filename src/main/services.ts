import path from 'node:path';
import type { Config } from '../config/config.js';
import { Accounts } from '../billing/accounts.js';
import { DashboardAccounts } from '../dashboard-accounts/dashboard-accounts.js';
import { lazyDashboardKeys } from '../dashboard-accounts/dashboard-secrets.js';
import { Authenticator } from '../billing/authenticator.js';
import { UsageMeter } from '../billing/usage-meter.js';
import { Billing } from '../billing/billing.js';
import { billingDefaults } from '../billing/billing-defaults.js';
import { createSmtpMailer, noMailer } from '../billing/mailer.js';
import { BatchLookup } from '../brands/batch-lookup.js';
import { BrandCache } from '../brands/brand-cache.js';
import { BrandCacheSync } from '../brands/brand-cache-sync.js';
import { BrandIndexer } from '../brands/brand-indexer.js';
import { BrandLookup } from '../brands/brand-lookup.js';
import { FinancialResolver } from '../brands/financial-resolver.js';
import { CrawlScheduler } from '../brands/crawl-scheduler.js';
import { queueStandingReader } from '../billing/queue-standing.js';
import { PopularityCounter } from '../brands/popularity-counter.js';
import { RefreshScheduler } from '../brands/refresh-scheduler.js';
import { refreshBrand, type RefreshOptions, type RefreshOutcome } from '../brands/refresh.js';
import { refreshSettingsFor } from './refresh-settings.js';
import type { JobQueue } from '../jobs/queue.js';
import { openAssetStore } from './asset-store-backend.js';
import { AssetUrls } from '../assets/asset-urls.js';
import type { AssetStore, VariantStore } from '../assets/asset-store.js';
import type { Logger } from '../platform/logger.js';
import { SafeFetcher } from '../platform/safe-fetcher.js';
import type { ProductStores } from './product-stores.js';
import { X402Payments } from '../payments/x402-payments.js';
import { MppPayments } from '../payments/mpp-payments.js';
import { randomBytes } from 'node:crypto';
import { paymentRequiredBody } from '../http/payment-bodies.js';
import { ChargeRule } from '../usecases/charge-rule.js';
import type { UseCaseDeps } from '../usecases/use-case-deps.js';
import { PaletteService } from '../palette/palette-service.js';
import { SvgRenderPool } from '../cdn/svg-render-pool.js';
import type { SvgRenderer } from '../cdn/svg-renderer.js';
import { VariantBudget } from '../cdn/variant-budget.js';
import { svgRenderWorkerEntry } from './svg-render-entry.js';
import { MerchantMatcher } from '../transactions/merchant-matcher.js';
import { AliasTable } from '../transactions/merchant-aliases.js';
import { MerchantCorrections } from '../transactions/corrections/merchant-corrections.js';
import { ContextService } from '../context/context-service.js';
import { PaletteRenderScheduler } from '../palette/palette-render-scheduler.js';
import type { PageRenderer } from '../crawl/fetch/render/page-renderer.js';
import { findChromium } from '../crawl/fetch/render/find-chromium.js';
import { openCrawler } from './crawler.js';
import { brandCacheCounters, crawlObserver, createPromMetrics, registerQueueGauges } from './metrics-registry.js';
import type { MetricsRegistry } from '../platform/metrics.js';
import { openBackends, type Backends } from './open-backends.js';
import { clientIdServicesFor, type ClientIdServices } from './client-id-services.js';
import { lazySealedBox, webhookManagementFor } from './webhook-services.js';
import { webhookDeliveryFor } from './webhook-delivery-services.js';
import type { WebhookDeliveryEngine } from '../webhooks/delivery/webhook-delivery-engine.js';
import { accessSalesFor } from './access-services.js';
import { paymentAdminFor } from './admin-services.js';
import type { PaymentAdmin } from '../payments/payment-admin.js';
import type { AccessSales } from '../payments/access-sales.js';
import type { SealedBox } from '../platform/sealed-box.js';
import type { WebhookManagement } from '../webhooks/management/webhook-management.js';

export interface Services extends ClientIdServices {
  config: Readonly<Config>;
  logger: Logger;
  /** Renders records' asset keys as URLs (BRANDBASE_ASSET_BASE_URL); built once, shared by everything that sends records out. */
  assetUrls: AssetUrls;
  /** Every product's store (main/product-stores.ts). */
  stores: ProductStores;
  /** Where the store is and whether this start created it (open-backends.ts): commands say so; `ping` for readiness checks. */
  backends: Pick<Backends, 'location' | 'created' | 'ping'>;
  queue: JobQueue;
  /** Originals, and the logo CDN's variants (VariantStore, ADR 0034). */
  assets: AssetStore & VariantStore;
  /** Draws SVGs off the API's thread (issue 33): worker processes under a time and memory limit, started on first use. */
  svgRenderer: SvgRenderer;
  /** The logo CDN's variant area under its byte budget and per-brand limit (issue 33), shared by the process's CDN routes. */
  variantBudget: VariantBudget;
  fetcher: SafeFetcher;
  accounts: Accounts;
  /** Dashboard users, sign-in and sessions (issue 23, ADR 0043). */
  dashboardAccounts: DashboardAccounts;
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
  /** Lookups per brand, counted in memory and written in batches (ADR 0030); close flushes it. */
  popularity: PopularityCounter;
  /** Scheduled refresh of stale brands (docs/refresh.md); worker processes start it (serve.ts), close stops it. */
  refresh: RefreshScheduler;
  /** Crawls a domain now unless its record is fresh (`brandbase crawl`; brands/refresh.ts). */
  refreshBrand(domain: string, options: RefreshOptions): Promise<RefreshOutcome>;
  /** The charged operations every transport calls (HTTP routes, later the MCP server). */
  usecases: UseCaseDeps;
  /** Registers the in-process worker pool's wake-up, called after each crawl this process queues. */
  onJobQueued(listener: () => void): void;
  /** Loads the extractors and opens the renderer now (serve does, so the first lookup does not wait for it). */
  warmCrawler(): Promise<void>;
  /** Queues the palette's background render after crawls that did not render (ADR 0023). */
  paletteRenders: PaletteRenderScheduler;
  /** The process's renderer (the crawl's Chromium), opened on first use; undefined without Chromium. */
  renderer(): Promise<PageRenderer | undefined>;
  /** Pay-per-request over x402 (ADR 0028); null when BRANDBASE_PAYMENTS=off. */
  payments: X402Payments | null;
  /** Pay-per-request over MPP (ADR 0028); null when payments or BRANDBASE_MPP are off. */
  mpp: MppPayments | null;
  /** Standing access for one payment (ADR 0029); null when payments are off. */
  access: AccessSales | null;
  /** The payments ledger and an organization's standing access, read for the dashboard and the CLI. */
  paymentAdmin: PaymentAdmin;
  /** Seals webhook secrets and Authorization values with the installation key (platform/sealed-box.ts), opened on first use. */
  sealedBox: SealedBox;
  /** Webhook management (GraphQL `POST /graphql`, `brandbase webhooks`). */
  webhooks: WebhookManagement;
  /** Merchant corrections (issue 34): the routes, GraphQL, the dashboard and the transaction use case call it. */
  merchantCorrections: MerchantCorrections;
  /** Webhook fan-out and delivery (ADR 0031); worker processes start it (serve.ts), close stops it. */
  webhookDelivery: WebhookDeliveryEngine;
  /** The process's metrics (`GET /metrics`, ADR 0039): features record through the port, prom-client renders. */
  metrics: MetricsRegistry;
  close(): Promise<void>;
}

/** x402 with the configured facilitator, or the embedded one over the store's ledger (ADR 0028). */
function paymentsFor(config: Readonly<Config>, store: ProductStores['payments'], logger: Logger): X402Payments | null {
  const p = config.payments;
  if (!p.enabled) return null;
  const settings = { network: p.network, asset: p.asset, assetName: p.assetName, assetVersion: p.assetVersion, payTo: p.payTo, priceUnits: p.priceUnits, maxTimeoutSeconds: p.maxTimeoutSeconds, facilitatorUrl: p.facilitatorUrl };
  return new X402Payments(store, settings, config.publicUrl, logger, (route) => paymentRequiredBody(config.publicUrl, route));
}

/** MPP (mppx, evm method) on the embedded ledger; the challenge key is random per process unless configured. */
function mppFor(config: Readonly<Config>, store: ProductStores['payments'], logger: Logger): MppPayments | null {
  const p = config.payments;
  if (!p.enabled || !p.mpp) return null;
  const settings = { network: p.network, asset: p.asset, assetName: p.assetName, assetVersion: p.assetVersion, payTo: p.payTo, priceUnits: p.priceUnits, maxTimeoutSeconds: p.maxTimeoutSeconds, facilitatorUrl: p.facilitatorUrl };
  const secret = p.mppSecretKey ?? randomBytes(32).toString('hex');
  return new MppPayments(store, settings, secret, config.publicUrl, logger, (route) => paymentRequiredBody(config.publicUrl, route));
}

/** Builds every service from Config. The only place that chooses backends (SQLite file or PostgreSQL). */
export async function createServices(config: Readonly<Config>, logger: Logger): Promise<Services> {
  const { stores, queue, location, created, ping, close: closeBackends } = await openBackends(config);
  const assetsDir = path.join(config.dataDir, 'assets');
  // The local folder or the configured bucket (ADR 0038); crawl workers open the same backend from config.
  const assets = openAssetStore(config, assetsDir);
  const fetcher = new SafeFetcher({ hostMap: config.crawlHosts, logger });
  // Records hold asset keys; answers get URLs under the configured base (ADR 0011).
  // The TTL is a backstop only: writes by other processes are dropped within BRANDBASE_CACHE_SYNC_MS (ADR 0017).
  // Numbers to run the service by (ADR 0039): each feature records through the port, never prom-client itself.
  const metrics = createPromMetrics();
  registerQueueGauges(metrics, queue);
  // Built once: every record sent out (lookups, webhooks, search icons) renders its asset URLs from the same base.
  const assetUrls = new AssetUrls(config.assetBaseUrl);
  const cache = new BrandCache(60_000, assetUrls, config.brandCacheMb * 1024 * 1024, undefined, brandCacheCounters(metrics));
  const cacheSync = new BrandCacheSync(stores.brands, cache, logger, { intervalMs: config.cacheSyncMs });
  // Crawls and logo renditions run in crawl workers unless BRANDBASE_CRAWL_ISOLATION=off (ADR 0014).
  const crawler = openCrawler(config, { fetcher, assets, assetsDir, logger, metrics });
  // Tickers, ISINs and crypto symbols → websites, from the reference data in the store (spec 1 rules 5-9).
  const resolver = new FinancialResolver(stores.referenceData);
  const listeners: (() => void)[] = [];
  // SVGs are drawn in worker processes, never on this thread (issue 33): the CDN's variants and the palette's logos.
  const svg = config.cdn.svgRender;
  const svgRenderer = new SvgRenderPool({ entry: svgRenderWorkerEntry(), workers: svg.workers, queue: svg.queue, timeoutMs: svg.timeoutMs, memoryMb: svg.memoryMb });
  const variantBudget = new VariantBudget(assets, { maxBytes: config.cdn.variantBudgetBytes, perBrand: config.cdn.variantsPerBrand });
  // After a crawl that did not render, its home page is rendered in the background for palette evidence (ADR 0023):
  // only with Chromium installed, and at most while half the prefetch backlog is free.
  const paletteRenders = new PaletteRenderScheduler(queue, logger, {
    enabled: config.paletteRender && findChromium(config.chromiumPath) !== null,
    maxDepth: Math.max(1, Math.floor(config.queueMaxDepth / 2)),
    notify: () => listeners.forEach((wake) => wake()),
  });
  // The render is queued in the transaction that saves the crawl's record and evidence.
  stores.saveHooks.push(paletteRenders);
  const indexer = new BrandIndexer(stores.brands, crawler.crawl, logger, {
    onSaved: (stored, domains) => cache.put(stored, domains),
    declaredIdentifiers: (brand) => resolver.declaredRefs(brand),
    completeLogos: crawler.completeLogos,
    failureMemory: { baseMs: config.crawlFailureMemoryMs, maxMs: config.crawlFailureMemoryMaxMs },
    onPaletteEvidence: (stored, evidence) => paletteRenders.afterCrawl(stored, evidence),
    analysisCacheRows: config.refresh.analysisCacheRows,
    onCrawled: crawlObserver(metrics),
  });
  const meter = new UsageMeter(stores.billing, () => new Date(), {
    onFlushError: (err) => logger.error({ err }, 'usage ledger flush failed; retrying'),
    onLeaseError: (err) => logger.warn({ err }, 'credit lease could not be renewed or given back; it expires on its own'),
    leases: config.creditLeases,
  });
  const mailer = config.smtpUrl ? createSmtpMailer(config.smtpUrl, config.mailFrom) : noMailer;
  const billing = new Billing({ store: stores.billing, meter, mailer, logger, defaults: billingDefaults(config), metrics });
  // Fair admission (ADR 0050): shares by the organization's plan, age and spend, a paid reserve, client IDs apart.
  const scheduler = new CrawlScheduler(queue, { rules: config.queueAdmission, standingOf: queueStandingReader(stores.billing) }, () => listeners.forEach((wake) => wake()));
  const popularity = new PopularityCounter(stores.brands, { flushMs: config.refresh.popularityFlushMs, onFlushError: (err) => logger.warn({ err }, 'brand popularity flush failed; retrying') });
  const lookup = new BrandLookup(stores.brands, cache, indexer, resolver, popularity);
  const refresh = new RefreshScheduler({ store: stores.brands, queue, logger, notify: () => listeners.forEach((wake) => wake()) }, refreshSettingsFor(config));
  const batch = new BatchLookup(lookup, scheduler);
  const sealedBox = lazySealedBox(config, logger);
  const webhookDelivery = webhookDeliveryFor(config, { accounts: stores.billing, brands: stores.brands, webhooks: stores.webhooks, queue, events: stores.events, billing, box: sealedBox, mailer, logger, assetUrls });
  // Client IDs, their gate and search by name (issue 20, ADR 0033).
  const clientIdParts = clientIdServicesFor(config, stores.billing, stores.search, logger, assetUrls);
  // Read on every transaction, never cached: a correction applies in every process once written (ADR 0053).
  const merchantCorrections = new MerchantCorrections(stores.merchantCorrections);
  const authenticator = new Authenticator(stores.billing, config.keyCacheMs, Date.now, config.keyCacheMb * 1024 * 1024);
  const usecases: UseCaseDeps = {
    lookup,
    batch,
    scheduler,
    rule: new ChargeRule(config.operatorDomain),
    batchItemTimeoutMs: config.batchItemTimeoutMs,
    batchResponseMaxBytes: config.batchResponseMaxBytes,
    // Palettes are built lazily from the evidence kept with the last crawl (spec 2.8, ADR 0023).
    palettes: new PaletteService(stores.palette, assets, { budgetMs: config.paletteBudgetMs, rasterizeSvg: (text) => svgRenderer.raster(text), logger }),
    // Contexts likewise, from the page text kept with the last crawl (ADR 0035).
    contexts: new ContextService(stores.context, { publicUrl: config.publicUrl, logger }),
    // Card descriptors to merchants: the curated alias table and the name index (ADR 0036).
    transactions: new MerchantMatcher(stores.search, AliasTable.load(), { onSyncError: (err) => logger.warn({ err }, 'transaction matcher: reference names could not be synced') }),
    // Organizations' corrections and the operator's aliases decide before any rule (issue 34, ADR 0053).
    corrections: merchantCorrections,
  };
  return {
    assetUrls,
    config,
    logger,
    stores,
    backends: { location, created, ping },
    queue,
    assets,
    svgRenderer,
    variantBudget,
    fetcher,
    // A key revoked here (the dashboard) is dropped from this process's verified-key cache at once.
    accounts: new Accounts(stores.billing, { freeQuota: config.defaultFreeQuota, paidQuota: config.defaultPaidQuota, verifiedKeys: authenticator }),
    authenticator,
    dashboardAccounts: new DashboardAccounts({ store: stores.dashboardAccounts, organizations: stores.billing, keys: lazyDashboardKeys(stores.dashboardAccounts, config.sessionSecret), mailer, logger, publicUrl: config.publicUrl }),
    meter,
    billing,
    cache,
    cacheSync,
    indexer,
    lookup,
    batch,
    scheduler,
    popularity,
    refresh,
    refreshBrand: (domain, options) => refreshBrand(domain, { store: stores.brands, indexer }, options),
    usecases,
    payments: paymentsFor(config, stores.payments, logger),
    mpp: mppFor(config, stores.payments, logger),
    access: accessSalesFor(config, { ...stores, accounts: stores.billing }, logger, meter),
    paymentAdmin: paymentAdminFor(config, { ...stores, accounts: stores.billing }),
    sealedBox,
    webhooks: webhookManagementFor(config, stores, scheduler, sealedBox, assetUrls, billing),
    webhookDelivery,
    merchantCorrections,
    onJobQueued: (listener) => void listeners.push(listener),
    warmCrawler: () => crawler.warm(),
    paletteRenders,
    renderer: () => crawler.renderer(),
    metrics,
    ...clientIdParts,
    async close() {
      await refresh.stop();
      await webhookDelivery.stop(config.shutdownGraceMs);
      await cacheSync.stop();
      await crawler.close();
      await svgRenderer.close();
      await billing.close();
      await meter.close();
      await popularity.close();
      await clientIdParts.clientIdUsage.close();
      await closeBackends();
      assets.close?.();
    },
  };
}
