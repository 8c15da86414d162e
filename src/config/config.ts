/**
 * The only reader of the environment. Every setting has a default that serves the embedded case and a line in
 * docs/configuration.md (test/docs/configuration-doc.test.ts checks that each name below is documented).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadPaymentsConfig, PAYMENT_ENV_VARS, type PaymentsConfig } from './payments-config.js';
import { CDN_ENV_VARS, loadCdnConfig, type CdnConfig } from './cdn-config.js';
import { CLIENT_ID_ENV_VARS, loadClientIdConfig, type ClientIdConfig } from './client-id-config.js';
import { WEBHOOK_DELIVERY_ENV_VARS, loadWebhookDeliveryConfig, type WebhookDeliveryConfig } from './webhook-delivery-config.js';
import { REFRESH_ENV_VARS, loadRefreshConfig, type RefreshConfig } from './refresh-config.js';
import { ASSET_STORE_ENV_VARS, loadAssetStoreConfig, type AssetStoreConfig } from './asset-store-config.js';
import { METRICS_ENV_VARS, loadMetricsConfig, type MetricsConfig } from './metrics-config.js';
import { CREDIT_LEASE_ENV_VARS, loadCreditLeaseConfig, type CreditLeaseConfig } from './credit-lease-config.js';

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
  /** Pay-per-request (x402) settings: payments-config.ts. */
  payments: PaymentsConfig;
  /** Logo CDN settings: cdn-config.ts (docs/logo-cdn.md). */
  cdn: CdnConfig;
  /** Client IDs, search and logo limits and allowances: client-id-config.ts (docs/search.md). */
  clientIds: ClientIdConfig;
  /** Webhook delivery: source addresses, attempt timeout, senders per process (webhook-delivery-config.ts). */
  webhookDelivery: WebhookDeliveryConfig;
  /** Scheduled refresh, analysis cache and popularity counting: refresh-config.ts (docs/refresh.md). */
  refresh: RefreshConfig;
  /** Where asset files live: the local folder or an S3-compatible bucket (asset-store-config.ts, ADR 0038). */
  assetStore: AssetStoreConfig;
  /** Where `/metrics` is served: behind a bearer token on the API's listener, or on its own port (metrics-config.ts, ADR 0039). */
  metrics: MetricsConfig;
  /** Leased credit blocks: lease timeout and block size (credit-lease-config.ts, ADR 0040). */
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

/** Every environment variable Config reads, with its default as documented. */
export const ENV_VARS = [
  'PORT',
  'HOST',
  'BRANDBASE_CONFIG_FILE',
  'BRANDBASE_DATA_DIR',
  'BRANDBASE_PUBLIC_URL',
  'BRANDBASE_ASSET_BASE_URL',
  'BRANDBASE_CRAWL_HOSTS',
  'BRANDBASE_OPERATOR_DOMAIN',
  'BRANDBASE_DATABASE_URL',
  'BRANDBASE_SECRET_KEY',
  'BRANDBASE_LOG_LEVEL',
  'BRANDBASE_WORKER_CONCURRENCY',
  'BRANDBASE_CRAWL_TIMEOUT_MS',
  'BRANDBASE_CRAWL_ISOLATION',
  'BRANDBASE_CRAWL_WORKERS',
  'BRANDBASE_CRAWL_MEMORY_MB',
  'BRANDBASE_CRAWL_KILL_GRACE_MS',
  'BRANDBASE_CRAWL_FAILURE_MEMORY_MS',
  'BRANDBASE_CRAWL_FAILURE_MEMORY_MAX_MS',
  'BRANDBASE_QUEUE_MAX_DEPTH',
  'BRANDBASE_QUEUE_MAX_PER_ORG',
  'BRANDBASE_PREFETCH_PER_MINUTE',
  'BRANDBASE_KEY_CACHE_MS',
  'BRANDBASE_KEY_CACHE_MB',
  'BRANDBASE_BRAND_CACHE_MB',
  'BRANDBASE_CACHE_SYNC_MS',
  'BRANDBASE_DEFAULT_FREE_QUOTA',
  'BRANDBASE_DEFAULT_PAID_QUOTA',
  'BRANDBASE_SHUTDOWN_GRACE_MS',
  'BRANDBASE_JOB_LEASE_MS',
  'BRANDBASE_JOB_RETENTION_DAYS',
  'BRANDBASE_REFRESH_AGE_DAYS',
  'BRANDBASE_CHROMIUM_PATH',
  'BRANDBASE_BATCH_ITEM_TIMEOUT_MS',
  'BRANDBASE_BATCH_MAX_RESPONSE_BYTES',
  'BRANDBASE_PALETTE_BUDGET_MS',
  'BRANDBASE_PALETTE_RENDER',
  'BRANDBASE_DISCARD_BODY_MAX_BYTES',
  'BRANDBASE_SMTP_URL',
  'BRANDBASE_MAIL_FROM',
  'BRANDBASE_SESSION_SECRET',
  'BRANDBASE_TRUST_PROXY',
  'BRANDBASE_RATE_LIMIT_PER_MINUTE',
  'BRANDBASE_OVERAGE_SPENDING_LIMIT_CENTS',
  'BRANDBASE_HTML_MAX_DEPTH',
  'BRANDBASE_HTML_MAX_ELEMENTS',
  'BRANDBASE_HTML_MAX_ATTRIBUTES',
  'BRANDBASE_HTML_MAX_BYTES',
  'BRANDBASE_HTML_MAX_DOWNLOAD_BYTES',
  'BRANDBASE_IMAGE_MAX_BYTES',
  'BRANDBASE_CSS_MAX_SHEET_BYTES',
  'BRANDBASE_CSS_MAX_TOTAL_BYTES',
  'BRANDBASE_CSS_MAX_RULES',
  'BRANDBASE_CSS_PARSE_TIME_MS',
  'BRANDBASE_IMAGE_MAX_PIXELS',
  'BRANDBASE_BITMAP_MAX_PIXELS',
  ...PAYMENT_ENV_VARS,
  ...CDN_ENV_VARS,
  ...CLIENT_ID_ENV_VARS,
  ...WEBHOOK_DELIVERY_ENV_VARS,
  ...REFRESH_ENV_VARS,
  ...ASSET_STORE_ENV_VARS,
  ...METRICS_ENV_VARS,
  ...CREDIT_LEASE_ENV_VARS,
] as const;

/**
 * The Brandbase installation (the checkout `npm ci` ran in). `src/config/` and the built program's `dist/<folder>/`
 * are both two levels below it. The default data folder lives here, not in the current folder, so the CLI run from
 * any folder opens the store the server uses (docs/configuration.md).
 */
export const INSTALL_DIR = fileURLToPath(new URL('../../', import.meta.url));

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

function integer(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new ConfigError(`${name} must be an integer >= ${min}, got "${raw}"`);
  return value;
}

function text(env: Env, name: string): string | null {
  const raw = env[name]?.trim();
  return raw ? raw : null;
}

/** At least 32 characters: a session signing key must not be guessable. */
function sessionSecret(env: Env): string | null {
  const secret = text(env, 'BRANDBASE_SESSION_SECRET');
  if (secret !== null && secret.length < 32) throw new ConfigError('BRANDBASE_SESSION_SECRET must be at least 32 characters');
  return secret;
}

/** `true`, or addresses/CIDRs separated by commas; empty: no proxy is trusted. */
function trustProxy(env: Env): boolean | string[] {
  const raw = text(env, 'BRANDBASE_TRUST_PROXY');
  if (raw === null || raw === 'false') return false;
  if (raw === 'true') return true;
  const list = raw.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  if (list.some((entry) => !/^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(entry))) {
    throw new ConfigError(`BRANDBASE_TRUST_PROXY must be true or addresses/CIDRs separated by commas, got "${raw}"`);
  }
  return list;
}

export function parseHostMap(raw: string | null): Record<string, string> {
  if (!raw) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError('BRANDBASE_CRAWL_HOSTS must be a JSON object such as {"acme.test":"127.0.0.1:4101"}');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ConfigError('BRANDBASE_CRAWL_HOSTS must be a JSON object');
  }
  const map: Record<string, string> = {};
  for (const [host, target] of Object.entries(parsed)) {
    if (typeof target !== 'string' || !/^[0-9a-f.:[\]]+:\d{1,5}$/i.test(target)) {
      throw new ConfigError(`BRANDBASE_CRAWL_HOSTS: "${host}" must map to "ip:port"`);
    }
    map[host.toLowerCase()] = target;
  }
  return map;
}

/** BRANDBASE_ASSET_BASE_URL, or the API's own `/assets/`; always ending with `/` so a key is appended as is. */
function assetBaseUrl(env: Env, publicUrl: string): string {
  const raw = text(env, 'BRANDBASE_ASSET_BASE_URL');
  if (raw === null) return `${publicUrl}/assets/`;
  const protocol = URL.canParse(raw) ? new URL(raw).protocol : null;
  if (protocol !== 'http:' && protocol !== 'https:') throw new ConfigError(`BRANDBASE_ASSET_BASE_URL must be an http(s) URL, got "${raw}"`);
  return raw.endsWith('/') ? raw : `${raw}/`;
}

/** An `on`/`off` switch. */
function onOff(env: Env, name: string, fallback: boolean): boolean {
  const raw = text(env, name);
  if (raw === null) return fallback;
  if (raw !== 'on' && raw !== 'off') throw new ConfigError(`${name} must be on or off, got "${raw}"`);
  return raw === 'on';
}

function crawlIsolation(env: Env): Config['crawlIsolation'] {
  const raw = text(env, 'BRANDBASE_CRAWL_ISOLATION') ?? 'process';
  if (raw !== 'process' && raw !== 'thread' && raw !== 'off') throw new ConfigError(`BRANDBASE_CRAWL_ISOLATION must be process, thread or off, got "${raw}"`);
  return raw;
}

/**
 * A lease shorter than a crawl's longest run (budget plus kill grace) would let a second worker claim a job the first
 * is still running: refused, so a fleet never crawls the same job twice at once (docs/deployment.md).
 */
function jobLeaseMs(env: Env): number {
  const lease = integer(env, 'BRANDBASE_JOB_LEASE_MS', 120_000, 1000);
  const longest = integer(env, 'BRANDBASE_CRAWL_TIMEOUT_MS', 20_000, 1000) + integer(env, 'BRANDBASE_CRAWL_KILL_GRACE_MS', 5000, 0);
  if (lease <= longest) throw new ConfigError(`BRANDBASE_JOB_LEASE_MS must be longer than BRANDBASE_CRAWL_TIMEOUT_MS + BRANDBASE_CRAWL_KILL_GRACE_MS (${longest}), got "${lease}"`);
  return lease;
}

/** Days finished jobs are kept (0: forever); what a support question about a crawl a week ago needs. */
function jobRetentionMs(env: Env): number | null {
  const days = integer(env, 'BRANDBASE_JOB_RETENTION_DAYS', 7, 0);
  return days === 0 ? null : days * 86_400_000;
}

export function loadConfig(env: Env = process.env): Readonly<Config> {
  const port = integer(env, 'PORT', 8787);
  const dataDir = path.resolve(text(env, 'BRANDBASE_DATA_DIR') ?? path.join(INSTALL_DIR, 'data'));
  const publicUrl = (text(env, 'BRANDBASE_PUBLIC_URL') ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const operator = text(env, 'BRANDBASE_OPERATOR_DOMAIN');
  return Object.freeze({
    port,
    host: text(env, 'HOST') ?? '0.0.0.0',
    dataDir,
    publicUrl,
    assetBaseUrl: assetBaseUrl(env, publicUrl),
    crawlHosts: Object.freeze(parseHostMap(text(env, 'BRANDBASE_CRAWL_HOSTS'))),
    operatorDomain: operator ? operator.toLowerCase() : null,
    databaseUrl: text(env, 'BRANDBASE_DATABASE_URL'),
    logLevel: text(env, 'BRANDBASE_LOG_LEVEL') ?? 'info',
    workerConcurrency: integer(env, 'BRANDBASE_WORKER_CONCURRENCY', 2),
    crawlTimeoutMs: integer(env, 'BRANDBASE_CRAWL_TIMEOUT_MS', 20_000, 1000),
    crawlIsolation: crawlIsolation(env),
    crawlWorkers: integer(env, 'BRANDBASE_CRAWL_WORKERS', integer(env, 'BRANDBASE_WORKER_CONCURRENCY', 2) + 1, 1),
    crawlMemoryMb: integer(env, 'BRANDBASE_CRAWL_MEMORY_MB', 512, 256),
    crawlKillGraceMs: integer(env, 'BRANDBASE_CRAWL_KILL_GRACE_MS', 5000, 0),
    crawlFailureMemoryMs: integer(env, 'BRANDBASE_CRAWL_FAILURE_MEMORY_MS', 60_000),
    // A cap below the first memory would shorten it; it is raised to it instead.
    crawlFailureMemoryMaxMs: Math.max(integer(env, 'BRANDBASE_CRAWL_FAILURE_MEMORY_MAX_MS', 6 * 3_600_000), integer(env, 'BRANDBASE_CRAWL_FAILURE_MEMORY_MS', 60_000)),
    queueMaxDepth: integer(env, 'BRANDBASE_QUEUE_MAX_DEPTH', 1000, 1),
    queueMaxPerOrg: integer(env, 'BRANDBASE_QUEUE_MAX_PER_ORG', 100, 1),
    prefetchPerMinute: integer(env, 'BRANDBASE_PREFETCH_PER_MINUTE', 600),
    keyCacheMs: integer(env, 'BRANDBASE_KEY_CACHE_MS', 5000),
    keyCacheMb: integer(env, 'BRANDBASE_KEY_CACHE_MB', 8),
    brandCacheMb: integer(env, 'BRANDBASE_BRAND_CACHE_MB', 256),
    cacheSyncMs: integer(env, 'BRANDBASE_CACHE_SYNC_MS', 1000, 10),
    defaultFreeQuota: integer(env, 'BRANDBASE_DEFAULT_FREE_QUOTA', 500),
    defaultPaidQuota: integer(env, 'BRANDBASE_DEFAULT_PAID_QUOTA', 10_000),
    shutdownGraceMs: integer(env, 'BRANDBASE_SHUTDOWN_GRACE_MS', 25_000, 0),
    jobLeaseMs: jobLeaseMs(env),
    jobRetentionMs: jobRetentionMs(env),
    refreshAgeDays: integer(env, 'BRANDBASE_REFRESH_AGE_DAYS', 30, 1),
    chromiumPath: text(env, 'BRANDBASE_CHROMIUM_PATH'),
    batchItemTimeoutMs: integer(env, 'BRANDBASE_BATCH_ITEM_TIMEOUT_MS', 2000, 1),
    batchResponseMaxBytes: integer(env, 'BRANDBASE_BATCH_MAX_RESPONSE_BYTES', 8 * 1024 * 1024, 1024),
    paletteBudgetMs: integer(env, 'BRANDBASE_PALETTE_BUDGET_MS', 3000, 0),
    paletteRender: onOff(env, 'BRANDBASE_PALETTE_RENDER', true),
    discardBodyMaxBytes: integer(env, 'BRANDBASE_DISCARD_BODY_MAX_BYTES', 16 * 1024 * 1024, 0),
    smtpUrl: text(env, 'BRANDBASE_SMTP_URL'),
    mailFrom: text(env, 'BRANDBASE_MAIL_FROM') ?? 'Brandbase <billing@localhost>',
    rateLimitPerMinute: integer(env, 'BRANDBASE_RATE_LIMIT_PER_MINUTE', 60_000),
    overageSpendingLimitCents: integer(env, 'BRANDBASE_OVERAGE_SPENDING_LIMIT_CENTS', 10_000),
    htmlMaxDepth: integer(env, 'BRANDBASE_HTML_MAX_DEPTH', 512, 8),
    htmlMaxElements: integer(env, 'BRANDBASE_HTML_MAX_ELEMENTS', 50_000, 16),
    htmlMaxAttributes: integer(env, 'BRANDBASE_HTML_MAX_ATTRIBUTES', 256, 1),
    cssMaxSheetBytes: integer(env, 'BRANDBASE_CSS_MAX_SHEET_BYTES', 1024 * 1024, 1024),
    cssMaxTotalBytes: integer(env, 'BRANDBASE_CSS_MAX_TOTAL_BYTES', 4 * 1024 * 1024, 1024),
    cssMaxRules: integer(env, 'BRANDBASE_CSS_MAX_RULES', 50_000, 1),
    cssParseTimeMs: integer(env, 'BRANDBASE_CSS_PARSE_TIME_MS', 1000, 1),
    imageMaxPixels: integer(env, 'BRANDBASE_IMAGE_MAX_PIXELS', 40_000_000, 256),
    imageMaxBytes: integer(env, 'BRANDBASE_IMAGE_MAX_BYTES', 5 * 1024 * 1024, 1024),
    htmlMaxBytes: integer(env, 'BRANDBASE_HTML_MAX_BYTES', 2 * 1024 * 1024, 1024),
    htmlMaxDownloadBytes: integer(env, 'BRANDBASE_HTML_MAX_DOWNLOAD_BYTES', 5 * 1024 * 1024, 1024),
    bitmapMaxPixels: integer(env, 'BRANDBASE_BITMAP_MAX_PIXELS', 1024 * 1024, 256),
    payments: Object.freeze(loadPaymentsConfig(env)),
    cdn: Object.freeze(loadCdnConfig(env, publicUrl)),
    clientIds: Object.freeze(loadClientIdConfig(env)),
    webhookDelivery: Object.freeze(loadWebhookDeliveryConfig(env)),
    refresh: Object.freeze(loadRefreshConfig(env)),
    assetStore: Object.freeze(loadAssetStoreConfig(env)),
    metrics: Object.freeze(loadMetricsConfig(env)),
    creditLeases: Object.freeze(loadCreditLeaseConfig(env)),
    secretKey: text(env, 'BRANDBASE_SECRET_KEY'),
    sessionSecret: sessionSecret(env),
    trustProxy: trustProxy(env),
  });
}
