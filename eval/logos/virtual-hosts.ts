/**
 * One loopback HTTP server for the whole corpus, routing by Host header. The crawler reaches it through
 * SafeFetcher's host map (`{"linear.test": "127.0.0.1:PORT", ...}`), exactly as the test fixture sites.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StaticFile } from './eval-sites.js';

export interface VirtualHosts {
  hostMap: Record<string, string>;
  /** Paths requested per host. */
  requests: Map<string, string[]>;
  close(): Promise<void>;
}

const ROBOTS: StaticFile = { type: 'text/plain', body: 'User-agent: *\nAllow: /\n' };

export interface VirtualHostOptions {
  /** Every answer waits this long before its first byte, like a server across a network (bench/extraction.ts). */
  latencyMs?: number;
}

export async function serveVirtualHosts(sites: Record<string, Record<string, StaticFile>>, options: VirtualHostOptions = {}): Promise<VirtualHosts> {
  const requests = new Map<string, string[]>();
  const latency = options.latencyMs ?? 0;
  const server = createServer((req, res) => (latency > 0 ? setTimeout(answer, latency, req, res) : answer(req, res)));
  function answer(req: IncomingMessage, res: ServerResponse): void {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.set(host, [...(requests.get(host) ?? []), path]);
    const file = path === '/robots.txt' ? ROBOTS : sites[host]?.[path];
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Not found</title><h1>404</h1>');
      return;
    }
    res.writeHead(200, { 'content-type': file.type, 'content-length': Buffer.byteLength(file.body) }).end(file.body);
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    hostMap: Object.fromEntries(Object.keys(sites).map((host) => [host, `127.0.0.1:${port}`])),
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
