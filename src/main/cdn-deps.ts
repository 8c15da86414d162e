import { LogoCdn } from '../cdn/logo-cdn.js';
import { VariantCache } from '../cdn/variant-cache.js';
import type { AssetStore, VariantStore } from '../assets/asset-store.js';
import type { ClientIdGate } from '../domain/client-ids.js';
import { NO_METRICS } from '../platform/metrics.js';
import type { CdnDeps } from '../http/cdn/cdn-deps.js';
import type { Services } from './services.js';

/**
 * The logo CDN's dependencies, from the services and the client-ID gate: one place, used by `serve` and the tests.
 * Variants are kept in the asset store's variant area (ADR 0034), so CDN processes sharing a store share them.
 */
export function cdnDepsFor(
  services: Pick<Services, 'config' | 'logger' | 'usecases' | 'svgRenderer' | 'variantBudget'> & Partial<Pick<Services, 'metrics'>> & { assets: AssetStore & VariantStore },
  gate: ClientIdGate,
): CdnDeps {
  const { cdn: settings, publicUrl } = services.config;
  // The variant area's budget counts what is already stored (a local store's files), in the background.
  void services.variantBudget.loadOnce().catch((err: unknown) => services.logger.warn({ err }, 'logo CDN: stored variants could not be listed; counting from now'));
  const variants = new VariantCache(services.assets, settings.memoryBytes, services.variantBudget);
  const cdn = new LogoCdn(services.usecases, services.assets, variants, {
    maxAgeSeconds: settings.maxAgeSeconds,
    fallbackMaxAgeSeconds: settings.fallbackMaxAgeSeconds,
    renderer: services.svgRenderer,
  });
  return { logger: services.logger, publicUrl, cdn, gate, path: settings.path, host: settings.host, metrics: services.metrics ?? NO_METRICS };
}
