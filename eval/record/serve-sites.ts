/** Serves generated sites on loopback, one node:http server per host, for the crawler's host map. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GeneratedSite } from './site-generator.js';

export interface ServedSites {
  hostMap: Record<string, string>;
  close(): Promise<void>;
}

const ROBOTS = 'User-agent: *\nAllow: /\n';

export async function serveSites(sites: GeneratedSite[]): Promise<ServedSites> {
  const servers: Server[] = [];
  const hostMap: Record<string, string> = {};
  for (const site of sites) {
    const server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://site').pathname;
      const file = path === '/robots.txt' ? { type: 'text/plain', body: ROBOTS } : site.files[path];
      if (!file) return void res.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><title>Not found</title>');
      res.writeHead(200, { 'content-type': file.type }).end(file.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    hostMap[site.host] = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    servers.push(server);
  }
  return {
    hostMap,
    close: async () => {
      await Promise.all(servers.map((s) => new Promise<void>((resolve) => {
        s.closeAllConnections();
        s.close(() => resolve());
      })));
    },
  };
}
