import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Logger } from '../../platform/logger.js';

export interface HealthDeps {
  logger: Logger;
  /** Resolves when the store answers. */
  ping: () => Promise<void>;
  /** Resolves when the job queue answers; the store's probe stands in when absent (the queue is a table of it). */
  pingQueue?: () => Promise<void>;
}

/** A probe that does not answer within this is down: a load balancer must not wait on a hung database. */
const PROBE_TIMEOUT_MS = 2_000;

const Part = Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]);
const ReadyBody = Type.Object({ status: Part, store: Part, queue: Part }, { additionalProperties: false });

async function probe(check: () => Promise<void>, logger: Logger, what: string): Promise<'ok' | 'unavailable'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return 'ok';
  } catch (error) {
    logger.warn({ err: error instanceof Error ? error.message : String(error), part: what }, 'readiness probe failed');
    return 'unavailable';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `/healthz`: the process answers and its store does (500 otherwise). `/readyz` (ADR 0039): ready for traffic when
 * the store AND the job queue answer: 200, else 503 with which part is down, so a load balancer takes the process
 * out of rotation without restarting it. Both free and unauthenticated.
 */
export function registerHealthRoutes(app: FastifyInstance, deps: HealthDeps): void {
  const schema = { summary: 'Liveness: the process and its store answer', tags: ['service'], security: [], response: { 200: Type.Object({ status: Type.Literal('ok') }) } };
  app.get('/healthz', { schema }, async (_request, reply) => {
    await deps.ping();
    return reply.send({ status: 'ok' });
  });
  const ready = {
    summary: 'Readiness: the store and the job queue answer (503 names the part that does not)',
    tags: ['service'],
    security: [],
    response: { 200: ReadyBody, 503: ReadyBody },
  };
  app.get('/readyz', { schema: ready }, async (_request, reply) => {
    const [store, queue] = await Promise.all([probe(deps.ping, deps.logger, 'store'), probe(deps.pingQueue ?? deps.ping, deps.logger, 'queue')]);
    const ok = store === 'ok' && queue === 'ok';
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable', store, queue });
  });
}
