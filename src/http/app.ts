import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { AppDeps } from './app-deps.js';
import { BODY_MAX_BYTES, installBodyLimit, requestBodies, type BodyLimits } from './body-limit.js';
import { clientErrorHandler, frameworkErrors } from './client-errors.js';
import { installErrorHandling } from './error-handler.js';
import { registerOpenApi } from './openapi.js';
import { installRequestLogging } from './request-logging.js';
import { recordRoutes } from './route-registry.js';
import { registerAgentsAccessRoutes } from './routes/agents-access-route.js';
import { registerAssetRoutes } from './routes/assets-route.js';
import { registerBatchRoute } from './routes/batch-route.js';
import { registerTransactionRoute } from './routes/transaction-route.js';
import { registerMerchantCorrectionRoutes } from './routes/merchant-corrections-route.js';
import { registerBrandGetRoutes } from './routes/brand-get-route.js';
import { registerContextRoute } from './routes/context-route.js';
import { registerMcpRoute } from './mcp-route.js';
import { registerBrandHeadRoutes } from './routes/brand-head-route.js';
import { registerDocsRoutes } from './routes/docs-route.js';
import { registerHealthRoutes } from './routes/health-route.js';
import { registerMetricsRoute } from './routes/metrics-route.js';
import { installRequestMetrics } from './request-metrics.js';
import { registerIndustriesRoutes } from './routes/industries-route.js';
import { registerViewerRoute } from './routes/viewer-route.js';
import { registerSearchRoute } from './routes/search-route.js';
import { registerLogoCdnRoutes } from './cdn/logo-cdn-route.js';
import { registerGraphqlRoute } from './graphql/graphql-route.js';
import { registerBrandPages } from './pages/brand/brand-pages.js';
import { registerDashboard } from './pages/dashboard/dashboard-routes.js';

const REQUEST_ID_PREFIX = crypto.randomUUID().slice(0, 8);
let requestCounter = 0;

function nextRequestId(): string {
  requestCounter = (requestCounter + 1) % Number.MAX_SAFE_INTEGER;
  return `${REQUEST_ID_PREFIX}-${requestCounter.toString(36)}`;
}

/** Builds the HTTP API. It never listens: `main/serve.ts` does, and tests use `inject`. Await `app.ready()`. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const limits: BodyLimits = { bodyMaxBytes: BODY_MAX_BYTES, discardMaxBytes: deps.discardBodyMaxBytes };
  const app: FastifyInstance = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    // Request logs are written by request-logging.ts with the resolved domain only, never the raw URL.
    logController: new LogController({ disableRequestLogging: true }),
    // HEAD on a brand route is the prefetch of spec 4.2, never an implicit GET (which would crawl and charge).
    exposeHeadRoutes: false,
    bodyLimit: BODY_MAX_BYTES,
    // Hostile clients (client-errors.ts, docs/security.md): a path the router cannot decode and bytes Node's parser
    // refuses answer in the registry's shape, never echoing the raw path or request bytes.
    frameworkErrors,
    clientErrorHandler: clientErrorHandler(deps.logger),
    // A process prefix and a counter: unique enough to follow a request, and cheaper than a UUID per request.
    genReqId: nextRequestId,
    // Behind a load balancer the client address (per-address limits) comes from X-Forwarded-For, but only from the
    // proxies the operator names (BRANDBASE_TRUST_PROXY): trusting any sender would let a client pick its address.
    trustProxy: deps.trustProxy ?? false,
    // No child logger per request (a measurable cost on the cached lookup path): the one request line carries the
    // request id itself (request-logging.ts), and errors are logged with it explicitly (error-handler.ts).
    childLoggerFactory: (logger) => logger,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 4096 },
    // The batch body is validated strictly: unknown properties are an error, never silently removed.
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: true } },
  });
  // Declared once so every request object has the same shape (adding them per request deoptimizes the hot path).
  app.decorateRequest('resolvedDomain', null);
  app.decorateRequest('payer', undefined);
  recordRoutes(app);
  installErrorHandling(app, requestBodies(limits));
  installBodyLimit(app, limits);
  installRequestLogging(app);
  // Requests by route template and status (ADR 0039); /metrics itself needs the metrics token on this listener.
  installRequestMetrics(app, deps.metrics.registry);
  await registerOpenApi(app, deps.publicUrl);
  registerDocsRoutes(app, deps);
  registerHealthRoutes(app, deps);
  registerMetricsRoute(app, { registry: deps.metrics.registry, token: deps.metrics.token });
  registerAssetRoutes(app, deps);
  registerViewerRoute(app, deps);
  registerSearchRoute(app, deps);
  registerAgentsAccessRoutes(app, deps);
  registerBatchRoute(app, deps);
  registerTransactionRoute(app, deps);
  registerMerchantCorrectionRoutes(app, deps);
  registerIndustriesRoutes(app, deps);
  registerBrandHeadRoutes(app, deps);
  registerBrandGetRoutes(app, deps);
  registerContextRoute(app, deps);
  registerMcpRoute(app, deps);
  registerGraphqlRoute(app, deps);
  registerBrandPages(app, deps.brandPages);
  registerDashboard(app, deps);
  // The logo CDN on the API's listener (BRANDBASE_CDN_PORT unset): under its path prefix, or for its host name only.
  if (deps.cdn) registerLogoCdnRoutes(app, deps.cdn, { path: deps.cdn.path, host: deps.cdn.host });
  return app;
}
