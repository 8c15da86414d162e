/**
 * Client-ID products' settings (docs/configuration.md, "Client IDs and search"; docs/search.md; ADR 0033): the
 * throughput limits of search and the logo CDN per client ID and per IP address, the monthly allowances per plan,
 * the hard ceiling past the (soft) allowance, and the search time budget.
 */
import type { ClientIdProduct } from '../domain/client-ids.js';

class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

export interface ProductLimits {
  /** Requests per window per client ID, across all addresses. */
  perClientId: number;
  /** Requests per window per (client ID, IP address). */
  perIp: number;
  /** Monthly allowance per plan (soft). */
  allowanceFree: number;
  allowancePaid: number;
}

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

export const CLIENT_ID_ENV_VARS = [
  'BRANDBASE_SEARCH_RATE_PER_CLIENT_ID',
  'BRANDBASE_SEARCH_RATE_PER_IP',
  'BRANDBASE_SEARCH_ALLOWANCE_FREE',
  'BRANDBASE_SEARCH_ALLOWANCE_PAID',
  'BRANDBASE_LOGO_RATE_PER_CLIENT_ID',
  'BRANDBASE_LOGO_RATE_PER_IP',
  'BRANDBASE_LOGO_ALLOWANCE_FREE',
  'BRANDBASE_LOGO_ALLOWANCE_PAID',
  'BRANDBASE_CLIENT_ID_RATE_WINDOW_MS',
  'BRANDBASE_CLIENT_ID_HARD_LIMIT_FACTOR',
  'BRANDBASE_API_PROCESSES',
  'BRANDBASE_CLIENT_ID_CACHE_MS',
  'BRANDBASE_SEARCH_TIMEOUT_MS',
] as const;

function integer(env: Env, name: string, fallback: number, min: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min) throw new ConfigError(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return n;
}

function product(env: Env, name: 'SEARCH' | 'LOGO', defaults: ProductLimits): ProductLimits {
  return {
    perClientId: integer(env, `BRANDBASE_${name}_RATE_PER_CLIENT_ID`, defaults.perClientId, 1),
    perIp: integer(env, `BRANDBASE_${name}_RATE_PER_IP`, defaults.perIp, 1),
    allowanceFree: integer(env, `BRANDBASE_${name}_ALLOWANCE_FREE`, defaults.allowanceFree, 0),
    allowancePaid: integer(env, `BRANDBASE_${name}_ALLOWANCE_PAID`, defaults.allowancePaid, 0),
  };
}

export function loadClientIdConfig(env: Env): ClientIdConfig {
  return {
    // Spec 8: 6,000 per 5 minutes per client ID plus 200 per address; 500,000 a month free, 1 to 5 million paid.
    search: product(env, 'SEARCH', { perClientId: 6000, perIp: 200, allowanceFree: 500_000, allowancePaid: 1_000_000 }),
    // Not in the spec: a page shows many logos at once, so ten times search's throughput and two times its volume.
    logo: product(env, 'LOGO', { perClientId: 60_000, perIp: 2000, allowanceFree: 1_000_000, allowancePaid: 10_000_000 }),
    windowMs: integer(env, 'BRANDBASE_CLIENT_ID_RATE_WINDOW_MS', 300_000, 1000),
    hardLimitFactor: integer(env, 'BRANDBASE_CLIENT_ID_HARD_LIMIT_FACTOR', 2, 1),
    apiProcesses: integer(env, 'BRANDBASE_API_PROCESSES', 1, 1),
    cacheMs: integer(env, 'BRANDBASE_CLIENT_ID_CACHE_MS', 5000, 0),
    searchTimeoutMs: integer(env, 'BRANDBASE_SEARCH_TIMEOUT_MS', 2000, 1),
  };
}

export function limitsFor(config: ClientIdConfig, p: ClientIdProduct): ProductLimits {
  return p === 'search' ? config.search : config.logo;
}
