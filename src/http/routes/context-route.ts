/**
 * GET /v2/context/{identifier} (spec 4.6, issue 21, docs/context.md): a brand profile for language models, built
 * extractively from the brand's own pages. The identifier is a domain, website URL or email address (spec 1 rule 4);
 * JSON by default, Markdown with `Accept: text/markdown`. Billed like a lookup (one credit, or one pay-per-request
 * payment); `cachedOnly=true` answers 204 when nothing is held; 503 `generation_in_progress` with Retry-After while
 * the brand's pages are read again, never charged.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { IdentifierCache } from '../../domain/identifier-cache.js';
import type { Readings } from '../../domain/identifiers.js';
import { brandContext } from '../../usecases/brand-context.js';
import { contextMarkdown } from '../../context/context-markdown.js';
import type { AppDeps } from '../app-deps.js';
import { payerOf, setChargeHeaders } from '../credentials.js';
import { domainReadings } from '../identifier-params.js';
import { notFoundPayment } from '../payment-bodies.js';
import { ErrorBody, NotFoundBody, PaymentRequiredBody } from '../schemas/route-schemas.js';
import { USAGE_HEADERS, type ResponseHeaderName } from '../schemas/response-headers.js';

const CONTEXT_ROUTE = { method: 'GET', template: '/v2/context/{identifier}', missing: 'payment' } as const;

const Text = Type.Union([Type.String(), Type.Null()]);
export const ContextBody = Type.Object(
  {
    meta: Type.Object({
      domain: Type.String(),
      canonical_name: Text,
      resolved_at: Type.String({ format: 'date-time', description: 'when the profile was built' }),
      observed_at: Type.String({ format: 'date-time', description: 'when the pages were read' }),
      sources: Type.Array(Type.Object({ field: Type.String(), page: Type.String({ description: 'path of the page on the brand domain' }) })),
    }),
    identity: Type.Object({ tagline: Text, mission: Text, description: Text, tags: Type.Array(Type.String()) }),
    positioning: Type.Object({
      value_proposition: Text,
      target_audience: Type.Array(Type.Object({ segment: Type.String(), description: Text })),
      products_and_services: Type.Array(Type.Object({ name: Type.String(), type: Type.Union([Type.Literal('product'), Type.Literal('service')]), description: Text })),
    }),
    brand: Type.Object({
      voice: Type.Object({ summary: Text, attributes: Type.Array(Type.String()), avoid: Type.Array(Type.String()) }),
      style: Type.Object({ summary: Text, attributes: Type.Array(Type.String()) }),
    }),
    links: Type.Object({
      brand: Type.String({ description: 'the brand record' }),
      logos: Type.Array(Type.Object({ type: Type.String(), theme: Text, format: Type.String(), url: Type.String() })),
      colors: Type.Array(Type.Object({ hex: Type.String(), type: Type.String() })),
    }),
  },
  { description: 'Every text is quoted from a page of the brand site (meta.sources says which); null or empty where the site does not say it. With Accept: text/markdown, the same facts as CommonMark.' },
);

const CONTEXT_HEADERS = {
  200: [...USAGE_HEADERS, 'payment-response', 'payment-receipt', 'cache-control'],
  204: USAGE_HEADERS,
  402: ['payment-required', 'www-authenticate', 'payment-response', 'cache-control'],
  404: USAGE_HEADERS,
} as const satisfies Record<number, readonly ResponseHeaderName[]>;

/** Markdown when the client prefers it (`Accept: text/markdown`, or it ranks above JSON); JSON otherwise. */
export function wantsMarkdown(accept: string | undefined): boolean {
  if (!accept) return false;
  let markdown = -1;
  let json = -1;
  for (const part of accept.toLowerCase().split(',')) {
    const [type = '', ...params] = part.trim().split(';');
    const q = Number(params.map((p) => p.trim()).find((p) => p.startsWith('q='))?.slice(2) ?? '1');
    const weight = Number.isFinite(q) ? q : 0;
    if (type.trim() === 'text/markdown') markdown = Math.max(markdown, weight);
    if (type.trim() === 'application/json') json = Math.max(json, weight);
  }
  return markdown > 0 && markdown >= json;
}

async function answerContext(deps: AppDeps, request: FastifyRequest, reply: FastifyReply, readings: Readings): Promise<FastifyReply> {
  const cachedOnly = (request.query as { cachedOnly?: string }).cachedOnly === 'true';
  const payer = await payerOf(deps, request, CONTEXT_ROUTE, 'lookup');
  const result = await brandContext(deps.usecases, payer, { readings, cachedOnly, requestId: request.id });
  const answer = result.value;
  request.resolvedDomain = answer.domain;
  setChargeHeaders(reply, result);
  if (answer.status === 'not_indexed') return reply.code(204).send();
  if (answer.status === 'not_found') {
    const body = { message: answer.message, ...(answer.reason ? { reason: answer.reason } : {}), ...notFoundPayment(deps.publicUrl) };
    return reply.code(404).type('application/json').send(body);
  }
  reply.header('vary', 'accept');
  if (wantsMarkdown(request.headers.accept)) return reply.code(200).type('text/markdown; charset=utf-8').send(contextMarkdown(answer.context));
  return reply.code(200).type('application/json; charset=utf-8').send(JSON.stringify(answer.context));
}

export function registerContextRoute(app: FastifyInstance, deps: AppDeps): void {
  const identifiers = new IdentifierCache();
  // A wildcard so an unencoded website URL (`/v2/context/https://acme.com/about`) still reaches the parser.
  app.get(
    '/v2/context/*',
    {
      schema: {
        summary: 'Brand context for language models (domain, website URL or email address); Markdown with Accept: text/markdown',
        tags: ['context'],
        params: Type.Object({ '*': Type.String({ description: 'domain, website URL or email address' }) }),
        querystring: Type.Object({ cachedOnly: Type.Optional(Type.String({ description: '`true`: answer from what is held only (204 when nothing is, free).' })) }, { additionalProperties: true }),
        response: {
          200: ContextBody,
          204: Type.Null({ description: 'cachedOnly and no context held; no body' }),
          400: ErrorBody,
          401: ErrorBody,
          402: PaymentRequiredBody,
          403: ErrorBody,
          404: NotFoundBody,
          429: ErrorBody,
          503: ErrorBody,
        },
        responseHeaders: CONTEXT_HEADERS,
      },
      // Read by exact match (`cachedOnly=true`), like the lookup: other values keep the default.
      validatorCompiler: () => () => true,
      config: { billable: true },
    },
    async (request, reply) => answerContext(deps, request, reply, domainReadings((request.params as { '*': string })['*'], identifiers)),
  );
}
