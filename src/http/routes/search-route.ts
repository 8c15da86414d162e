/**
 * GET /v2/search/{name}?c=CLIENT_ID&limit=N (spec 4.6, issue 20, docs/search.md): brands and reference-data
 * companies by name, best first, at most `limit` (1–10, default 10); an empty array when nothing matches. A client
 * ID, never an API key. 503 `temporarily_unavailable` (Retry-After: 10) when the search cannot answer, not counted.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../domain/errors.js';
import { searchBrands } from '../../usecases/search-brands.js';
import type { AppDeps } from '../app-deps.js';
import { docUrl } from '../doc-urls.js';
import { ErrorBody } from '../schemas/route-schemas.js';

export const SearchHitBody = Type.Object(
  {
    name: Type.String(),
    domain: Type.String(),
    claimed: Type.Boolean(),
    icon: Type.Union([Type.String(), Type.Null()]),
    brandId: Type.Union([Type.String(), Type.Null()]),
    qualityScore: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()]),
  },
  { additionalProperties: false },
);

/** Host of the Referer (else Origin) header, lower-cased; undefined when neither is sent or it is not a URL. */
export function referrerHost(request: FastifyRequest): string | undefined {
  const value = request.headers.referer ?? request.headers.origin;
  if (typeof value !== 'string' || value === '' || value === 'null') return undefined;
  try {
    return new URL(value).hostname.toLowerCase() || undefined;
  } catch {
    return undefined;
  }
}

function parseLimit(raw: string | undefined): number {
  if (raw === undefined) return 10;
  if (!/^\d{1,2}$/.test(raw) || Number(raw) < 1 || Number(raw) > 10) throw new ApiError('bad_request', 'limit must be a whole number from 1 to 10.');
  return Number(raw);
}

export function registerSearchRoute(app: FastifyInstance, deps: AppDeps): void {
  const search = deps.search;
  app.get<{ Params: { name: string }; Querystring: { c?: string; limit?: string } }>(
    '/v2/search/:name',
    {
      schema: {
        summary: 'Brands by name (autocomplete), with a client ID',
        tags: ['search'],
        params: Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) }),
        querystring: Type.Object({ c: Type.Optional(Type.String({ maxLength: 200 })), limit: Type.Optional(Type.String({ maxLength: 4 })) }),
        response: { 200: Type.Array(SearchHitBody), 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 429: ErrorBody, 503: ErrorBody },
      },
    },
    async (request, reply) => {
      const limit = parseLimit(request.query.limit);
      const answer = await searchBrands(
        search,
        { clientId: request.query.c, ip: request.ip, referrerHost: referrerHost(request), apiKeySent: request.headers.authorization !== undefined },
        { name: request.params.name, limit },
        docUrl(deps.publicUrl, 'search'),
      );
      if (answer.overAllowance) reply.header('x-bf-over-allowance', 'true');
      // Answers depend on the index, which moves with every crawl: cacheable briefly by the browser only.
      return reply.header('cache-control', 'private, max-age=60').send(answer.hits);
    },
  );
}
