/**
 * Many small brand sites on one loopback server for the fleet test: every host name mapped to it
 * (`fleet-3.test`, ...) answers its own brand (name, description, colour, SVG logo), and the home page answers only
 * after `delayMs`, so a crawl is still running when the test kills the worker that runs it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FleetSites {
  /** `127.0.0.1:port`, the address every host maps to. */
  address: string;
  /** Host map for BRANDBASE_CRAWL_HOSTS: each host to the one server. */
  hostMap(hosts: string[]): Record<string, string>;
  /** Home page requests received but not answered yet (crawls in progress somewhere). */
  pendingHomePages(): number;
  close(): Promise<void>;
}

/** A colour per host, so each brand differs from the next in more than its name. */
function colourOf(host: string): string {
  let hash = 0;
  for (const char of host) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return `#${(hash & 0xffffff).toString(16).padStart(6, '0')}`;
}

function titleOf(host: string): string {
  const label = host.split('.')[0] ?? host;
  return label.split('-').map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join(' ') + ' Works';
}

function homePage(host: string): string {
  const name = titleOf(host);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${name}</title>
    <meta property="og:site_name" content="${name}"><meta name="description" content="${name} builds tools for fleets.">
    <meta name="theme-color" content="${colourOf(host)}"><link rel="icon" href="/logo.svg" type="image/svg+xml"></head>
    <body><header><a href="/"><img src="/logo.svg" alt="${name} logo" class="logo"></a></header>
    <h1>${name}</h1><p>${name} builds tools for fleets of every size.</p></body></html>`;
}

function logo(host: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64"><rect width="64" height="64" rx="12" fill="${colourOf(host)}"/><circle cx="32" cy="32" r="14" fill="#ffffff"/></svg>`;
}

export async function startFleetSites(delayMs: number): Promise<FleetSites> {
  let pending = 0;
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    const host = (req.headers.host ?? '').split(':')[0] ?? '';
    const path = new URL(req.url ?? '/', 'http://fleet').pathname;
    if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    if (path === '/logo.svg') return void res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(logo(host));
    if (path !== '/') return void res.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><title>Not found</title>');
    pending += 1;
    const timer = setTimeout(() => {
      timers.delete(timer);
      pending -= 1;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(homePage(host));
    }, delayMs);
    timers.add(timer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    address,
    hostMap: (hosts) => Object.fromEntries(hosts.map((host) => [host, address])),
    pendingHomePages: () => pending,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
