import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Readings } from '../../domain/identifiers.js';
import type { Payer } from '../../usecases/payer.js';
import { prefetchBrand } from '../../usecases/prefetch-brand.js';
import type { AppDeps } from '../app-deps.js';
import { payerOf } from '../credentials.js';
import { detectedReadings, typedReadings } from '../identifier-params.js';

const STATUS = { held: 200, queued: 202, not_found: 404 } as const;

/**
 * HEAD prefetch (spec 4.2): 200 held, 202 crawl queued (domains and email domains only), 404 nothing can be
 * fetched or the brand was removed, 403 `paid_plan_required` on the free plan, 503 `temporarily_unavailable`
 * when the queue is full. Never a credit, never a body, no allowNsfw.
 */
async function prefetch(deps: AppDeps, request: FastifyRequest, reply: FastifyReply, payer: Payer, readings: Readings): Promise<FastifyReply> {
  const primary = readings.primary;
  request.resolvedDomain = primary.kind === 'domain' ? primary.domain : null;
  return reply.code(STATUS[await prefetchBrand(deps.usecases, payer, readings)]).send();
}

export function registerBrandHeadRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.head('/v2/brands/domain/:identifier', { schema: { summary: 'Prefetch by domain', tags: ['brands'] } }, async (request, reply) => {
    const payer = await payerOf(deps, request, { answer: 'payment', route: '/v2/brands/domain/{domain}' }, 'prefetch');
    return prefetch(deps, request, reply, payer, typedReadings('domain', (request.params as { identifier: string }).identifier));
  });

  app.head('/v2/brands/*', { schema: { summary: 'Availability check and prefetch', tags: ['brands'] } }, async (request, reply) => {
    const payer = await payerOf(deps, request, { answer: 'payment', route: '/v2/brands/{identifier}' }, 'prefetch');
    return prefetch(deps, request, reply, payer, detectedReadings((request.params as { '*': string })['*']));
  });
}
