import type { AppDeps, GraphqlCostLimits } from '../http/app-deps.js';
import { RateLimiter } from '../billing/rate-limiter.js';
import { docUrl } from '../http/doc-urls.js';
import { noStandingAccess } from '../payments/standing-access.js';
import { cdnDepsFor } from './cdn-deps.js';
import { credentialPayersFor } from './credential-payers.js';
import { mcpDepsFor } from './mcp-deps.js';
import { brandPageDepsFor } from './brand-page-deps.js';
import { orgPagesDepsFor } from './org-pages-deps.js';
import type { Services } from './services.js';

/**
 * The HTTP layer's dependencies, taken from the services: one place, used by `serve` and by the tests. `clock` is the
 * time of the limits kept here (the public brand search's per-address limits, the GraphQL cost per minute); tests
 * hold it still so that a slow machine cannot refill them.
 */
export function appDepsFor(services: Services, clock: () => number = Date.now): AppDeps {
  return {
    logger: services.logger,
    publicUrl: services.config.publicUrl,
    trustProxy: services.config.trustProxy,
    credentials: credentialPayersFor(services),
    orgUsage: services.billing,
    usecases: services.usecases,
    assets: services.assets,
    ping: () => services.backends.ping(),
    pingQueue: async () => void (await services.queue.depth()),
    metrics: { registry: services.metrics, token: services.config.metrics.token },
    discardBodyMaxBytes: services.config.discardBodyMaxBytes,
    access: services.access ?? noStandingAccess(docUrl(services.config.publicUrl, 'standingAccess')),
    webhooks: services.webhooks,
    corrections: services.merchantCorrections,
    graphql: graphqlCostLimits(services, clock),
    search: { gate: services.clientIdGate, brands: services.brandSearch },
    // The logo CDN rides on the API's listener unless it has its own port (BRANDBASE_CDN_PORT: serve.ts starts it).
    cdn: services.config.cdn.port === null ? cdnDepsFor(services, services.clientIdGate) : null,
    mcp: mcpDepsFor(services),
    brandPages: brandPageDepsFor(services, clock),
    dashboard: services.dashboardAccounts,
    accounts: services.accounts,
    orgPages: orgPagesDepsFor(services),
  };
}

/** The GraphQL cost budget per request, and the per-organization cost per minute: a token bucket in this process. */
function graphqlCostLimits(services: Services, clock: () => number): GraphqlCostLimits {
  const { maxCost, costPerMinute } = services.config.graphql;
  const buckets = new RateLimiter(clock);
  return { maxCost, spend: (orgId, cost) => buckets.takeOrWait(orgId, costPerMinute, cost) };
}
