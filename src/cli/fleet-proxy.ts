/**
 * A round-robin reverse proxy for the local fleet (`brandbase fleet --proxy-port`): one address in front of the API
 * processes, as nginx or HAProxy is in production (docs/deployment.md). Requests and answers are streamed as they
 * are; a process that refuses the connection is skipped for the next one. It is a convenience for trying a fleet on
 * one machine, not a production load balancer: no health checks, no TLS, no buffering limits of its own.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** Hop-by-hop headers a proxy must not forward (RFC 9110, 7.6.1). */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade'];

function forwardedHeaders(req: IncomingMessage): Record<string, string | string[] | undefined> {
  const headers: Record<string, string | string[] | undefined> = { ...req.headers };
  for (const name of HOP_BY_HOP) delete headers[name];
  const client = req.socket.remoteAddress ?? '';
  headers['x-forwarded-for'] = req.headers['x-forwarded-for'] ? `${String(req.headers['x-forwarded-for'])}, ${client}` : client;
  return headers;
}

function badGateway(res: ServerResponse): void {
  if (res.headersSent) return void res.destroy();
  res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'No API process of the fleet answered.' }));
}

/** Sends the request to upstreams[start], then the next ones while they refuse the connection. */
function forward(req: IncomingMessage, res: ServerResponse, upstreams: number[], start: number, tried = 0): void {
  const port = upstreams[(start + tried) % upstreams.length];
  const upstream = request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers: forwardedHeaders(req) }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', (error: NodeJS.ErrnoException) => {
    // Only a refused connection is safe to send elsewhere (nothing reached that process), and only without a body
    // (a body already read into the refused request cannot be read again).
    const bodiless = req.method === 'GET' || req.method === 'HEAD';
    if (error.code === 'ECONNREFUSED' && bodiless && tried + 1 < upstreams.length) return forward(req, res, upstreams, start, tried + 1);
    badGateway(res);
  });
  req.pipe(upstream);
}

/** Listens on `port` of `host` and spreads requests over the API processes' ports in turn. */
export async function startFleetProxy(port: number, host: string, upstreams: number[]): Promise<Server> {
  let next = 0;
  const server = createServer((req, res) => {
    const start = next;
    next = (next + 1) % upstreams.length;
    forward(req, res, upstreams, start);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
