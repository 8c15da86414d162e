import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Readings } from '../../domain/identifiers.js';
import { brandIndustries } from '../../usecases/brand-industries.js';
import type { Payer } from '../../usecases/payer.js';
import type { AppDeps } from '../app-deps.js';
import { payerOf, setUsageHeaders } from '../credentials.js';
import { detectedReadings, EXPLICIT_TYPES, typedReadings } from '../identifier-params.js';
import { notFoundPayment } from '../payment-bodies.js';
import { ErrorBody, NotFoundBody, PaymentRequiredBody } from '../schemas/route-schemas.js';

const IndustriesBody = Type.Object({ industries: Type.Array(Type.Ref('Industry')) }, { additionalProperties: false });
const responses = { 200: IndustriesBody, 400: ErrorBody, 401: ErrorBody, 402: PaymentRequiredBody, 403: ErrorBody, 404: NotFoundBody, 429: ErrorBody };

/** The industries of a held brand (spec 4.5); a brand not held answers 404 and nothing is crawled or queued. */
async function answerIndustries(deps: AppDeps, request: FastifyRequest, reply: FastifyReply, payer: Payer, readings: Readings): Promise<FastifyReply> {
  const { value: answer, usage } = await brandIndustries(deps.usecases, payer, readings);
  request.resolvedDomain = answer.domain;
  setUsageHeaders(reply, usage);
  if (answer.status === 'not_found') return reply.code(404).send({ message: 'No brand found for this identifier.', ...notFoundPayment(deps.publicUrl) });
  return reply.code(200).send({ industries: answer.industries });
}

export function registerIndustriesRoutes(app: FastifyInstance, deps: AppDeps): void {
  for (const type of EXPLICIT_TYPES) {
    const template = `/v2/brands/${type}/{identifier}/company/industries`;
    app.get(`/v2/brands/${type}/:identifier/company/industries`, { schema: { summary: `Industries of a brand by ${type}`, tags: ['brands'], response: responses } }, async (request, reply) => {
      const payer = await payerOf(deps, request, { answer: 'payment', route: template }, 'lookup');
      return answerIndustries(deps, request, reply, payer, typedReadings(type, (request.params as { identifier: string }).identifier));
    });
  }
  app.get('/v2/brands/:identifier/company/industries', { schema: { summary: 'Industries of a brand (auto-detected identifier)', tags: ['brands'], response: responses } }, async (request, reply) => {
    const payer = await payerOf(deps, request, { answer: 'payment', route: '/v2/brands/{identifier}/company/industries' }, 'lookup');
    return answerIndustries(deps, request, reply, payer, detectedReadings((request.params as { identifier: string }).identifier));
  });
}
