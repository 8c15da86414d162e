import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app-deps.js';

/** `/healthz`: liveness and readiness in one (the store must answer). Free and unauthenticated. */
export function registerHealthRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get('/healthz', async (_request, reply) => {
    await deps.ping();
    return reply.send({ status: 'ok' });
  });
}
