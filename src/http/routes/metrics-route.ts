import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../domain/errors.js';
import type { MetricsRegistry } from '../../platform/metrics.js';
import { ErrorBody } from '../schemas/route-schemas.js';

export interface MetricsRouteOptions {
  registry: MetricsRegistry;
  /**
   * The bearer token a scrape must send; null: none is accepted (the API's listener without BRANDBASE_METRICS_TOKEN);
   * undefined: no token asked (the metrics port, which the operator keeps on a private network).
   */
  token: string | null | undefined;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** A checker comparing digests in constant time, so the token's bytes cannot be found by timing the answers. */
function tokenCheck(token: string | null | undefined): (authorization: string | undefined) => boolean {
  if (token === undefined) return () => true;
  if (token === null) return () => false;
  const expected = digest(token);
  return (authorization) => {
    const match = /^Bearer (\S+)$/i.exec(authorization ?? '');
    return match !== null && timingSafeEqual(digest(match[1] ?? ''), expected);
  };
}

/**
 * `GET /metrics` in Prometheus text format (ADR 0039, docs/deployment.md#metrics): requests by route template and
 * status, crawls, queue, credits, brand cache and renderer counts, and the process's own. Free; never user data in a
 * label. 401 `metrics_token_required` without the right token.
 */
export function registerMetricsRoute(app: FastifyInstance, options: MetricsRouteOptions): void {
  const allowed = tokenCheck(options.token);
  const schema = {
    summary: 'Metrics in Prometheus text format (needs the metrics token on the API port)',
    tags: ['service'],
    // Not an API key: the operator's metrics token (BRANDBASE_METRICS_TOKEN), described here rather than as a scheme.
    description: 'Send `Authorization: Bearer <BRANDBASE_METRICS_TOKEN>`; the metrics port (BRANDBASE_METRICS_PORT) asks for none.',
    security: [],
    response: { 401: ErrorBody },
    docResponses: { 200: { description: 'the Prometheus text exposition (format 0.0.4)', contentTypes: ['text/plain'] } },
  };
  app.get('/metrics', { schema }, async (request, reply) => {
    if (!allowed(request.headers.authorization)) throw new ApiError('metrics_token_required');
    const { contentType, body } = await options.registry.render();
    return reply.header('content-type', contentType).send(body);
  });
}
