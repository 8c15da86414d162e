import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app-deps.js';

/** `/healthz`: liveness and readiness in one (the store must answer). Free and unauthenticated. */
export function registerHealthRoutes(app: FastifyInstance, deps: AppDeps): void {
  const schema = { summary: 'Liveness and readiness: the store answers', tags: ['service'], security: [], response: { 200: Type.Object({ status: Type.Literal('ok') }) } };
  app.get('/healthz', { schema }, async (_request, reply) => {
    await deps.ping();
    return reply.send({ status: 'ok' });
  });
}
