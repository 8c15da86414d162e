import type { AppDeps } from '../http/app-deps.js';
import type { Services } from './services.js';

/** The HTTP layer's dependencies, taken from the services: one place, used by `serve` and by the tests. */
export function appDepsFor(services: Services): AppDeps {
  const { config } = services;
  return {
    logger: services.logger,
    publicUrl: config.publicUrl,
    operatorDomain: config.operatorDomain,
    authenticator: services.authenticator,
    billing: services.billing,
    lookup: services.lookup,
    batch: services.batch,
    scheduler: services.scheduler,
    assets: services.assets,
    batchItemTimeoutMs: config.batchItemTimeoutMs,
    batchResponseMaxBytes: config.batchResponseMaxBytes,
    ping: () => services.store.ping(),
  };
}
