import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../../billing/authenticator.js';
import type { Hold } from '../../billing/billing.js';
import type { LookupResult } from '../../brands/brand-lookup.js';
import { IdentifierCache } from '../../domain/identifier-cache.js';
import { ApiError } from '../../domain/errors.js';
import { parseTypedIdentifier, type ExplicitType, type ParseResult, type Readings } from '../../domain/identifiers.js';
import type { AppDeps } from '../app-deps.js';
import { authorize, setUsageHeaders } from '../credentials.js';
import { notFoundPayment } from '../payment-bodies.js';
import { brandResponses, typedParams, wildcardParams } from '../schemas/route-schemas.js';
import { BrandQuery, type BrandQueryType, readLookupFlags } from '../schemas/brand-query.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The registrable domain a lookup resolved to: the only identifier request logs may carry. */
    resolvedDomain?: string | null;
  }
}

export const EXPLICIT_TYPES: readonly ExplicitType[] = ['domain', 'ticker', 'isin', 'crypto'];

export function isOperatorDomain(deps: AppDeps, readings: Readings): boolean {
  return deps.operatorDomain !== null && readings.primary.kind === 'domain' && readings.primary.domain === deps.operatorDomain;
}

/** The ISIN route answers exactly `Bad Request` (spec 7.1); the others say which rule failed. */
export function invalidIdentifier(parsed: Extract<ParseResult, { ok: false }>): ApiError {
  return new ApiError(parsed.message === 'Bad Request' ? 'bad_request' : 'invalid_identifier', parsed.message);
}

async function sendResult(deps: AppDeps, reply: FastifyReply, principal: Principal, result: LookupResult, palette: boolean): Promise<FastifyReply> {
  await setUsageHeaders(deps, reply, principal);
  if (result.status === 'not_indexed') return reply.code(204).send();
  if (result.status === 'not_found') {
    return reply.code(404).type('application/json').send({ message: result.message, ...notFoundPayment(deps.publicUrl) });
  }
  // The record is cached serialized; a requested palette is added without re-serializing it (null until the
  // palette builder exists, which spec 2.8 allows: "palette is null when ... none can be built").
  const body = palette ? `${result.brand.json.slice(0, -1)},"palette":null}` : result.brand.bytes;
  return reply.code(200).type('application/json; charset=utf-8').send(body);
}

/** Runs a lookup between a credit hold and its settlement: only a returned brand is charged (billing rule). */
async function chargedLookup(deps: AppDeps, principal: Principal, readings: Readings, run: () => Promise<LookupResult>): Promise<LookupResult> {
  const hold: Hold | null = isOperatorDomain(deps, readings) ? null : await deps.billing.reserve(principal, 1, 'single');
  let result: LookupResult;
  try {
    result = await run();
  } catch (error) {
    hold?.release();
    throw error;
  }
  const charged = result.status === 'found' && result.brand.stored.brand.domain !== deps.operatorDomain ? 1 : 0;
  hold?.settle(charged, 'brand.lookup');
  return result;
}

export async function handleLookup(deps: AppDeps, request: FastifyRequest, reply: FastifyReply, readings: Readings, principal: Principal): Promise<FastifyReply> {
  const flags = readLookupFlags(request.query as BrandQueryType);
  const result = await chargedLookup(deps, principal, readings, () => deps.lookup.lookup(readings, flags));
  request.resolvedDomain = result.domain;
  return sendResult(deps, reply, principal, result, flags.palette);
}

export function registerBrandGetRoutes(app: FastifyInstance, deps: AppDeps): void {
  const identifiers = new IdentifierCache();

  for (const type of EXPLICIT_TYPES) {
    const template = `/v2/brands/${type}/{identifier}`;
    app.get(
      `/v2/brands/${type}/:identifier`,
      { schema: { summary: `Brand by ${type}`, tags: ['brands'], params: typedParams(type), querystring: BrandQuery, response: brandResponses() } },
      async (request, reply) => {
        const principal = await authorize(deps, request, { answer: 'payment', route: template }, 'lookup');
        const parsed = parseTypedIdentifier(type, (request.params as { identifier: string }).identifier);
        if (!parsed.ok) throw invalidIdentifier(parsed);
        return handleLookup(deps, request, reply, parsed.readings, principal);
      },
    );
  }

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
      },
      // The query is documented but not validated at run time: its values are read by exact match (`true`, `1`),
      // any other value keeps the default (spec 4.1), so validation could only cost time on the hottest route.
      validatorCompiler: () => () => true,
    },
    async (request, reply) => {
      const principal = await authorize(deps, request, { answer: 'payment', route: '/v2/brands/{identifier}' }, 'lookup');
      const parsed = identifiers.parse((request.params as { '*': string })['*']);
      if (!parsed.ok) throw invalidIdentifier(parsed);
      return handleLookup(deps, request, reply, parsed.readings, principal);
    },
  );
}
