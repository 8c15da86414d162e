/**
 * Websites on loopback that cannot be indexed, one per way a crawl fails (docs/errors.md, "Crawl failures"). One
 * node:http server answers every host by its Host header; a second accepts connections and never answers; a
 * third host maps to a port nothing listens on. The crawler reaches them through its host map.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort } from './brandbase-process.js';

export const FAILING_HOSTS = {
  /** Nothing listens at the mapped port: the connection is refused. */
  refused: 'refused.test',
  /** Accepts the connection, reads the request, never answers (not even robots.txt). */
  silent: 'silent.test',
  /** The homepage is JSON. */
  json: 'json-api.test',
  /** The homepage is a PNG image. */
  image: 'image-only.test',
  /** The homepage answers 500. */
  serverError: 'server-error.test',
  /** The same, under a name no lookup has asked for (a queued crawl's own failure). */
  serverErrorAgain: 'server-error-again.test',
  /** robots.txt answers 503 (the site is down behind its front): unreachable, never a robots refusal. */
  robotsDown: 'robots-down.test',
  /** The homepage redirects to itself. */
  loop: 'redirect-loop.test',
  /** The homepage redirects to an unmapped loopback address, which the crawler may not reach. */
  private: 'to-private.test',
} as const;

/** Not in any host map and not resolvable: the crawler's DNS lookup fails. */
export const UNRESOLVABLE_HOST = 'no-such-brand-anywhere.test';

export interface FailingSites {
  hostMap: Record<string, string>;
  /** Paths requested so far per host (the answering server only). */
  requests: Record<string, string[]>;
  close(): Promise<void>;
}

const PNG_1X1 = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5f6f3ee0000000049454e44ae426082', 'hex');

function answer(host: string, path: string, res: ServerResponse, loopbackPort: number): void {
  if (host === FAILING_HOSTS.robotsDown) return void res.writeHead(path === '/robots.txt' ? 503 : 200, { 'content-type': 'text/html' }).end('<!doctype html><title>Down</title>');
  if (path === '/robots.txt') return void res.writeHead(404, { 'content-type': 'text/plain' }).end('none');
  switch (host) {
    case FAILING_HOSTS.json:
      return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"name":"An API, not a website"}');
    case FAILING_HOSTS.image:
      return void res.writeHead(200, { 'content-type': 'image/png' }).end(PNG_1X1);
    case FAILING_HOSTS.serverError:
    case FAILING_HOSTS.serverErrorAgain:
      return void res.writeHead(500, { 'content-type': 'text/html' }).end('<!doctype html><title>Oops</title>');
    case FAILING_HOSTS.loop:
      return void res.writeHead(302, { location: '/' }).end();
    case FAILING_HOSTS.private:
      return void res.writeHead(302, { location: `http://127.0.0.1:${loopbackPort}/` }).end();
    default:
      return void res.writeHead(404).end();
  }
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function closer(server: Server): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

export async function startFailingSites(): Promise<FailingSites> {
  const requests: Record<string, string[]> = {};
  let port = 0;
  const answering = createServer((req, res) => {
    const host = req.headers.host ?? '';
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    (requests[host] ??= []).push(path);
    answer(host, path, res, port);
  });
  port = await listen(answering);
  const silent = createServer(() => undefined);
  const silentPort = await listen(silent);
  const refusedPort = await freePort();
  const hostMap: Record<string, string> = { [FAILING_HOSTS.refused]: `127.0.0.1:${refusedPort}`, [FAILING_HOSTS.silent]: `127.0.0.1:${silentPort}` };
  for (const host of Object.values(FAILING_HOSTS)) hostMap[host] ??= `127.0.0.1:${port}`;
  const closeAnswering = closer(answering);
  const closeSilent = closer(silent);
  return {
    hostMap,
    requests,
    close: async () => {
      await Promise.all([closeAnswering(), closeSilent()]);
    },
  };
}
