import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Readings } from '../../domain/identifiers.js';
import { brandAvailability } from '../../usecases/brand-availability.js';
import { brandIndustries } from '../../usecases/brand-industries.js';
import type { Payer } from '../../usecases/payer.js';
import type { AppDeps } from '../app-deps.js';
import { payerOf, setChargeHeaders, type CredentialRoute } from '../credentials.js';
import { detectedReadings, exchangeOf, EXPLICIT_TYPES, typedReadings } from '../identifier-params.js';
import { notFoundPayment } from '../payment-bodies.js';
import { USAGE_HEADERS, type ResponseHeaderName } from '../schemas/response-headers.js';
import { availabilityResponses, ErrorBody, NotFoundBody, PaymentRequiredBody } from '../schemas/route-schemas.js';

const IndustriesBody = Type.Object({ industries: Type.Array(Type.Ref('Industry')) }, { additionalProperties: false });
const responses = { 200: IndustriesBody, 400: ErrorBody, 401: ErrorBody, 402: PaymentRequiredBody, 403: ErrorBody, 404: NotFoundBody, 429: ErrorBody };
const responseHeaders = {
  200: [...USAGE_HEADERS, 'payment-response', 'payment-receipt', 'cache-control'],
  402: ['payment-required', 'www-authenticate', 'payment-response', 'cache-control'],
  404: USAGE_HEADERS,
} as const satisfies Record<number, readonly ResponseHeaderName[]>;

/** The industries of a held brand (spec 4.5); a brand not held answers 404 and nothing is crawled or queued. */
async function answerIndustries(deps: AppDeps, request: FastifyRequest, reply: FastifyReply, payer: Payer, readings: Readings): Promise<FastifyReply> {
  const result = await brandIndustries(deps.usecases, payer, readings);
  const answer = result.value;
  request.resolvedDomain = answer.domain;
  setChargeHeaders(reply, result);
  if (answer.status === 'not_found') return reply.code(404).send({ message: 'No brand found for this identifier.', ...notFoundPayment(deps.publicUrl) });
  return reply.code(200).send({ industries: answer.industries });
}

/** HEAD agrees with the GET: 200 when it would answer, 404 when not; free, nothing crawled (docs/spec-decisions.md). */
async function answerAvailability(deps: AppDeps, request: FastifyRequest, reply: FastifyReply, readings: Readings): Promise<FastifyReply> {
  request.resolvedDomain = readings.primary.kind === 'domain' ? readings.primary.domain : null;
  return reply.code((await brandAvailability(deps.usecases, readings)) === 'held' ? 200 : 404).send();
}

type ReadingsOf = (request: FastifyRequest) => Readings;

function registerIndustries(app: FastifyInstance, deps: AppDeps, route: { path: string; template: string; summary: string; readings: ReadingsOf }): void {
  const credentialRoute: CredentialRoute = { method: 'GET', template: route.template, missing: 'payment' };
  app.get(route.path, { schema: { summary: route.summary, tags: ['brands'], response: responses, responseHeaders }, config: { billable: true } }, async (request, reply) => {
    const payer = await payerOf(deps, request, credentialRoute, 'lookup');
    return answerIndustries(deps, request, reply, payer, route.readings(request));
  });
  app.head(route.path, { schema: { summary: `${route.summary}: held or not`, tags: ['brands'], docResponses: availabilityResponses() } }, async (request, reply) => {
    await payerOf(deps, request, { ...credentialRoute, method: 'HEAD' }, 'prefetch');
    return answerAvailability(deps, request, reply, route.readings(request));
  });
}

const identifierOf = (request: FastifyRequest): string => (request.params as { identifier: string }).identifier;

export function registerIndustriesRoutes(app: FastifyInstance, deps: AppDeps): void {
  for (const type of EXPLICIT_TYPES) {
    registerIndustries(app, deps, {
      path: `/v2/brands/${type}/:identifier/company/industries`,
      template: `/v2/brands/${type}/{identifier}/company/industries`,
      summary: `Industries of a brand by ${type}`,
      readings: (request) => typedReadings(type, identifierOf(request), exchangeOf(request.query)),
    });
  }
  registerIndustries(app, deps, {
    path: '/v2/brands/:identifier/company/industries',
    template: '/v2/brands/{identifier}/company/industries',
    summary: 'Industries of a brand (auto-detected identifier)',
    readings: (request) => detectedReadings(identifierOf(request), undefined, exchangeOf(request.query)),
  });
}
