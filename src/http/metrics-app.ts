import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { ERROR_CODES } from '../domain/errors.js';
import type { Logger } from '../platform/logger.js';
import type { MetricsRegistry } from '../platform/metrics.js';
import { registerHealthRoutes, type HealthDeps } from './routes/health-route.js';
import { registerMetricsRoute } from './routes/metrics-route.js';

export interface MetricsAppDeps extends HealthDeps {
  logger: Logger;
  registry: MetricsRegistry;
}

/**
 * The metrics port's server (BRANDBASE_METRICS_PORT, ADR 0039): `/metrics` without a token, `/healthz` and `/readyz`,
 * nothing else, for a Prometheus and a load balancer on the operator's private network. Its requests are neither
 * counted nor logged (a scrape every few seconds would drown the API's own lines). Never listens: serve.ts does.
 */
export async function buildMetricsApp(deps: MetricsAppDeps): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: (logger) => logger,
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).header('x-bf-error', 'route_not_found').send({ message: ERROR_CODES.route_not_found.message, code: 'route_not_found' }));
  app.setErrorHandler((error, request, reply) => {
    request.log.error({ err: error, reqId: request.id }, 'unhandled error');
    return reply.code(500).header('cache-control', 'no-store').send({ message: ERROR_CODES.internal_error.message, code: 'internal_error' });
  });
  registerHealthRoutes(app, deps);
  registerMetricsRoute(app, { registry: deps.registry, token: undefined });
  await app.ready();
  return app;
}
