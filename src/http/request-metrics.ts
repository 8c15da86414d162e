import type { FastifyInstance } from 'fastify';
import { LATENCY_BUCKETS, type BoundCounter, type BoundHistogram, type MetricsRegistry } from '../platform/metrics.js';

/** A request no route matched: its path is user input and never a label. */
const UNMATCHED = 'unmatched';

interface RouteSeries {
  duration: BoundHistogram;
  byStatus: Map<number, BoundCounter>;
}

/**
 * Requests by method, route template and status, with latency histograms (ADR 0039). The route label is the
 * template Fastify matched (`/v2/brands/*`), never the URL: identifiers, website URLs and email addresses are user
 * data. Series are bound once per (method, template, status) and found through nested maps, so a request costs
 * three map reads and two increments, no string built.
 */
export function installRequestMetrics(app: FastifyInstance, metrics: MetricsRegistry): void {
  const requests = metrics.counter('brandbase_http_requests_total', 'HTTP requests by method, route template and status.', ['method', 'route', 'status']);
  const durations = metrics.histogram('brandbase_http_request_duration_seconds', 'HTTP request latency by method and route template, in seconds.', ['method', 'route'], LATENCY_BUCKETS);
  const series = new Map<string, Map<string, RouteSeries>>();
  const seriesOf = (method: string, route: string): RouteSeries => {
    let routes = series.get(method);
    if (!routes) series.set(method, (routes = new Map()));
    let found = routes.get(route);
    if (!found) routes.set(route, (found = { duration: durations.bind({ method, route }), byStatus: new Map() }));
    return found;
  };
  // Callback style, like request-logging.ts: an async hook costs a promise per request on the hottest path.
  app.addHook('onResponse', (request, reply, done) => {
    const route = seriesOf(request.method, request.routeOptions.url ?? UNMATCHED);
    const status = reply.statusCode;
    let counter = route.byStatus.get(status);
    if (!counter) route.byStatus.set(status, (counter = requests.bind({ method: request.method, route: request.routeOptions.url ?? UNMATCHED, status: String(status) })));
    counter.inc();
    route.duration.observe(reply.elapsedTime / 1000);
    done();
  });
}
