import type { FastifyRequest } from 'fastify';
import type { HTTPAdapter, HTTPRequestContext } from '@x402/core/server';

/**
 * The x402 packages' view of a Fastify request (the `HTTPAdapter` of `@x402/core`; there is no Fastify adapter on
 * npm). The URL handed over is the request's own; the challenge's `resource` is the route template (X402_ROUTES),
 * so a requested identifier (an email address, a website URL) never appears in a header.
 */
export function x402Context(request: FastifyRequest): HTTPRequestContext {
  const path = request.url.split('?')[0] ?? request.url;
  const header = (name: string): string | undefined => {
    const value = request.headers[name.toLowerCase()];
    return Array.isArray(value) ? value[0] : value;
  };
  const adapter: HTTPAdapter = {
    getHeader: header,
    getMethod: () => request.method,
    getPath: () => path,
    getUrl: () => `${request.protocol}://${request.host}${request.url}`,
    getAcceptHeader: () => header('accept') ?? '',
    getUserAgent: () => header('user-agent') ?? '',
  };
  return { adapter, path, method: request.method };
}
