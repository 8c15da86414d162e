import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../domain/errors.js';
import { parseIdentifier, parseTypedIdentifier, type Readings } from '../../domain/identifiers.js';
import type { AppDeps } from '../app-deps.js';
import { authorize } from '../credentials.js';
import { invalidIdentifier } from './brand-get-route.js';

/**
 * HEAD prefetch (spec 4.2): 200 held, 202 crawl queued (domains and email domains only), 404 nothing can be
 * fetched or the brand was removed, 403 `paid_plan_required` on the free plan, 503 `temporarily_unavailable`
 * when the queue is full. Never a credit, never a body, no allowNsfw.
 */
async function prefetch(deps: AppDeps, request: FastifyRequest, reply: FastifyReply, readings: Readings): Promise<FastifyReply> {
  const known = await deps.lookup.state(readings);
  const primary = readings.primary;
  request.resolvedDomain = primary.kind === 'domain' ? primary.domain : null;
  if (known.state === 'held') return reply.code(200).send();
  // Only a domain or the domain of an email address can have a crawl queued; a website URL, brand ID, ticker,
  // ISIN or crypto symbol that is not held answers 404 (spec 4.2 and section 3).
  const queueable = known.state === 'absent' && primary.kind === 'domain' && primary.source !== 'url';
  if (!queueable || deps.lookup.recentFailure(primary.domain)) return reply.code(404).send();
  if ((await deps.scheduler.schedule(primary.domain)) === 'full') throw new ApiError('temporarily_unavailable');
  return reply.code(202).send();
}

export function registerBrandHeadRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.head('/v2/brands/domain/:identifier', { schema: { summary: 'Prefetch by domain', tags: ['brands'] } }, async (request, reply) => {
    await authorize(deps, request, { answer: 'payment', route: '/v2/brands/domain/{domain}' }, 'prefetch');
    const parsed = parseTypedIdentifier('domain', (request.params as { identifier: string }).identifier);
    if (!parsed.ok) throw invalidIdentifier(parsed);
    return prefetch(deps, request, reply, parsed.readings);
  });

  app.head('/v2/brands/*', { schema: { summary: 'Availability check and prefetch', tags: ['brands'] } }, async (request, reply) => {
    await authorize(deps, request, { answer: 'payment', route: '/v2/brands/{identifier}' }, 'prefetch');
    const parsed = parseIdentifier((request.params as { '*': string })['*']);
    if (!parsed.ok) throw invalidIdentifier(parsed);
    return prefetch(deps, request, reply, parsed.readings);
  });
}
