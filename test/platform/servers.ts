import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { FetchError } from '../../src/platform/fetcher.js';

/** What a test server saw: enough to prove which requests did (or did not) reach it. */
export interface SeenRequest {
  host: string | undefined;
  path: string;
  headers: IncomingHttpHeaders;
}

export interface TestServer {
  port: number;
  /** `127.0.0.1:port`, the form a host map expects. */
  address: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A real HTTP server on an ephemeral loopback port; the fetcher reaches it only through its host map. */
export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    requests.push({ host: req.headers.host, path: req.url ?? '', headers: req.headers });
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    address: `127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port with nothing listening, for connection-refused tests. */
export async function closedPort(): Promise<number> {
  const server = await startServer(() => undefined);
  await server.close();
  return server.port;
}

/** Stands in for a DNS server: answers from a table, NXDOMAIN (ENOTFOUND) for everything else. */
export function fakeDns(answers: Record<string, string[]> = {}) {
  const queries: string[] = [];
  const lookup = async (hostname: string) => {
    queries.push(hostname);
    const addresses = answers[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) }));
  };
  return { lookup, queries };
}

/** Awaits a fetch that must fail and returns its FetchError (fails the test otherwise). */
export async function failure(promise: Promise<unknown>): Promise<FetchError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FetchError);
  return error as FetchError;
}
