import type { FastifyInstance } from 'fastify';

/**
 * One log line per request. The URL is deliberately absent: a lookup path can hold a website URL or an email
 * address, which the spec forbids keeping (section 1, rules 2 and 3). The route template and the registrable
 * domain the lookup resolved to are enough to follow a request.
 */
export function installRequestLogging(app: FastifyInstance): void {
  // Callback style: an async hook costs a promise per request on the hottest path.
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      {
        reqId: request.id,
        method: request.method,
        route: request.routeOptions.url ?? null,
        status: reply.statusCode,
        domain: request.resolvedDomain ?? undefined,
        ms: Math.round(reply.elapsedTime),
      },
      'request',
    );
    done();
  });
}
