/**
 * Fixture websites on loopback, one node:http server per site, reachable by the crawler through its host map
 * (`{"northwind.test": "127.0.0.1:40123", ...}`). Pages are templates under test/fixtures/sites/ filled at
 * startup with real brand marks and official colours from the simple-icons package; raster icons, the ICO and
 * the banner are rendered with sharp from the same SVG paths, so no brand asset is copied by hand.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import * as icons from 'simple-icons';

/** Host names of the fixture sites, for crawl, HTTP and end-to-end tests. */
export const FIXTURE_HOSTS = {
  /** A complete brand site (logo, icons, manifest, colours, fonts, banner, JSON-LD, social links). */
  northwind: 'northwind.test',
  /** Plain text page: no logo, no icon, no CSS; mentions adult education and breast cancer research. */
  plainfield: 'plainfield.test',
  /** Redirects every path to https://newname.test/. */
  oldname: 'oldname.test',
  /** The redirect target: a small site with a square header mark. */
  newname: 'newname.test',
  /** robots.txt disallows every crawler. */
  robotsBlocked: 'robotsblocked.test',
  /** Homepage headers arrive, then the body trickles for a minute. */
  slowpoke: 'slowpoke.test',
  /** Homepage is an endless stream. */
  hugepage: 'hugepage.test',
  /** Dark header with a white inline SVG logo, self-hosted fonts, Next.js font names, broken JSON-LD. */
  nightjar: 'nightjar.test',
  /** Declares itself adult content with <meta name="rating" content="adult">. */
  velvetroom: 'velvetroom.test',
  /** <picture> logo with a dark-scheme variant, CSS hero background, photo pictures on home and /products. */
  lumen: 'lumen.test',
  /** Single-page-app shell: the header and its logo are built by JavaScript (needs rendering). */
  spashell: 'spashell.test',
} as const;

export type FixtureSiteName = keyof typeof FIXTURE_HOSTS;

/** The real marks the sites use, exported so tests can compare against the package's own data. */
export const FIXTURE_ICONS = {
  northwind: icons.siHashnode,
  nightjar: icons.siTwitch,
  newname: icons.siDigitalocean,
  logoWall: [icons.siStripe, icons.siShopify, icons.siNotion],
  lumen: icons.siFramer,
  spashell: icons.siSvelte,
} as const;

export interface FixtureSite {
  host: string;
  /** `127.0.0.1:port` */
  address: string;
  /** Paths requested so far, in order. */
  requests: string[];
}

export interface FixtureSites {
  hostMap: Record<string, string>;
  sites: Record<FixtureSiteName, FixtureSite>;
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, path: string) => void;
interface StaticFile {
  type: string;
  body: Buffer | string;
}

const TEMPLATES = new URL('../fixtures/sites/', import.meta.url);
const ALLOW_ALL_ROBOTS = 'User-agent: *\nAllow: /\n';

export async function startFixtureSites(): Promise<FixtureSites> {
  const handlers: Record<FixtureSiteName, Handler> = {
    northwind: staticSite(await northwindFiles()),
    plainfield: staticSite({ '/': html(await template('plainfield/index.html')) }),
    oldname: redirectSite(`https://${FIXTURE_HOSTS.newname}/`),
    newname: staticSite(await newnameFiles()),
    robotsBlocked: staticSite({
      '/': html(await template('robotsblocked/index.html')),
      '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nDisallow: /\n' },
    }),
    slowpoke: slowSite(),
    hugepage: endlessSite(),
    nightjar: staticSite(await nightjarFiles()),
    velvetroom: staticSite({ '/': html(await template('velvetroom/index.html')) }),
    lumen: staticSite(await lumenFiles()),
    spashell: staticSite(await spashellFiles()),
  };
  const started = await Promise.all(
    (Object.keys(handlers) as FixtureSiteName[]).map(async (name) => [name, await listen(FIXTURE_HOSTS[name], handlers[name])] as const),
  );
  const sites = Object.fromEntries(started.map(([name, s]) => [name, s.site])) as Record<FixtureSiteName, FixtureSite>;
  return {
    hostMap: Object.fromEntries(started.map(([, s]) => [s.site.host, s.site.address])),
    sites,
    close: async () => {
      await Promise.all(started.map(([, s]) => s.close()));
    },
  };
}

async function listen(host: string, handler: Handler): Promise<{ site: FixtureSite; close(): Promise<void> }> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://fixture').pathname;
    requests.push(path);
    handler(req, res, path);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    site: { host, address: `127.0.0.1:${port}`, requests },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------- site kinds

function staticSite(files: Record<string, StaticFile>): Handler {
  const all: Record<string, StaticFile> = { '/robots.txt': { type: 'text/plain', body: ALLOW_ALL_ROBOTS }, ...files };
  return (_req, res, path) => {
    const file = all[path];
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Not found</title><h1>Not found</h1>');
      return;
    }
    res.writeHead(200, { 'content-type': file.type, 'content-length': Buffer.byteLength(file.body) }).end(file.body);
  };
}

function redirectSite(location: string): Handler {
  return (_req, res, path) => {
    if (path === '/robots.txt') res.writeHead(200, { 'content-type': 'text/plain' }).end(ALLOW_ALL_ROBOTS);
    else res.writeHead(301, { location, 'content-type': 'text/html' }).end(`<a href="${location}">Moved</a>`);
  };
}

/** Headers at once, then one small chunk every 250 ms for a minute: only a whole-request deadline stops it. */
function slowSite(): Handler {
  return (req, res, path) => {
    if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(ALLOW_ALL_ROBOTS);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.write('<!doctype html><html><head><title>Slowpoke</title></head><body>');
    let ticks = 0;
    const timer = setInterval(() => {
      ticks += 1;
      if (ticks > 240) {
        clearInterval(timer);
        res.end('</body></html>');
      } else res.write('<p>.</p>');
    }, 250);
    req.socket.on('close', () => clearInterval(timer));
  };
}

/** An endless homepage (capped at 256 MB so a broken client cannot fill the disk of a log collector). */
function endlessSite(): Handler {
  const chunk = Buffer.from(`<div class="filler">${'Lorem ipsum dolor sit amet. '.repeat(2300)}</div>\n`);
  return (req, res, path) => {
    if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(ALLOW_ALL_ROBOTS);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.write('<!doctype html><html><head><title>Huge page</title></head><body>');
    let sent = 0;
    const pump = (): void => {
      while (sent < 256 * 1024 * 1024 && !res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end('</body></html>');
    };
    req.socket.on('close', () => res.destroy());
    pump();
  };
}

// ---------------------------------------------------------------- site contents

async function northwindFiles(): Promise<Record<string, StaticFile>> {
  const mark = FIXTURE_ICONS.northwind;
  const hex = `#${mark.hex.toLowerCase()}`;
  const [p1, p2, p3] = FIXTURE_ICONS.logoWall;
  const vars = {
    BRAND_HEX: hex,
    PARTNER1_SLUG: p1.slug, PARTNER1_TITLE: p1.title,
    PARTNER2_SLUG: p2.slug, PARTNER2_TITLE: p2.title,
    PARTNER3_SLUG: p3.slug, PARTNER3_TITLE: p3.title,
  };
  const partners = Object.fromEntries(
    FIXTURE_ICONS.logoWall.map((icon) => [`/assets/img/partners/${icon.slug}.svg`, svgFile(markSvg(icon.path, `#${icon.hex}`, 40))]),
  );
  return {
    '/': html(await template('northwind/index.html', vars)),
    '/assets/css/main.css': { type: 'text/css', body: await template('northwind/main.css', vars) },
    '/assets/css/typography.css': { type: 'text/css', body: await template('northwind/typography.css', vars) },
    '/site.webmanifest': { type: 'application/manifest+json', body: await template('northwind/site.webmanifest', vars) },
    '/assets/img/northwind-logo.svg': svgFile(wordmarkSvg(mark.path, hex, 'Northwind', '#1a1a2e')),
    '/assets/img/cookie.svg': svgFile(markSvg('M12 2a10 10 0 1 0 10 10 4 4 0 0 1-5-5 4 4 0 0 1-5-5z', '#c8a165', 32)),
    '/favicon.ico': { type: 'image/x-icon', body: encodeIco(await Promise.all([16, 32, 48].map((s) => pngOf(markSvg(mark.path, hex, s))))) },
    '/favicon-32x32.png': png(await pngOf(markSvg(mark.path, hex, 32))),
    '/apple-touch-icon.png': png(await pngOf(appIconSvg(mark.path, hex, 180))),
    '/android-chrome-192x192.png': png(await pngOf(appIconSvg(mark.path, hex, 192))),
    '/android-chrome-512x512.png': png(await pngOf(appIconSvg(mark.path, hex, 512))),
    '/images/og-banner.png': png(await pngOf(bannerSvg(mark.path, hex))),
    ...partners,
  };
}

async function newnameFiles(): Promise<Record<string, StaticFile>> {
  const mark = FIXTURE_ICONS.newname;
  const hex = `#${mark.hex.toLowerCase()}`;
  return {
    '/': html(await template('newname/index.html')),
    '/logo.svg': svgFile(markSvg(mark.path, hex, 40)),
    '/favicon-32x32.png': png(await pngOf(markSvg(mark.path, hex, 32))),
  };
}

async function nightjarFiles(): Promise<Record<string, StaticFile>> {
  const mark = FIXTURE_ICONS.nightjar;
  const hex = `#${mark.hex.toLowerCase()}`;
  const vars = { BRAND_HEX: hex, MARK_PATH: mark.path };
  return {
    '/': html(await template('nightjar/index.html', vars)),
    '/_next/static/css/app.css': { type: 'text/css', body: await template('nightjar/app.css', vars) },
    '/icon.svg': svgFile(markSvg(mark.path, hex, 24)),
    '/safari-pinned-tab.svg': svgFile(markSvg(mark.path, '#000000', 16)),
  };
}

async function lumenFiles(): Promise<Record<string, StaticFile>> {
  const mark = FIXTURE_ICONS.lumen;
  const hex = `#${mark.hex.toLowerCase()}`;
  const partners = await Promise.all(FIXTURE_ICONS.logoWall.map((icon) => pngOf(markSvg(icon.path, `#${icon.hex}`, 40))));
  return {
    '/': html(await template('lumen/index.html')),
    '/products': html(await template('lumen/products.html')),
    '/css/site.css': { type: 'text/css', body: await template('lumen/site.css') },
    '/img/lumen-logo.svg': svgFile(wordmarkSvg(mark.path, hex, 'Lumen', '#111111')),
    '/img/lumen-logo-on-dark.svg': svgFile(wordmarkSvg(mark.path, '#ffffff', 'Lumen', '#ffffff')),
    '/favicon-32x32.png': png(await pngOf(markSvg(mark.path, hex, 32))),
    '/apple-touch-icon.png': png(await pngOf(appIconSvg(mark.path, hex, 180))),
    '/img/hero-wide.jpg': jpeg(await jpegOf(sceneSvg(1600, 600, '#1e3a8a', '#f59e0b', 3))),
    '/img/gallery-hall.jpg': jpeg(await jpegOf(sceneSvg(1200, 800, '#0f766e', '#fde68a', 5))),
    '/img/gallery-hall-small.jpg': jpeg(await jpegOf(sceneSvg(1200, 800, '#0f766e', '#fde68a', 5), 600)),
    '/img/reading-room.jpg': jpeg(await jpegOf(sceneSvg(900, 900, '#7c2d12', '#fef3c7', 2))),
    '/img/pendant.jpg': jpeg(await jpegOf(sceneSvg(800, 1000, '#1f2937', '#d4a373', 1))),
    '/img/blank.png': png(await sharp({ create: { width: 400, height: 300, channels: 3, background: '#eeeeee' } }).png().toBuffer()),
    '/img/tracking.png': png(await sharp({ create: { width: 1, height: 1, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).png().toBuffer()),
    '/img/partners/a.png': png(partners[0] ?? Buffer.alloc(0)),
    '/img/partners/b.png': png(partners[1] ?? Buffer.alloc(0)),
    '/img/partners/c.png': png(partners[2] ?? Buffer.alloc(0)),
  };
}

async function spashellFiles(): Promise<Record<string, StaticFile>> {
  const mark = FIXTURE_ICONS.spashell;
  const hex = `#${mark.hex.toLowerCase()}`;
  return {
    '/': html(await template('spashell/index.html')),
    '/static/js/main.js': { type: 'text/javascript', body: await template('spashell/main.js') },
    '/static/media/spashell-logo.svg': svgFile(wordmarkSvg(mark.path, hex, 'Spashell', '#111111')),
    '/favicon-32x32.png': png(await pngOf(markSvg(mark.path, hex, 32))),
  };
}

// ---------------------------------------------------------------- files and images

async function template(relativePath: string, vars: Record<string, string> = {}): Promise<string> {
  const text = await readFile(new URL(relativePath, TEMPLATES), 'utf8');
  return text.replace(/\{\{([A-Z0-9_]+)\}\}/g, (whole, key: string) => vars[key] ?? whole);
}

function html(body: string): StaticFile {
  return { type: 'text/html; charset=utf-8', body };
}

function svgFile(body: string): StaticFile {
  return { type: 'image/svg+xml', body };
}

function png(body: Buffer): StaticFile {
  return { type: 'image/png', body };
}

function jpeg(body: Buffer): StaticFile {
  return { type: 'image/jpeg', body };
}

/** A photo-like scene (sky gradient, sun, hills): distinct per seed, so pictures differ by perceptual hash. */
function sceneSvg(width: number, height: number, sky: string, sun: string, seed: number): string {
  const hills = Array.from({ length: 3 }, (_, i) => {
    const y = height * (0.55 + 0.12 * i);
    const bump = (seed * 97 + i * 41) % 200;
    return `<path d="M0 ${y} Q ${width * 0.3} ${y - 120 - bump} ${width * 0.6} ${y} T ${width} ${y - bump / 2} V ${height} H 0 Z" fill="#${(2 + i * 3).toString(16)}${(5 + seed).toString(16)}3${i}2${seed % 10}"/>`;
  }).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${sky}"/><stop offset="1" stop-color="#ffffff"/></linearGradient></defs><rect width="${width}" height="${height}" fill="url(#g)"/><circle cx="${width * (0.2 + 0.12 * seed)}" cy="${height * 0.3}" r="${height * 0.12}" fill="${sun}"/>${hills}</svg>`;
}

async function jpegOf(svg: string, width?: number): Promise<Buffer> {
  const image = sharp(Buffer.from(svg));
  return (width ? image.resize({ width }) : image).jpeg({ quality: 85 }).toBuffer();
}

/** A simple-icons mark (24×24 path) on a transparent square. */
export function markSvg(path: string, fill: string, size: number): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 24 24"><path fill="${fill}" d="${path}"/></svg>`;
}

/** Mark plus wordmark text: a horizontal logo (132×24). */
function wordmarkSvg(path: string, fill: string, word: string, textFill: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="132" height="24" viewBox="0 0 132 24"><title>${word}</title><path fill="${fill}" d="${path}"/><text x="30" y="18" font-family="Inter, Arial, sans-serif" font-size="16" font-weight="700" fill="${textFill}">${word}</text></svg>`;
}

/** App icon: white mark on the brand colour, opaque, with the usual safe-zone padding. */
function appIconSvg(path: string, background: string, size: number): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 24 24"><rect width="24" height="24" fill="${background}"/><g transform="translate(4 4) scale(0.6667)"><path fill="#ffffff" d="${path}"/></g></svg>`;
}

function bannerSvg(path: string, background: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630"><rect width="1200" height="630" fill="${background}"/><g transform="translate(480 195) scale(10)"><path fill="#ffffff" d="${path}"/></g></svg>`;
}

async function pngOf(svg: string): Promise<Buffer> {
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** An ICO with PNG-compressed entries (allowed since Windows Vista), sizes read from each PNG's IHDR. */
export function encodeIco(pngs: Buffer[]): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(pngs.length, 4);
  let offset = 6 + 16 * pngs.length;
  const entries = pngs.map((image) => {
    const entry = Buffer.alloc(16);
    const width = image.readUInt32BE(16);
    const height = image.readUInt32BE(20);
    entry.writeUInt8(width >= 256 ? 0 : width, 0);
    entry.writeUInt8(height >= 256 ? 0 : height, 1);
    entry.writeUInt16LE(1, 4);
    entry.writeUInt16LE(32, 6);
    entry.writeUInt32LE(image.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += image.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...pngs]);
}
