/**
 * A real HTTP endpoint on loopback for delivery tests: keeps every request (raw body, headers, the peer address it
 * came from) and answers as the test says: 2xx, 500, a redirect, or never (a hung endpoint, for timeouts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  headers: Record<string, string>;
  body: string;
  remoteAddress: string;
}

export type ReceiverMode = 'accept' | 'fail' | 'hang' | 'redirect';

export interface WebhookReceiver {
  port: number;
  requests: ReceivedRequest[];
  mode: ReceiverMode;
  /** TCP connections accepted (to prove that a refused endpoint was never dialled). */
  connections: number;
  /** Resolves when the next request has been received in full. */
  next(): Promise<void>;
  close(): Promise<void>;
}

function flat(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** `port`: listen on this port (a receiver coming back where it was); 0 picks a free one. */
export async function startReceiver(mode: ReceiverMode = 'accept', port = 0): Promise<WebhookReceiver> {
  const hung: ServerResponse[] = [];
  let waiters: (() => void)[] = [];
  const receiver: WebhookReceiver = {
    port: 0,
    requests: [],
    mode,
    connections: 0,
    next: () => new Promise<void>((resolve) => waiters.push(resolve)),
    close: async () => undefined,
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      receiver.requests.push({ method: req.method ?? '', headers: flat(req), body: Buffer.concat(chunks).toString('utf8'), remoteAddress: req.socket.remoteAddress ?? '' });
      const woken = waiters;
      waiters = [];
      for (const wake of woken) wake();
      switch (receiver.mode) {
        case 'accept':
          res.writeHead(204).end();
          break;
        case 'fail':
          res.writeHead(500, { 'content-type': 'text/plain' }).end(`boom ${'x'.repeat(5000)}`);
          break;
        case 'redirect':
          res.writeHead(307, { location: 'http://hooks.test/elsewhere' }).end();
          break;
        case 'hang':
          hung.push(res);
          break;
      }
    });
  });
  server.on('connection', () => (receiver.connections += 1));
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.close = async () => {
    for (const res of hung) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return receiver;
}
