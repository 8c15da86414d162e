import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { AppDeps } from './app-deps.js';
import { installErrorHandling } from './error-handler.js';
import { installRequestLogging } from './request-logging.js';
import { registerAssetRoutes } from './routes/assets-route.js';
import { registerBrandLookupRoutes } from './routes/brand-lookup-route.js';
import { registerHealthRoutes } from './routes/health-route.js';

const REQUEST_ID_PREFIX = crypto.randomUUID().slice(0, 8);
let requestCounter = 0;

function nextRequestId(): string {
  requestCounter = (requestCounter + 1) % Number.MAX_SAFE_INTEGER;
  return `${REQUEST_ID_PREFIX}-${requestCounter.toString(36)}`;
}

/** Builds the HTTP API. It never listens: `main/serve.ts` does, and tests use `inject`. */
export function buildApp(deps: AppDeps): FastifyInstance {
  const app: FastifyInstance = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    // Request logs are written by request-logging.ts with the resolved domain only, never the raw URL.
    logController: new LogController({ disableRequestLogging: true }),
    // HEAD on a brand route is the prefetch of spec 4.2, never an implicit GET (which would crawl and charge).
    exposeHeadRoutes: false,
    bodyLimit: 1024 * 1024,
    // A process prefix and a counter: unique enough to follow a request, and cheaper than a UUID per request.
    genReqId: nextRequestId,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 4096 },
  });
  installErrorHandling(app);
  installRequestLogging(app);
  registerHealthRoutes(app, deps);
  registerAssetRoutes(app, deps);
  registerBrandLookupRoutes(app, deps);
  return app;
}
