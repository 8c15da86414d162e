/**
 * Brand websites that change between two crawls, for change-detection tests: one HTTP server on loopback serving
 * every test host (chosen by the Host header, reached through the crawler's host map), each host showing the
 * version of the site the test set. Marks are real brand marks from the `simple-icons` package: a wordmark logo
 * (mark + name, SVG) in the header and a PNG favicon rendered from the same mark with sharp. Re-exports are real
 * re-encodings: the same drawing written differently (attribute order, whitespace, size) and PNGs compressed anew.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import type { SimpleIcon } from 'simple-icons';

export interface SiteVersion {
  /** The brand name the page states (title, og:site_name, application-name, logo alt, wordmark text). */
  name: string;
  /** The mark of the header logo. */
  logoMark: SimpleIcon;
  /** The mark of the favicon. */
  iconMark: SimpleIcon;
  /** How the files are written: `original`, or `reexported` (same drawings, other bytes, logo drawn twice as large). */
  encoding?: 'original' | 'reexported';
}

export interface ChangingSites {
  hostMap: Record<string, string>;
  /** Sets (or changes) what `host` serves from now on. */
  set(host: string, version: SiteVersion): void;
  close(): Promise<void>;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A horizontal wordmark: the mark, then the name. `reexported` writes the same picture at twice the size, differently. */
function wordmark(v: SiteVersion): string {
  const fill = `#${v.logoMark.hex.toLowerCase()}`;
  const word = escapeXml(v.name);
  if (v.encoding === 'reexported') {
    return [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<!-- exported again by a design tool -->',
      `<svg viewBox="0 0 132 24" height="48" width="264" version="1.1" xmlns="http://www.w3.org/2000/svg">`,
      `  <g>`,
      `    <path d="${v.logoMark.path}" fill="${fill.toUpperCase()}"></path>`,
      `    <text font-weight="700" font-size="16" font-family="DejaVu Sans, sans-serif" y="18" x="30" fill="#111111">${word}</text>`,
      `  </g>`,
      `</svg>`,
    ].join('\n');
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="132" height="24" viewBox="0 0 132 24"><path fill="${fill}" d="${v.logoMark.path}"/><text x="30" y="18" font-family="DejaVu Sans, sans-serif" font-size="16" font-weight="700" fill="#111111">${word}</text></svg>`;
}

/** A square PNG of the icon mark; `reexported` renders it at 64 px with other compression settings. */
async function favicon(v: SiteVersion): Promise<Buffer> {
  const size = v.encoding === 'reexported' ? 64 : 32;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 24 24"><path fill="#${v.iconMark.hex}" d="${v.iconMark.path}"/></svg>`;
  const image = sharp(Buffer.from(svg));
  return v.encoding === 'reexported' ? image.png({ compressionLevel: 2, adaptiveFiltering: true }).toBuffer() : image.png().toBuffer();
}

function page(v: SiteVersion): string {
  const name = escapeXml(v.name);
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>${name}</title>
  <meta property="og:site_name" content="${name}">
  <meta name="application-name" content="${name}">
  <meta name="description" content="${name} makes tools for teams that ship.">
  <link rel="icon" type="image/png" href="/favicon.png">
</head>
<body>
  <header>
    <a href="/"><img src="/logo.svg" alt="${name} logo"></a>
    <nav><a href="/docs">Docs</a> <a href="/pricing">Pricing</a></nav>
  </header>
  <main><h1>Welcome to ${name}</h1><p>Tools for teams that ship.</p></main>
</body>
</html>`;
}

interface Files {
  '/': string;
  '/logo.svg': string;
  '/favicon.png': Buffer;
}

export async function startChangingSites(hosts: readonly string[]): Promise<ChangingSites> {
  const served = new Map<string, Promise<Files>>();
  const server: Server = createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const files = served.get(host);
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    if (files === undefined) {
      res.writeHead(404).end();
      return;
    }
    files.then(
      (f) => {
        if (path === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(f['/']);
        else if (path === '/logo.svg') res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(f['/logo.svg']);
        else if (path === '/favicon.png') res.writeHead(200, { 'content-type': 'image/png' }).end(f['/favicon.png']);
        else if (path === '/robots.txt') res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
        else res.writeHead(404).end();
      },
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    hostMap: Object.fromEntries(hosts.map((h) => [h, address])),
    set(host, version) {
      served.set(host, favicon(version).then((png) => ({ '/': page(version), '/logo.svg': wordmark(version), '/favicon.png': png })));
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
