import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CrawlFailureReason } from '../../domain/crawl-failures.js';
import { IdentifierCache } from '../../domain/identifier-cache.js';
import type { Readings } from '../../domain/identifiers.js';
import { lookupBrand } from '../../usecases/lookup-brand.js';
import type { Payer } from '../../usecases/payer.js';
import type { AppDeps } from '../app-deps.js';
import { payerOf, setChargeHeaders } from '../credentials.js';
import { detectedReadings, exchangeOf, EXPLICIT_TYPES, typedReadings } from '../identifier-params.js';
import { notFoundPayment } from '../payment-bodies.js';
import { brandResponses, typedParams, wildcardParams } from '../schemas/route-schemas.js';
import { BrandQuery, type BrandQueryType, readLookupFlags } from '../schemas/brand-query.js';
import { USAGE_HEADERS, type ResponseHeaderName } from '../schemas/response-headers.js';

/** Every answer the lookup use case completes carries the usage headers (spec 5.1, spec-decisions 12). */
const LOOKUP_HEADERS = {
  200: [...USAGE_HEADERS, 'payment-response', 'payment-receipt', 'cache-control'],
  204: USAGE_HEADERS,
  402: ['payment-required', 'www-authenticate', 'payment-response', 'cache-control'],
  404: USAGE_HEADERS,
} as const satisfies Record<number, readonly ResponseHeaderName[]>;

const LOOKUP_ROUTE = { method: 'GET', template: '/v2/brands/{identifier}', missing: 'payment' } as const;

declare module 'fastify' {
  interface FastifyRequest {
    /** The registrable domain a lookup resolved to: the only identifier request logs may carry. */
    resolvedDomain?: string | null;
  }
}

async function answerLookup(deps: AppDeps, request: FastifyRequest, reply: FastifyReply, payer: Payer, readings: Readings): Promise<FastifyReply> {
  const flags = readLookupFlags(request.query as BrandQueryType);
  const looked = await lookupBrand(deps.usecases, payer, { readings, cachedOnly: flags.cachedOnly, allowNsfw: flags.allowNsfw, palette: flags.palette, requestId: request.id });
  const answer = looked.value;
  request.resolvedDomain = answer.domain;
  setChargeHeaders(reply, looked);
  if (answer.status === 'not_indexed') return reply.code(204).send();
  if (answer.status === 'not_found') return reply.code(404).type('application/json').send(notFoundBody(deps.publicUrl, answer.message, answer.reason));
  return reply.code(200).type('application/json; charset=utf-8').send(answer.record);
}

/** The spec's 404 body (7.1), plus `reason` when a crawl failed (docs/errors.md, "Crawl failures"). */
function notFoundBody(publicUrl: string, message: string, reason: CrawlFailureReason | undefined): Record<string, unknown> {
  return reason === undefined ? { message, ...notFoundPayment(publicUrl) } : { message, reason, ...notFoundPayment(publicUrl) };
}

export function registerBrandGetRoutes(app: FastifyInstance, deps: AppDeps): void {
  for (const type of EXPLICIT_TYPES) {
    const route = { method: 'GET', template: `/v2/brands/${type}/{identifier}`, missing: 'payment' } as const;
    app.get(
      `/v2/brands/${type}/:identifier`,
      { schema: { summary: `Brand by ${type}`, tags: ['brands'], params: typedParams(type), querystring: BrandQuery, response: brandResponses(), responseHeaders: LOOKUP_HEADERS }, config: { billable: true } },
      async (request, reply) => {
        const payer = await payerOf(deps, request, route, 'lookup');
        return answerLookup(deps, request, reply, payer, typedReadings(type, (request.params as { identifier: string }).identifier, exchangeOf(request.query)));
      },
    );
  }

  const identifiers = new IdentifierCache();
  // A wildcard so an unencoded website URL (`/v2/brands/https://acme.com/about`) still reaches the parser.
  app.get(
    '/v2/brands/*',
    {
      schema: {
        summary: 'Brand by any identifier (auto-detected: domain, website URL, email, brand ID, ticker, ISIN, crypto symbol)',
        tags: ['brands'],
        params: wildcardParams(),
        querystring: BrandQuery,
        response: brandResponses(),
        responseHeaders: LOOKUP_HEADERS,
      },
      // The query is documented but not validated at run time: its values are read by exact match (`true`, `1`),
      // any other value keeps the default (spec 4.1), so validation could only cost time on the hottest route.
      validatorCompiler: () => () => true,
      config: { billable: true },
    },
    async (request, reply) => {
      const payer = await payerOf(deps, request, LOOKUP_ROUTE, 'lookup');
      return answerLookup(deps, request, reply, payer, detectedReadings((request.params as { '*': string })['*'], identifiers, exchangeOf(request.query)));
    },
  );
}
