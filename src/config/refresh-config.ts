/**
 * Scheduled refresh, the analysis cache and popularity counting (docs/configuration.md "Refresh"; docs/refresh.md;
 * ADR 0030). The refresh age itself is BRANDBASE_REFRESH_AGE_DAYS in config.ts (the crawl command reads it too).
 */

/** Reported like config.ts's ConfigError (the CLI prints it as a user error by its name). */
class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

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

export const REFRESH_ENV_VARS = [
  'BRANDBASE_REFRESH',
  'BRANDBASE_REFRESH_INTERVAL_MS',
  'BRANDBASE_REFRESH_PER_TICK',
  'BRANDBASE_REFRESH_MAX_ACTIVE',
  'BRANDBASE_ANALYSIS_CACHE_ROWS',
  'BRANDBASE_POPULARITY_FLUSH_MS',
] as const;

function whole(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min || value > max) throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got ${raw}`);
  return value;
}

function onOff(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (raw !== 'on' && raw !== 'off') throw new ConfigError(`${name} must be on or off, got "${raw}"`);
  return raw === 'on';
}

export function loadRefreshConfig(env: Env): RefreshConfig {
  return {
    enabled: onOff(env, 'BRANDBASE_REFRESH', true),
    intervalMs: whole(env, 'BRANDBASE_REFRESH_INTERVAL_MS', 60_000, 1_000, 86_400_000),
    perTick: whole(env, 'BRANDBASE_REFRESH_PER_TICK', 20, 1, 10_000),
    maxActive: whole(env, 'BRANDBASE_REFRESH_MAX_ACTIVE', 50, 1, 100_000),
    analysisCacheRows: whole(env, 'BRANDBASE_ANALYSIS_CACHE_ROWS', 200_000, 0, 100_000_000),
    popularityFlushMs: whole(env, 'BRANDBASE_POPULARITY_FLUSH_MS', 5_000, 10, 3_600_000),
  };
}
