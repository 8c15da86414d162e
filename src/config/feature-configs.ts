/**
 * The parts of `Config` that group a feature's settings, derived from the schema's values (config-schema.ts) with the
 * rules that span settings: defaults that depend on another setting, and combinations that cannot work.
 */
import { EMBEDDED_CARD_NETWORK } from '../domain/access-purchases.js';
import type { X402Settings } from '../domain/x402-settings.js';
import { EMBEDDED_PAY_TO, type ConfigValues } from './config-schema.js';
import { ConfigError } from './setting-types.js';

/** The x402 settings (domain/x402-settings.ts), whether payments are on, and MPP's (docs/configuration.md; ADR 0028). */
export interface PaymentsConfig extends X402Settings {
  /** Pay-per-request on (default) or off (a 402 then carries no payment challenge). */
  enabled: boolean;
  /** MPP (`WWW-Authenticate: Payment`, mppx evm method) on the embedded ledger; off with a remote facilitator. */
  mpp: boolean;
  /** HMAC key binding MPP challenges (at least 32 characters); null: a random key per process. */
  mppSecretKey: string | null;
  /** Card payments for standing access over MPP (mppx `stripe` method): spec 5.3 "over MPP also by card". */
  card: boolean;
  /** Stripe secret key: cards are charged by Stripe; null: by the embedded card processor (offline demos, tests). */
  stripeSecretKey: string | null;
  /** The Stripe business network profile id card challenges name (EMBEDDED_CARD_NETWORK without Stripe). */
  stripeNetworkId: string;
}

/** Logo CDN settings (docs/logo-cdn.md; ADR 0034): served by the API under `/logo`, on its own port, or for one host. */
export interface CdnConfig {
  /** Own listener's port (0: any free port); null: served by the API's listener. */
  port: number | null;
  /** Host name the CDN answers for on the API's listener (Fastify host constraint); null: any host. */
  host: string | null;
  /** Path prefix of every CDN URL: '' or `/something` (no trailing slash). */
  path: string;
  /** Public base of CDN URLs (records' CDN forms are rendered under it); no trailing slash. */
  baseUrl: string;
  /** Cache-Control max-age of a brand's logo, in seconds. */
  maxAgeSeconds: number;
  /** Cache-Control max-age of a fallback or 404, in seconds. */
  fallbackMaxAgeSeconds: number;
  /** Bytes of rendered variants kept in memory per process (the rest is read from the asset store). */
  memoryBytes: number;
  /** Bytes of variants kept in the asset store's variant area (least recently used deleted past it). */
  variantBudgetBytes: number;
  /** Variants of one brand in the variant area at most. */
  variantsPerBrand: number;
  /** The SVG render pool (cdn/svg-render-pool.ts, issue 33). */
  svgRender: { workers: number; queue: number; timeoutMs: number; memoryMb: number };
}

export interface ProductLimits {
  /** Requests per window per client ID, across all addresses. */
  perClientId: number;
  /** Requests per window per (client ID, IP address). */
  perIp: number;
  /** Monthly allowance per plan (soft). */
  allowanceFree: number;
  allowancePaid: number;
}

/** Client-ID products' limits (docs/search.md; ADR 0033). */
export interface ClientIdConfig {
  search: ProductLimits;
  logo: ProductLimits;
  /** The throughput window, in milliseconds (spec 8: 5 minutes). */
  windowMs: number;
  /** 429 `quota_exceeded` past allowance × this factor; between the two the request passes, marked over allowance. */
  hardLimitFactor: number;
  /** API processes sharing the traffic: each enforces 1/N of the throughput limits (ADR 0033). */
  apiProcesses: number;
  /** A client ID (and its organization's plan) is re-read after this long: revocations take effect within it. */
  cacheMs: number;
  /** A search answering later than this is cut off with 503 `temporarily_unavailable`. */
  searchTimeoutMs: number;
}

/** Webhook delivery (docs/webhooks.md "Delivery"; ADR 0031). */
export interface WebhookDeliveryConfig {
  /** IP addresses deliveries leave from, in turn (bound as the socket's local address); empty: the system's default. */
  sourceAddresses: readonly string[];
  /** Total time of one delivery attempt (connect, request, response head and excerpt). */
  timeoutMs: number;
  /** Deliveries one process sends at once (0: this process sends none; the fan-out still runs). */
  senders: number;
  /** Deliveries of one organization being sent at once, across every process (fairness between organizations). */
  sendsPerOrganization: number;
  /** Webhooks one organization may have (createWebhook refuses more). */
  webhooksPerOrganization: number;
  /** sendTestEvent calls one organization may make per minute. */
  testEventsPerMinute: number;
}

/** Scheduled refresh, the analysis cache and popularity counting (docs/refresh.md; ADR 0030). */
export interface RefreshConfig {
  /** Worker processes run the refresh scheduler (one leader per store at a time). */
  enabled: boolean;
  /** How often the leader looks for stale brands. */
  intervalMs: number;
  /** Refresh crawls queued per tick at most. */
  perTick: number;
  /** Refresh crawls queued or running at once at most (the queue never holds more of them). */
  maxActive: number;
  /** Content-hash analysis cache rows kept across all domains (least recently used evicted). */
  analysisCacheRows: number;
  /** How often an API process writes the lookups it counted to brand_popularity. */
  popularityFlushMs: number;
}

export interface S3Settings {
  bucket: string;
  /** Prepended to every object name: '' or ending with `/` (several installations can share one bucket). */
  prefix: string;
  /** An S3-compatible server's URL (MinIO, R2, s3rver…); null: AWS S3 of `region`. */
  endpoint: string | null;
  region: string;
  /** Null: the AWS SDK's default chain (AWS_* variables, shared config, instance or task role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  /** `https://endpoint/bucket/key` rather than `https://bucket.endpoint/key` (what most S3-compatible servers need). */
  forcePathStyle: boolean;
}

/** Where asset files live: the data folder, or an S3-compatible bucket a fleet shares (docs/deployment.md; ADR 0038). */
export interface AssetStoreConfig {
  backend: 'local' | 's3';
  /** Set when backend is `s3`. */
  s3: S3Settings | null;
}

/** Where `/metrics` is served (docs/deployment.md#metrics; ADR 0039): behind a token, or on a port of its own. */
export interface MetricsConfig {
  /** Bearer token `/metrics` on the API's listener requires; null: the API's listener does not serve it. */
  token: string | null;
  /** Port of a listener serving `/metrics`, `/healthz` and `/readyz` without a token (0: any free port); null: none. */
  port: number | null;
}

/** Leased credit blocks (docs/billing.md#credits-across-processes; ADR 0040). */
export interface CreditLeaseConfig {
  /** A lease not renewed for this long expires: the credits a crashed process held come back after it. */
  leaseMs: number;
  /** Credits a process leases at a time while plenty are left (near the limit, only what requests wait for). */
  block: number;
}

/** x402 and MPP; the defaults serve the embedded, offline case (Base Sepolia USDC, the embedded facilitator). */
export function paymentsConfig(v: ConfigValues): PaymentsConfig {
  const facilitatorUrl = v.BRANDBASE_X402_FACILITATOR_URL;
  if (facilitatorUrl !== null && v.BRANDBASE_X402_PAY_TO === null) throw new ConfigError('BRANDBASE_X402_PAY_TO is required with BRANDBASE_X402_FACILITATOR_URL: payments must reach your own address');
  const mpp = v.BRANDBASE_MPP ?? facilitatorUrl === null;
  if (mpp && facilitatorUrl !== null) throw new ConfigError('BRANDBASE_MPP=on settles on the embedded ledger only: unset BRANDBASE_X402_FACILITATOR_URL or set BRANDBASE_MPP=off');
  return {
    mpp,
    mppSecretKey: v.BRANDBASE_MPP_SECRET_KEY,
    ...cardSettings(v, mpp && facilitatorUrl === null),
    enabled: v.BRANDBASE_PAYMENTS,
    network: v.BRANDBASE_X402_NETWORK,
    asset: v.BRANDBASE_X402_ASSET,
    assetName: v.BRANDBASE_X402_ASSET_NAME,
    assetVersion: v.BRANDBASE_X402_ASSET_VERSION,
    payTo: v.BRANDBASE_X402_PAY_TO ?? EMBEDDED_PAY_TO,
    priceUnits: BigInt(v.BRANDBASE_X402_PRICE_UNITS),
    maxTimeoutSeconds: v.BRANDBASE_X402_MAX_TIMEOUT_SECONDS,
    facilitatorUrl,
  };
}

/**
 * Card payments (standing access only): on by default wherever they can be taken, i.e. with a Stripe secret key,
 * or offline (MPP on the embedded ledger) with the embedded card processor.
 */
function cardSettings(v: ConfigValues, embeddedPossible: boolean): Pick<PaymentsConfig, 'card' | 'stripeSecretKey' | 'stripeNetworkId'> {
  const stripeSecretKey = v.BRANDBASE_MPP_STRIPE_SECRET_KEY;
  const card = v.BRANDBASE_MPP_CARD ?? (stripeSecretKey !== null || embeddedPossible);
  if (card && stripeSecretKey === null && !embeddedPossible) {
    throw new ConfigError('BRANDBASE_MPP_CARD=on needs BRANDBASE_MPP_STRIPE_SECRET_KEY, or the embedded card processor (BRANDBASE_MPP=on without BRANDBASE_X402_FACILITATOR_URL)');
  }
  const networkId = v.BRANDBASE_MPP_STRIPE_NETWORK_ID;
  if (card && stripeSecretKey !== null && networkId === null) throw new ConfigError('BRANDBASE_MPP_STRIPE_NETWORK_ID is required with BRANDBASE_MPP_STRIPE_SECRET_KEY (your Stripe business network profile id)');
  return { card, stripeSecretKey, stripeNetworkId: networkId ?? EMBEDDED_CARD_NETWORK };
}

/** `publicUrl`: the API's public URL (no trailing slash), the base of CDN URLs when the API serves them. */
export function cdnConfig(v: ConfigValues, publicUrl: string): CdnConfig {
  const port = v.BRANDBASE_CDN_PORT;
  const host = v.BRANDBASE_CDN_HOST?.toLowerCase() ?? null;
  // Under the API's own paths the CDN needs a prefix; on its own port or host name it can own the root.
  const path = v.BRANDBASE_CDN_PATH ?? (port === null && host === null ? '/logo' : '');
  const defaultBase = port !== null ? `http://localhost:${port}${path}` : host !== null ? `${new URL(publicUrl).protocol}//${host}${path}` : `${publicUrl}${path}`;
  return {
    port,
    host,
    path,
    baseUrl: v.BRANDBASE_CDN_BASE_URL ?? defaultBase.replace(/\/+$/, ''),
    maxAgeSeconds: v.BRANDBASE_CDN_MAX_AGE,
    fallbackMaxAgeSeconds: v.BRANDBASE_CDN_FALLBACK_MAX_AGE,
    memoryBytes: v.BRANDBASE_CDN_MEMORY_MB * 1024 * 1024,
    variantBudgetBytes: v.BRANDBASE_CDN_VARIANT_BUDGET_MB * 1024 * 1024,
    variantsPerBrand: v.BRANDBASE_CDN_VARIANTS_PER_BRAND,
    svgRender: {
      workers: v.BRANDBASE_SVG_RENDER_WORKERS,
      queue: v.BRANDBASE_SVG_RENDER_QUEUE,
      timeoutMs: v.BRANDBASE_SVG_RENDER_TIMEOUT_MS,
      memoryMb: v.BRANDBASE_SVG_RENDER_MEMORY_MB,
    },
  };
}

export function clientIdConfig(v: ConfigValues): ClientIdConfig {
  return {
    search: {
      perClientId: v.BRANDBASE_SEARCH_RATE_PER_CLIENT_ID,
      perIp: v.BRANDBASE_SEARCH_RATE_PER_IP,
      allowanceFree: v.BRANDBASE_SEARCH_ALLOWANCE_FREE,
      allowancePaid: v.BRANDBASE_SEARCH_ALLOWANCE_PAID,
    },
    logo: {
      perClientId: v.BRANDBASE_LOGO_RATE_PER_CLIENT_ID,
      perIp: v.BRANDBASE_LOGO_RATE_PER_IP,
      allowanceFree: v.BRANDBASE_LOGO_ALLOWANCE_FREE,
      allowancePaid: v.BRANDBASE_LOGO_ALLOWANCE_PAID,
    },
    windowMs: v.BRANDBASE_CLIENT_ID_RATE_WINDOW_MS,
    hardLimitFactor: v.BRANDBASE_CLIENT_ID_HARD_LIMIT_FACTOR,
    apiProcesses: v.BRANDBASE_API_PROCESSES,
    cacheMs: v.BRANDBASE_CLIENT_ID_CACHE_MS,
    searchTimeoutMs: v.BRANDBASE_SEARCH_TIMEOUT_MS,
  };
}

export function webhookDeliveryConfig(v: ConfigValues): WebhookDeliveryConfig {
  return {
    sourceAddresses: v.BRANDBASE_WEBHOOK_SOURCE_ADDRESSES,
    timeoutMs: v.BRANDBASE_WEBHOOK_TIMEOUT_MS,
    senders: v.BRANDBASE_WEBHOOK_SENDERS,
    sendsPerOrganization: v.BRANDBASE_WEBHOOK_SENDS_PER_ORG,
    webhooksPerOrganization: v.BRANDBASE_WEBHOOKS_PER_ORG,
    testEventsPerMinute: v.BRANDBASE_WEBHOOK_TESTS_PER_MINUTE,
  };
}

export function refreshConfig(v: ConfigValues): RefreshConfig {
  return {
    enabled: v.BRANDBASE_REFRESH,
    intervalMs: v.BRANDBASE_REFRESH_INTERVAL_MS,
    perTick: v.BRANDBASE_REFRESH_PER_TICK,
    maxActive: v.BRANDBASE_REFRESH_MAX_ACTIVE,
    analysisCacheRows: v.BRANDBASE_ANALYSIS_CACHE_ROWS,
    popularityFlushMs: v.BRANDBASE_POPULARITY_FLUSH_MS,
  };
}

/** The S3 settings count only with BRANDBASE_ASSET_STORE=s3, which needs a bucket and both halves of a key or neither. */
export function assetStoreConfig(v: ConfigValues): AssetStoreConfig {
  if (v.BRANDBASE_ASSET_STORE === 'local') return { backend: 'local', s3: null };
  if (v.BRANDBASE_S3_BUCKET === null) throw new ConfigError('BRANDBASE_S3_BUCKET is required when BRANDBASE_ASSET_STORE=s3');
  const accessKeyId = v.BRANDBASE_S3_ACCESS_KEY_ID;
  const secretAccessKey = v.BRANDBASE_S3_SECRET_ACCESS_KEY;
  if ((accessKeyId === null) !== (secretAccessKey === null)) throw new ConfigError('BRANDBASE_S3_ACCESS_KEY_ID and BRANDBASE_S3_SECRET_ACCESS_KEY must be set together');
  const endpoint = v.BRANDBASE_S3_ENDPOINT;
  return {
    backend: 's3',
    s3: Object.freeze({
      bucket: v.BRANDBASE_S3_BUCKET,
      prefix: v.BRANDBASE_S3_PREFIX,
      endpoint,
      region: v.BRANDBASE_S3_REGION,
      credentials: accessKeyId !== null && secretAccessKey !== null ? { accessKeyId, secretAccessKey } : null,
      // S3-compatible servers (MinIO, s3rver) mostly need path-style addressing; AWS S3 prefers virtual hosts.
      forcePathStyle: v.BRANDBASE_S3_FORCE_PATH_STYLE ?? endpoint !== null,
    }),
  };
}

export function metricsConfig(v: ConfigValues): MetricsConfig {
  return { token: v.BRANDBASE_METRICS_TOKEN, port: v.BRANDBASE_METRICS_PORT };
}

export function creditLeaseConfig(v: ConfigValues): CreditLeaseConfig {
  return { leaseMs: v.BRANDBASE_CREDIT_LEASE_MS, block: v.BRANDBASE_CREDIT_BLOCK };
}
