/**
 * GET /brands?q=NAME: search by name on the public pages (ADR 0044). No client ID: a per-address limit instead
 * (BrandPageDeps.admitSearch, 429 page with Retry-After past it). Without `q`, the search box alone.
 */
import type { FastifyInstance } from 'fastify';
import type { BrandPageDeps } from './brand-page-deps.js';
import { searchPage, searchUnavailablePage, tooManySearchesPage } from './brand-search-view.js';
import { sendPage } from './page-reply.js';

/** Results per search page (the API's maximum). */
const SEARCH_PAGE_LIMIT = 10;
const MAX_QUERY_LENGTH = 100;

export function registerBrandSearchRoute(app: FastifyInstance, deps: BrandPageDeps): void {
  app.get<{ Querystring: { q?: string | string[] } }>('/brands', { schema: { hide: true } }, async (request, reply) => {
    const raw = request.query.q;
    const query = (Array.isArray(raw) ? raw[0] : raw)?.trim().slice(0, MAX_QUERY_LENGTH) ?? '';
    const options = { assetOrigin: deps.assetOrigin, cacheControl: 'no-cache' };
    if (!query) return sendPage(request, reply, 200, searchPage('', null), options);
    const admitted = deps.admitSearch(request.ip);
    if (!admitted.ok) {
      reply.header('retry-after', String(admitted.retryAfterSeconds));
      return sendPage(request, reply, 429, tooManySearchesPage(admitted.retryAfterSeconds), options);
    }
    try {
      return sendPage(request, reply, 200, searchPage(query, await deps.search(query, SEARCH_PAGE_LIMIT)), options);
    } catch (error) {
      // The search service is down or timed out (503 `temporarily_unavailable` on the API): a page, not JSON.
      request.log.warn({ reqId: request.id, err: error instanceof Error ? error.message : String(error) }, 'brand page search failed');
      return sendPage(request, reply, 503, searchUnavailablePage(query), options);
    }
  });
}
