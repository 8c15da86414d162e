import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ExplicitType, Readings } from '../../domain/identifiers.js';
import type { Payer } from '../../usecases/payer.js';
import { prefetchBrand } from '../../usecases/prefetch-brand.js';
import type { AppDeps } from '../app-deps.js';
import { payerOf } from '../credentials.js';
import { detectedReadings, exchangeOf, EXPLICIT_TYPES, typedReadings } from '../identifier-params.js';
import { headResponses, typedParams } from '../schemas/route-schemas.js';

const STATUS = { held: 200, queued: 202, not_found: 404 } as const;

/**
 * HEAD prefetch (spec 4.2): 200 held, 202 crawl queued (domains and email domains only), 404 nothing can be
 * fetched or the brand was removed, 403 `paid_plan_required` on the free plan, 503 `temporarily_unavailable`
 * when the queue is full. Never a credit, never a body, no allowNsfw.
 */
async function prefetch(deps: AppDeps, request: FastifyRequest, reply: FastifyReply, payer: Payer, readings: Readings): Promise<FastifyReply> {
  const primary = readings.primary;
  request.resolvedDomain = primary.kind === 'domain' ? primary.domain : null;
  return reply.code(STATUS[await prefetchBrand(deps.usecases, payer, readings, request.id)]).send();
}

/** Only a domain (or an email address's domain) can have a crawl queued: the other typed routes never answer 202. */
function queues(type: ExplicitType): boolean {
  return type === 'domain';
}

/**
 * Every GET brand route has its HEAD, so HEAD agrees with GET on what an identifier is: `HEAD /v2/brands/ticker/AAPL`
 * is the ticker AAPL (200 when its company's brand is held), never the auto-detected identifier `ticker/AAPL` (400).
 */
export function registerBrandHeadRoutes(app: FastifyInstance, deps: AppDeps): void {
  for (const type of EXPLICIT_TYPES) {
    const route = { method: 'HEAD', template: `/v2/brands/${type}/{identifier}`, missing: 'payment' } as const;
    const schema = { summary: `Availability check and prefetch by ${type}`, tags: ['brands'], params: typedParams(type), docResponses: headResponses(queues(type)) };
    app.head(`/v2/brands/${type}/:identifier`, { schema }, async (request, reply) => {
      const payer = await payerOf(deps, request, route, 'prefetch');
      return prefetch(deps, request, reply, payer, typedReadings(type, (request.params as { identifier: string }).identifier, exchangeOf(request.query)));
    });
  }

  const schema = { summary: 'Availability check and prefetch (auto-detected identifier)', tags: ['brands'], docResponses: headResponses(true) };
  app.head('/v2/brands/*', { schema }, async (request, reply) => {
    const payer = await payerOf(deps, request, { method: 'HEAD', template: '/v2/brands/{identifier}', missing: 'payment' }, 'prefetch');
    return prefetch(deps, request, reply, payer, detectedReadings((request.params as { '*': string })['*'], undefined, exchangeOf(request.query)));
  });
}
