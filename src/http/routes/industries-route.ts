import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../../billing/authenticator.js';
import { parseIdentifier, parseTypedIdentifier, type Readings } from '../../domain/identifiers.js';
import type { AppDeps } from '../app-deps.js';
import { authorize, setUsageHeaders } from '../credentials.js';
import { notFoundPayment } from '../payment-bodies.js';
import { ErrorBody, NotFoundBody, PaymentRequiredBody } from '../schemas/route-schemas.js';
import { EXPLICIT_TYPES, invalidIdentifier, isOperatorDomain } from './brand-get-route.js';

const IndustriesBody = Type.Object({ industries: Type.Array(Type.Ref('Industry')) }, { additionalProperties: false });
const responses = { 200: IndustriesBody, 400: ErrorBody, 401: ErrorBody, 402: PaymentRequiredBody, 403: ErrorBody, 404: NotFoundBody, 429: ErrorBody };

/**
 * The industries of a held brand (spec 4.5): the same entries as `company.industries`. It reads what is held:
 * a brand not held answers 404 and nothing is crawled or queued. Charged like a lookup: 1 credit when it
 * answers 200, nothing otherwise (docs/spec-decisions.md).
 */
async function industries(deps: AppDeps, request: FastifyRequest, reply: FastifyReply, readings: Readings, principal: Principal): Promise<FastifyReply> {
  const hold = isOperatorDomain(deps, readings) ? null : await deps.billing.reserve(principal, 1, 'single');
  try {
    const known = await deps.lookup.state(readings);
    request.resolvedDomain = readings.primary.kind === 'domain' ? readings.primary.domain : null;
    await setUsageHeaders(deps, reply, principal);
    if (known.state !== 'held') {
      hold?.release();
      return reply.code(404).send({ message: 'No brand found for this identifier.', ...notFoundPayment(deps.publicUrl) });
    }
    hold?.settle(known.brand.stored.brand.domain === deps.operatorDomain ? 0 : 1, 'brand.industries');
    return reply.code(200).send({ industries: known.brand.stored.brand.company.industries });
  } catch (error) {
    hold?.release();
    throw error;
  }
}

export function registerIndustriesRoutes(app: FastifyInstance, deps: AppDeps): void {
  for (const type of EXPLICIT_TYPES) {
    const template = `/v2/brands/${type}/{identifier}/company/industries`;
    app.get(`/v2/brands/${type}/:identifier/company/industries`, { schema: { summary: `Industries of a brand by ${type}`, tags: ['brands'], response: responses } }, async (request, reply) => {
      const principal = await authorize(deps, request, { answer: 'payment', route: template }, 'lookup');
      const parsed = parseTypedIdentifier(type, (request.params as { identifier: string }).identifier);
      if (!parsed.ok) throw invalidIdentifier(parsed);
      return industries(deps, request, reply, parsed.readings, principal);
    });
  }
  app.get('/v2/brands/:identifier/company/industries', { schema: { summary: 'Industries of a brand (auto-detected identifier)', tags: ['brands'], response: responses } }, async (request, reply) => {
    const principal = await authorize(deps, request, { answer: 'payment', route: '/v2/brands/{identifier}/company/industries' }, 'lookup');
    const parsed = parseIdentifier((request.params as { identifier: string }).identifier);
    if (!parsed.ok) throw invalidIdentifier(parsed);
    return industries(deps, request, reply, parsed.readings, principal);
  });
}
