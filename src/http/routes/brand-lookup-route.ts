import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../../billing/authenticator.js';
import type { Reservation } from '../../billing/usage-meter.js';
import type { LookupResult } from '../../brands/brand-lookup.js';
import { ApiError } from '../../domain/errors.js';
import { IdentifierCache } from '../../domain/identifier-cache.js';
import { parseTypedIdentifier, type Readings } from '../../domain/identifiers.js';
import type { AppDeps } from '../app-deps.js';
import { requireApiKey } from '../credentials.js';
import { notFoundPayment } from '../payment-bodies.js';
import { BrandQuery, type BrandQueryType, readLookupFlags } from '../schemas/brand-query.js';

const AUTO_ROUTE = '/v2/brands/{identifier}';
const DOMAIN_ROUTE = '/v2/brands/domain/{domain}';

declare module 'fastify' {
  interface FastifyRequest {
    /** The registrable domain a lookup resolved to: the only identifier request logs may carry. */
    resolvedDomain?: string | null;
  }
}

function isOperatorDomain(deps: AppDeps, readings: Readings): boolean {
  return deps.operatorDomain !== null && readings.primary.kind === 'domain' && readings.primary.domain === deps.operatorDomain;
}

async function reserveCredit(deps: AppDeps, principal: Principal, free: boolean): Promise<Reservation | null> {
  if (free) return null;
  const reservation = await deps.meter.reserve(principal.org.id, principal.key.id, 1, principal.org.quota);
  if (!reservation) throw new ApiError('quota_exceeded');
  return reservation;
}

async function sendResult(deps: AppDeps, reply: FastifyReply, principal: Principal, result: LookupResult, palette: boolean): Promise<FastifyReply> {
  reply.header('x-api-key-quota', String(principal.org.quota));
  reply.header('x-api-key-approximate-usage', String(await deps.meter.approximateUsed(principal.org.id)));
  if (result.status === 'not_indexed') return reply.code(204).send();
  if (result.status === 'not_found') {
    return reply.code(404).type('application/json').send({ message: result.message, ...notFoundPayment(deps.publicUrl) });
  }
  // The record is cached serialized; a requested palette is added without re-serializing it (null until the
  // palette builder exists, which spec 2.8 allows: "palette is null when ... none can be built").
  const body = palette ? `${result.brand.json.slice(0, -1)},"palette":null}` : result.brand.json;
  return reply.code(200).type('application/json; charset=utf-8').send(body);
}

async function handleLookup(deps: AppDeps, request: FastifyRequest, reply: FastifyReply, readings: Readings, principal: Principal): Promise<FastifyReply> {
  const flags = readLookupFlags(request.query as BrandQueryType);
  const free = isOperatorDomain(deps, readings);
  const reservation = await reserveCredit(deps, principal, free);
  let result: LookupResult;
  try {
    result = await deps.lookup.lookup(readings, flags);
  } catch (error) {
    if (reservation) deps.meter.cancel(reservation);
    throw error;
  }
  request.resolvedDomain = result.domain;
  if (reservation) {
    const chargeable = result.status === 'found' && result.brand.stored.brand.domain !== deps.operatorDomain;
    deps.meter.commit(reservation, 'brand.lookup', chargeable ? 1 : 0);
  }
  return sendResult(deps, reply, principal, result, flags.palette);
}

export function registerBrandLookupRoutes(app: FastifyInstance, deps: AppDeps): void {
  const identifiers = new IdentifierCache();
  app.get('/v2/brands/domain/:domain', { schema: { querystring: BrandQuery } }, async (request, reply) => {
    const principal = await requireApiKey(deps, request, DOMAIN_ROUTE);
    const parsed = parseTypedIdentifier('domain', (request.params as { domain: string }).domain);
    if (!parsed.ok) throw new ApiError('invalid_identifier', parsed.message);
    return handleLookup(deps, request, reply, parsed.readings, principal);
  });

  // A wildcard so an unencoded website URL (`/v2/brands/https://acme.com/about`) still reaches the parser.
  app.get('/v2/brands/*', { schema: { querystring: BrandQuery } }, async (request, reply) => {
    const principal = await requireApiKey(deps, request, AUTO_ROUTE);
    const parsed = identifiers.parse((request.params as { '*': string })['*']);
    if (!parsed.ok) throw new ApiError('invalid_identifier', parsed.message);
    return handleLookup(deps, request, reply, parsed.readings, principal);
  });
}
