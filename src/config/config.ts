/**
 * The only reader of the environment. Every setting is declared once in config-schema.ts (type, range, default for
 * the embedded case, documentation line); this file turns the values read into the `Config` the program runs with,
 * applying the rules that span settings. docs/configuration.md's tables are generated from the schema.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFIG_SCHEMA, type ConfigValues } from './config-schema.js';
import {
  assetStoreConfig,
  cdnConfig,
  clientIdConfig,
  creditLeaseConfig,
  metricsConfig,
  paymentsConfig,
  refreshConfig,
  webhookDeliveryConfig,
  type AssetStoreConfig,
  type CdnConfig,
  type ClientIdConfig,
  type CreditLeaseConfig,
  type MetricsConfig,
  type PaymentsConfig,
  type RefreshConfig,
  type WebhookDeliveryConfig,
} from './feature-configs.js';
import { ConfigError, readSettings, type Env } from './setting-types.js';
import type { QueueAdmissionRules } from '../domain/queue-admission.js';

export { ConfigError };

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string;
  /** Base URL every asset `src` is rendered under (ends with `/`): `${publicUrl}/assets/` unless set (a CDN). */
  assetBaseUrl: string;
  /** Hostname → `ip:port`; the only way the crawler reaches loopback (tests, offline demos). */
  crawlHosts: Readonly<Record<string, string>>;
  /**
   * Lookups of this domain's brand are free on every route. As configured (lower-cased): ChargeRule reduces it to
   * the registrable domain, so loading the configuration does not load the public-suffix list (CLI start time).
   */
  operatorDomain: string | null;
  /** PostgreSQL URL for the scale-out store; empty means the embedded SQLite file in dataDir. */
  databaseUrl: string | null;
  logLevel: string;
  /** Crawls run at once by this process's worker pool (0 disables the pool). */
  workerConcurrency: number;
  /** Budget for one live crawl, in milliseconds. */
  crawlTimeoutMs: number;
  /** Where crawls run (ADR 0014): a child `process` (default) or worker `thread` per crawl, or `off` (in process). */
  crawlIsolation: 'process' | 'thread' | 'off';
  /** Crawl workers at most (crawls at once; more wait in line). Default: worker concurrency + 1, for live lookups. */
  crawlWorkers: number;
  /** Memory limit of one crawl worker in MB (resident memory and V8 heap of a process, heap of a thread). */
  crawlMemoryMb: number;
  /** A crawl worker still busy this long after the crawl budget is killed; the crawl fails with `timeout`. */
  crawlKillGraceMs: number;
  /** A failed crawl is answered from the shared failure memory this long (0: never), doubled per failure in a row. */
  crawlFailureMemoryMs: number;
  /** Cap of that doubling memory (at least crawlFailureMemoryMs); failures older than this are pruned. */
  crawlFailureMemoryMaxMs: number;
  /** Queued crawl jobs beyond which prefetch answers 503. */
  queueMaxDepth: number;
  /** Active (queued or running) crawl jobs one organization may have; past it its prefetches answer 503. */
  queueMaxPerOrg: number;
  /** The crawl queue's admission rules (domain/queue-admission.ts, ADR 0050), derived defaults applied. */
  queueAdmission: Readonly<QueueAdmissionRules>;
  /** Free HEAD prefetches per organization per minute (token bucket per API process); 0: no limit. */
  prefetchPerMinute: number;
  /** How long an API key's verification is cached in memory (revocations take effect within this time). */
  keyCacheMs: number;
  /** Megabytes (estimated heap) of verified API keys each process keeps in memory, least recently used out (ADR 0042). */
  keyCacheMb: number;
  /** Megabytes (estimated heap) of serialized brands each API process keeps in memory; 0: none (ADR 0042). */
  brandCacheMb: number;
  /** How often an API process polls the brand write log to drop cached brands other processes wrote (ADR 0017). */
  cacheSyncMs: number;
  /** Credits per billing period for organizations created without --quota. */
  defaultFreeQuota: number;
  defaultPaidQuota: number;
  /** Time allowed for in-flight requests and running jobs on SIGTERM/SIGINT. */
  shutdownGraceMs: number;
  /** A claimed job is leased this long; a worker that dies leaves its job to another after it (longer than a crawl). */
  jobLeaseMs: number;
  /** Finished jobs are deleted this long after they ended (BRANDBASE_JOB_RETENTION_DAYS); null keeps them forever. */
  jobRetentionMs: number | null;
  /** A brand crawled longer ago than this is re-crawled by `brandbase crawl` (and scores lower for recency). */
  refreshAgeDays: number;
  /** Chromium for rendering JavaScript-built sites; null means /usr/bin/chromium when it exists. */
  chromiumPath: string | null;
  /** Per-item time budget of a batch lookup (504 `timeout` past it). */
  batchItemTimeoutMs: number;
  /** Byte budget of one batch response (items past it answer 413 `response_too_large`). */
  batchResponseMaxBytes: number;
  /** How long a request waits for a palette build (spec 2.8); past it `palette` is null and the build finishes in the background. */
  paletteBudgetMs: number;
  /** Render the home page in Chromium for palette evidence after a crawl that did not render (ADR 0023); needs Chromium. */
  paletteRender: boolean;
  /** An oversize request body (413) is read and discarded up to this many bytes so the client can read the answer; past it the connection is closed. */
  discardBodyMaxBytes: number;
  /** SMTP URL for usage warning emails; null means no email (the warning is logged as not sent). */
  smtpUrl: string | null;
  /** Sender of billing emails. */
  mailFrom: string;
  /** Request throughput limit per organization without its own (0: no limit). */
  rateLimitPerMinute: number;
  /** Monthly overage cap for paid organizations without their own, in US cents (0 disables overage). */
  overageSpendingLimitCents: number;
  /** Bounds on what a site can make a crawl parse and decode (docs/security.md; src/crawl/crawl-limits.ts). */
  htmlMaxDepth: number;
  htmlMaxElements: number;
  htmlMaxAttributes: number;
  cssMaxSheetBytes: number;
  cssMaxTotalBytes: number;
  cssMaxRules: number;
  cssParseTimeMs: number;
  imageMaxPixels: number;
  /** Bytes of one image file downloaded and ingested. */
  imageMaxBytes: number;
  /** Bytes of a page parsed, and of a home page downloaded. */
  htmlMaxBytes: number;
  htmlMaxDownloadBytes: number;
  bitmapMaxPixels: number;
  /** Pay-per-request (x402) settings: feature-configs.ts. */
  payments: PaymentsConfig;
  /** Logo CDN settings: feature-configs.ts (docs/logo-cdn.md). */
  cdn: CdnConfig;
  /** Client IDs, search and logo limits and allowances: feature-configs.ts (docs/search.md). */
  clientIds: ClientIdConfig;
  /** Webhook delivery: source addresses, attempt timeout, senders per process (feature-configs.ts). */
  webhookDelivery: WebhookDeliveryConfig;
  /** Bounds of `POST /graphql` (issue 33): the most one request may cost, and the cost one organization may spend per minute (0: no limit). */
  graphql: { maxCost: number; costPerMinute: number };
  /** Scheduled refresh, analysis cache and popularity counting: feature-configs.ts (docs/refresh.md). */
  refresh: RefreshConfig;
  /** Where asset files live: the local folder or an S3-compatible bucket (feature-configs.ts, ADR 0038). */
  assetStore: AssetStoreConfig;
  /** Where `/metrics` is served: behind a bearer token on the API's listener, or on its own port (feature-configs.ts, ADR 0039). */
  metrics: MetricsConfig;
  /** Leased credit blocks: lease timeout and block size (feature-configs.ts, ADR 0040). */
  creditLeases: CreditLeaseConfig;
  /** Installation key for sealed values (webhook secrets); null: `secret.key` in dataDir (src/platform/sealed-box.ts). */
  secretKey: string | null;
  /** Signs dashboard sessions (ADR 0043); null: a secret generated once and kept in the store, shared by the fleet. */
  sessionSecret: string | null;
  /**
   * Which proxies' X-Forwarded-For to believe for the client address (per-address limits): false (none, the
   * default), true (any), or a list of addresses/CIDRs (Fastify's `trustProxy`).
   */
  trustProxy: boolean | string[];
}

/**
 * The Brandbase installation (the checkout `npm ci` ran in). `src/config/` and the built program's `dist/<folder>/`
 * are both two levels below it. The default data folder lives here, not in the current folder, so the CLI run from
 * any folder opens the store the server uses (docs/configuration.md).
 */
export const INSTALL_DIR = fileURLToPath(new URL('../../', import.meta.url));

/** The configuration `env` describes; a malformed setting, or settings that cannot work together, throw ConfigError. */
export function loadConfig(env: Env = process.env): Readonly<Config> {
  const v = readSettings(CONFIG_SCHEMA, env);
  const publicUrl = v.BRANDBASE_PUBLIC_URL ?? `http://localhost:${v.PORT}`;
  return Object.freeze({
    port: v.PORT,
    host: v.HOST,
    dataDir: path.resolve(v.BRANDBASE_DATA_DIR ?? path.join(INSTALL_DIR, 'data')),
    publicUrl,
    // Always ending with `/`, so a key is appended as is.
    assetBaseUrl: `${v.BRANDBASE_ASSET_BASE_URL ?? `${publicUrl}/assets`}/`,
    crawlHosts: v.BRANDBASE_CRAWL_HOSTS,
    operatorDomain: v.BRANDBASE_OPERATOR_DOMAIN?.toLowerCase() ?? null,
    databaseUrl: v.BRANDBASE_DATABASE_URL,
    logLevel: v.BRANDBASE_LOG_LEVEL,
    ...crawling(v),
    queueMaxDepth: v.BRANDBASE_QUEUE_MAX_DEPTH,
    queueMaxPerOrg: v.BRANDBASE_QUEUE_MAX_PER_ORG,
    queueAdmission: Object.freeze(queueAdmissionRules(v)),
    prefetchPerMinute: v.BRANDBASE_PREFETCH_PER_MINUTE,
    keyCacheMs: v.BRANDBASE_KEY_CACHE_MS,
    keyCacheMb: v.BRANDBASE_KEY_CACHE_MB,
    brandCacheMb: v.BRANDBASE_BRAND_CACHE_MB,
    cacheSyncMs: v.BRANDBASE_CACHE_SYNC_MS,
    defaultFreeQuota: v.BRANDBASE_DEFAULT_FREE_QUOTA,
    defaultPaidQuota: v.BRANDBASE_DEFAULT_PAID_QUOTA,
    shutdownGraceMs: v.BRANDBASE_SHUTDOWN_GRACE_MS,
    ...jobs(v),
    refreshAgeDays: v.BRANDBASE_REFRESH_AGE_DAYS,
    chromiumPath: v.BRANDBASE_CHROMIUM_PATH,
    batchItemTimeoutMs: v.BRANDBASE_BATCH_ITEM_TIMEOUT_MS,
    batchResponseMaxBytes: v.BRANDBASE_BATCH_MAX_RESPONSE_BYTES,
    paletteBudgetMs: v.BRANDBASE_PALETTE_BUDGET_MS,
    paletteRender: v.BRANDBASE_PALETTE_RENDER,
    discardBodyMaxBytes: v.BRANDBASE_DISCARD_BODY_MAX_BYTES,
    smtpUrl: v.BRANDBASE_SMTP_URL,
    mailFrom: v.BRANDBASE_MAIL_FROM,
    rateLimitPerMinute: v.BRANDBASE_RATE_LIMIT_PER_MINUTE,
    overageSpendingLimitCents: v.BRANDBASE_OVERAGE_SPENDING_LIMIT_CENTS,
    ...crawlLimits(v),
    payments: Object.freeze(paymentsConfig(v)),
    cdn: Object.freeze(cdnConfig(v, publicUrl)),
    clientIds: Object.freeze(clientIdConfig(v)),
    webhookDelivery: Object.freeze(webhookDeliveryConfig(v)),
    graphql: Object.freeze(graphqlLimits(v)),
    refresh: Object.freeze(refreshConfig(v)),
    assetStore: Object.freeze(assetStoreConfig(v)),
    metrics: Object.freeze(metricsConfig(v)),
    creditLeases: Object.freeze(creditLeaseConfig(v)),
    secretKey: v.BRANDBASE_SECRET_KEY,
    sessionSecret: v.BRANDBASE_SESSION_SECRET,
    trustProxy: v.BRANDBASE_TRUST_PROXY,
  });
}

type CrawlSettings = Pick<Config, 'workerConcurrency' | 'crawlTimeoutMs' | 'crawlIsolation' | 'crawlWorkers' | 'crawlMemoryMb' | 'crawlKillGraceMs' | 'crawlFailureMemoryMs' | 'crawlFailureMemoryMaxMs'>;

/** The crawl queue's admission rules; unset shares and reserve are fractions of the depth and the organization's share. */
function queueAdmissionRules(v: ConfigValues): QueueAdmissionRules {
  const maxPerOrg = v.BRANDBASE_QUEUE_MAX_PER_ORG;
  return {
    maxDepth: v.BRANDBASE_QUEUE_MAX_DEPTH,
    paidReserve: v.BRANDBASE_QUEUE_PAID_RESERVE ?? Math.floor(v.BRANDBASE_QUEUE_MAX_DEPTH / 4),
    maxPerOrg,
    maxPerNewOrg: Math.min(maxPerOrg, v.BRANDBASE_QUEUE_MAX_PER_NEW_ORG ?? Math.max(1, Math.floor(maxPerOrg / 10))),
    maxPerClientId: Math.min(maxPerOrg, v.BRANDBASE_QUEUE_MAX_PER_CLIENT_ID ?? Math.max(1, Math.floor(maxPerOrg / 5))),
    newOrgAgeMs: v.BRANDBASE_QUEUE_NEW_ORG_AGE_MS,
    paidMinSpendCents: v.BRANDBASE_QUEUE_PAID_MIN_SPEND_CENTS,
  };
}

function crawling(v: ConfigValues): CrawlSettings {
  return {
    workerConcurrency: v.BRANDBASE_WORKER_CONCURRENCY,
    crawlTimeoutMs: v.BRANDBASE_CRAWL_TIMEOUT_MS,
    crawlIsolation: v.BRANDBASE_CRAWL_ISOLATION,
    // One more than the job pool: a live lookup still finds a worker while the pool is busy.
    crawlWorkers: v.BRANDBASE_CRAWL_WORKERS ?? v.BRANDBASE_WORKER_CONCURRENCY + 1,
    crawlMemoryMb: v.BRANDBASE_CRAWL_MEMORY_MB,
    crawlKillGraceMs: v.BRANDBASE_CRAWL_KILL_GRACE_MS,
    crawlFailureMemoryMs: v.BRANDBASE_CRAWL_FAILURE_MEMORY_MS,
    // A cap below the first memory would shorten it; it is raised to it instead.
    crawlFailureMemoryMaxMs: Math.max(v.BRANDBASE_CRAWL_FAILURE_MEMORY_MAX_MS, v.BRANDBASE_CRAWL_FAILURE_MEMORY_MS),
  };
}

/**
 * A lease shorter than a crawl's longest run (budget plus kill grace) would let a second worker claim a job the first
 * is still running: refused, so a fleet never crawls the same job twice at once (docs/deployment.md). Finished jobs
 * are kept BRANDBASE_JOB_RETENTION_DAYS (0: forever), what a support question about a crawl a week ago needs.
 */
function jobs(v: ConfigValues): Pick<Config, 'jobLeaseMs' | 'jobRetentionMs'> {
  const lease = v.BRANDBASE_JOB_LEASE_MS;
  const longest = v.BRANDBASE_CRAWL_TIMEOUT_MS + v.BRANDBASE_CRAWL_KILL_GRACE_MS;
  if (lease <= longest) throw new ConfigError(`BRANDBASE_JOB_LEASE_MS must be longer than BRANDBASE_CRAWL_TIMEOUT_MS + BRANDBASE_CRAWL_KILL_GRACE_MS (${longest}), got "${lease}"`);
  const days = v.BRANDBASE_JOB_RETENTION_DAYS;
  return { jobLeaseMs: lease, jobRetentionMs: days === 0 ? null : days * 86_400_000 };
}

/** Bounds on what a site can make a crawl parse and decode (docs/security.md; src/crawl/crawl-limits.ts). */
function crawlLimits(v: ConfigValues): Pick<Config, 'htmlMaxDepth' | 'htmlMaxElements' | 'htmlMaxAttributes' | 'cssMaxSheetBytes' | 'cssMaxTotalBytes' | 'cssMaxRules' | 'cssParseTimeMs' | 'imageMaxPixels' | 'imageMaxBytes' | 'htmlMaxBytes' | 'htmlMaxDownloadBytes' | 'bitmapMaxPixels'> {
  return {
    htmlMaxDepth: v.BRANDBASE_HTML_MAX_DEPTH,
    htmlMaxElements: v.BRANDBASE_HTML_MAX_ELEMENTS,
    htmlMaxAttributes: v.BRANDBASE_HTML_MAX_ATTRIBUTES,
    cssMaxSheetBytes: v.BRANDBASE_CSS_MAX_SHEET_BYTES,
    cssMaxTotalBytes: v.BRANDBASE_CSS_MAX_TOTAL_BYTES,
    cssMaxRules: v.BRANDBASE_CSS_MAX_RULES,
    cssParseTimeMs: v.BRANDBASE_CSS_PARSE_TIME_MS,
    imageMaxPixels: v.BRANDBASE_IMAGE_MAX_PIXELS,
    imageMaxBytes: v.BRANDBASE_IMAGE_MAX_BYTES,
    htmlMaxBytes: v.BRANDBASE_HTML_MAX_BYTES,
    htmlMaxDownloadBytes: v.BRANDBASE_HTML_MAX_DOWNLOAD_BYTES,
    bitmapMaxPixels: v.BRANDBASE_BITMAP_MAX_PIXELS,
  };
}

/** A minute's allowance smaller than one request's budget would refuse the costliest requests forever. */
function graphqlLimits(v: ConfigValues): Config['graphql'] {
  const maxCost = v.BRANDBASE_GRAPHQL_MAX_COST;
  const costPerMinute = v.BRANDBASE_GRAPHQL_COST_PER_MINUTE;
  if (costPerMinute !== 0 && costPerMinute < maxCost) {
    throw new ConfigError(`BRANDBASE_GRAPHQL_COST_PER_MINUTE must be 0 or at least BRANDBASE_GRAPHQL_MAX_COST (${maxCost}), got "${costPerMinute}"`);
  }
  return { maxCost, costPerMinute };
}
