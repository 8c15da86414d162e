/** Sends a brand page: the layout's security headers, a CSP that admits the asset origin, a short cache and an ETag. */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PAGE_SECURITY_HEADERS } from '../html.js';

/** Held brand pages and search pages change at most with a crawl: a minute of caching is invisible and saves work. */
export const BRAND_PAGE_MAX_AGE_SECONDS = 60;

export function pageHeaders(assetOrigin: string | null): Record<string, string> {
  const headers = { ...PAGE_SECURITY_HEADERS };
  // Asset URLs on a CDN (BRANDBASE_ASSET_BASE_URL) are another origin: the pages' images must still load.
  if (assetOrigin) headers['content-security-policy'] = (headers['content-security-policy'] ?? '').replace("img-src 'self' data:", `img-src 'self' data: ${assetOrigin}`);
  return headers;
}

export function sendPage(request: FastifyRequest, reply: FastifyReply, status: number, body: string, options: { assetOrigin: string | null; cacheControl: string }): FastifyReply {
  const etag = `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  reply.headers(pageHeaders(options.assetOrigin)).header('cache-control', options.cacheControl).header('etag', etag);
  if (status === 200 && request.headers['if-none-match'] === etag) return reply.code(304).send();
  return reply.code(status).send(body);
}
