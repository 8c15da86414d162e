/**
 * The fleet throughput bench's load generator (bench/fleet-throughput.ts), in a process of its own so it never
 * shares an event loop with the bench's bookkeeping. Each message `{ urls, headers, connections, durationSeconds }`
 * runs one autocannon measurement (several URLs: autocannon spreads the connections over them round robin) and
 * answers the mean requests/s, non-2xx and error counts, and the CPU seconds this process used meanwhile.
 *
 *   fork('bench/fleet-load-generator.ts', [], { execArgv: ['--import', 'tsx'] })
 */
import autocannon from 'autocannon';

export interface LoadRequest {
  urls: string[];
  headers: Record<string, string>;
  connections: number;
  durationSeconds: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  non2xx: number;
  errors: number;
  cpuSeconds: number;
}

async function measure(request: LoadRequest): Promise<LoadResult> {
  const before = process.cpuUsage();
  const result = await autocannon({
    // autocannon takes an array of URLs at run time (its README: "More than one URL is allowed"; lib/url.js), though
    // its type declarations say string: each connection is given one of them in turn.
    url: request.urls as unknown as string,
    headers: request.headers,
    connections: request.connections,
    duration: request.durationSeconds,
    pipelining: 1,
  });
  const used = process.cpuUsage(before);
  return { requestsPerSecond: result.requests.average, non2xx: result.non2xx, errors: result.errors, cpuSeconds: (used.user + used.system) / 1e6 };
}

process.on('message', (request: LoadRequest) => {
  measure(request).then(
    (result) => process.send?.(result),
    (error: unknown) => process.send?.({ error: error instanceof Error ? error.message : String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
process.send?.('ready');
