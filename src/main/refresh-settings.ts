import { refreshAgeMs } from '../brands/refresh.js';
import type { RefreshSettings } from '../brands/refresh-scheduler.js';
import type { Config } from '../config/config.js';

/**
 * The refresh scheduler's settings from the configuration: one derivation for the worker processes (services.ts)
 * and `brandbase refresh` alike. Refresh crawls keep to half the backlog, as palette renders do: prefetches and
 * batch misses keep the rest.
 */
export function refreshSettingsFor(config: Readonly<Config>): RefreshSettings {
  return {
    maxAgeMs: refreshAgeMs(config.refreshAgeDays),
    intervalMs: config.refresh.intervalMs,
    perTick: config.refresh.perTick,
    maxActive: config.refresh.maxActive,
    maxDepth: Math.max(1, Math.floor(config.queueMaxDepth / 2)),
    failurePauseMs: config.crawlFailureMemoryMaxMs,
  };
}
