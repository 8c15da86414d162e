import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { ERROR_CODES } from '../../domain/errors.js';
import { installRequestLogging } from '../request-logging.js';
import { installRequestMetrics } from '../request-metrics.js';
import type { CdnDeps } from './cdn-deps.js';
import { registerLogoCdnRoutes } from './logo-cdn-route.js';

/**
 * The logo CDN as its own HTTP server (BRANDBASE_CDN_PORT): only the logo route, so it can sit behind a CDN or a
 * `logo.` host with nothing else exposed. Never listens: `main/serve.ts` does, tests use `inject`.
 */
export async function buildCdnApp(deps: CdnDeps): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    // One line per request without the URL (request-logging.ts): a path can hold an email address.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: (logger) => logger,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 4096 },
  });
  app.decorateRequest('resolvedDomain', null);
  installRequestLogging(app);
  // On its own port the CDN is scraped through the process's metrics (its routes are their own templates).
  installRequestMetrics(app, deps.metrics);
  app.setNotFoundHandler((_request, reply) => reply.code(404).header('x-bf-error', 'route_not_found').send({ message: ERROR_CODES.route_not_found.message, code: 'route_not_found' }));
  app.setErrorHandler((error, request, reply) => {
    const status = (error as { statusCode?: number }).statusCode;
    // Malformed requests Fastify refuses itself answer 400; anything else is ours, logged and answered without internals.
    if (status !== undefined && status >= 400 && status < 500) return reply.code(400).header('x-bf-error', 'bad_request').send({ message: ERROR_CODES.bad_request.message, code: 'bad_request' });
    request.log.error({ err: error, reqId: request.id }, 'unhandled error');
    return reply.code(500).header('cache-control', 'no-store').send({ message: ERROR_CODES.internal_error.message, code: 'internal_error' });
  });
  registerLogoCdnRoutes(app, deps, { path: deps.path, host: null });
  return app;
}
