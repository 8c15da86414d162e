/**
 * Hostile websites on loopback (issue 13): pages and files built to make a crawler burn CPU or memory. One
 * node:http server answers every host by its Host header; the crawler reaches them through its host map
 * (`{"deep.test": "127.0.0.1:40123", ...}`). Everything is generated at startup; no file is checked in.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

export const HOSTILE_HOSTS = {
  /** 25,000 nested <div> elements (parsing, selector matching and tree walks go deep). */
  deep: 'deep.test',
  /** A flat DOM filling the 2 MB parse cap: ~670,000 auto-closed <p> elements (about 640 MB of V8 heap). */
  flat: 'flat.test',
  /** favicon.ico with 60 directory entries pointing at one 4000×4000 1-bit bitmap (each decoded to 64 MB). */
  icoBomb: 'icobomb.test',
  /** Logos and icons in every format declaring enormous dimensions, and a real 36-megapixel PNG under the cap. */
  pixelBombs: 'pixelbombs.test',
  /** A 1 MB stylesheet: thousands of rules, selectors and custom properties. */
  bigCss: 'bigcss.test',
  /** Headers at once, then a byte now and then, for minutes. */
  slow: 'slow.test',
  /** The slow site again under another name (a crawl in flight when the server is killed). */
  slowAgain: 'slow-again.test',
  /** A homepage that never ends. */
  endless: 'endless.test',
  /** An empty app shell whose script builds a 9 MB DOM (rendered in Chromium; the HTML comes back to us). */
  scriptBomb: 'scriptbomb.test',
  /** Quadratic tree building: 20,000 open <b> elements re-opened around each of 20,000 paragraphs (220 KB). */
  formatting: 'formatting.test',
  /** The deep page again, asked for by HEAD prefetch (the job pool crawls it). */
  deepPrefetch: 'deep-prefetch.test',
  /** A small, well-formed brand site: the crawler still works after the others. */
  benign: 'benign.test',
} as const;

export type HostileSiteName = keyof typeof HOSTILE_HOSTS;

export interface HostileSites {
  hostMap: Record<string, string>;
  /** Paths requested so far per host. */
  requests: Record<string, string[]>;
  close(): Promise<void>;
}

interface StaticFile {
  type: string;
  body: Buffer | string;
}

type Handler = (req: IncomingMessage, res: ServerResponse, path: string) => void;

const ROBOTS = 'User-agent: *\nAllow: /\n';

export async function startHostileSites(): Promise<HostileSites> {
  const handlers: Record<string, Handler> = {
    [HOSTILE_HOSTS.deep]: staticSite({ '/': html(deepPage(25_000)) }),
    [HOSTILE_HOSTS.flat]: staticSite({ '/': html(flatPage()) }),
    [HOSTILE_HOSTS.icoBomb]: staticSite({
      '/': html('<!doctype html><html><head><title>Ico bomb</title><link rel="icon" href="/favicon.ico"></head><body><h1>Ico bomb</h1></body></html>'),
      '/favicon.ico': { type: 'image/x-icon', body: manyEntryIco(4000, 60) },
    }),
    [HOSTILE_HOSTS.pixelBombs]: staticSite(await pixelBombFiles()),
    [HOSTILE_HOSTS.bigCss]: staticSite({
      '/': html('<!doctype html><html><head><title>Big CSS</title><link rel="stylesheet" href="/site.css"></head><body><header class="site-header"><a class="logo" href="/">Big CSS</a></header><main class="c1 d2">Hello</main></body></html>'),
      '/site.css': { type: 'text/css', body: bigStylesheet(1024 * 1024) },
    }),
    [HOSTILE_HOSTS.scriptBomb]: staticSite({
      '/': html('<!doctype html><html><head><title>Script bomb</title><script src="/app.js"></script></head><body><div id="root"></div></body></html>'),
      '/app.js': { type: 'text/javascript', body: "document.addEventListener('DOMContentLoaded',function(){document.getElementById('root').innerHTML='<p class=\"x\">bomb</p>'.repeat(400000);});" },
    }),
    [HOSTILE_HOSTS.formatting]: staticSite({ '/': html(`<!doctype html><html><head><title>Formatting</title></head><body>${'<b>'.repeat(20_000)}${'<p>x</p>'.repeat(20_000)}</body></html>`) }),
    [HOSTILE_HOSTS.deepPrefetch]: staticSite({ '/': html(deepPage(25_000)) }),
    [HOSTILE_HOSTS.slow]: slowSite(),
    [HOSTILE_HOSTS.slowAgain]: slowSite(),
    [HOSTILE_HOSTS.endless]: endlessSite(),
    [HOSTILE_HOSTS.benign]: staticSite({
      '/': html(
        '<!doctype html><html><head><title>Benign</title><meta name="description" content="A well-behaved brand site."></head><body><header><a href="/" class="logo"><svg xmlns="http://www.w3.org/2000/svg" width="120" height="32" viewBox="0 0 120 32"><title>Benign</title><rect width="32" height="32" rx="6" fill="#0a7cff"/><path d="M40 8h10v16H40z" fill="#111111"/></svg></a></header><main><p>Benign makes things.</p></main></body></html>',
      ),
    }),
  };
  const requests: Record<string, string[]> = Object.fromEntries(Object.keys(handlers).map((host) => [host, []]));
  const server = createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    const path = new URL(req.url ?? '/', 'http://hostile').pathname;
    const handler = handlers[host];
    if (!handler) return void res.writeHead(404).end();
    requests[host]?.push(path);
    handler(req, res, path);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    hostMap: Object.fromEntries(Object.keys(handlers).map((host) => [host, address])),
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------- site kinds

function staticSite(files: Record<string, StaticFile>): Handler {
  const all: Record<string, StaticFile> = { '/robots.txt': { type: 'text/plain', body: ROBOTS }, ...files };
  return (_req, res, path) => {
    const file = all[path];
    if (!file) return void res.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><title>Not found</title>');
    res.writeHead(200, { 'content-type': file.type, 'content-length': Buffer.byteLength(file.body) }).end(file.body);
  };
}

/** One small chunk every 500 ms for five minutes: only the crawl's own deadline ends it. */
function slowSite(): Handler {
  return (req, res, path) => {
    if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(ROBOTS);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.write('<!doctype html><html><head><title>Slow</title></head><body>');
    const timer = setInterval(() => res.write('<p>.</p>'), 500);
    const stop = setTimeout(() => res.end('</body></html>'), 300_000);
    req.socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(stop);
    });
  };
}

/** As fast as the client reads, for ever (capped at 1 GB). */
function endlessSite(): Handler {
  const chunk = Buffer.from(`<div class="filler">${'<span>endless</span>'.repeat(3000)}</div>\n`);
  return (req, res, path) => {
    if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(ROBOTS);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.write('<!doctype html><html><head><title>Endless</title></head><body>');
    let sent = 0;
    const pump = (): void => {
      while (sent < 1024 * 1024 * 1024 && !res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end('</body></html>');
    };
    req.socket.on('close', () => res.destroy());
    pump();
  };
}

function html(body: string): StaticFile {
  return { type: 'text/html; charset=utf-8', body };
}

// ---------------------------------------------------------------- pages

export function deepPage(depth: number): string {
  return `<!doctype html><html><head><title>Deep</title></head><body>${'<div class="d">'.repeat(depth)}deep${'</div>'.repeat(depth)}</body></html>`;
}

/** Just under the 2 MB the crawler parses: every `<p>` closes the one before, so the DOM stays flat and huge. */
function flatPage(): string {
  const head = '<!doctype html><html><head><title>Flat</title></head><body>';
  return head + '<p>'.repeat(Math.floor((2 * 1024 * 1024 - head.length - 64) / 3)) + '</body></html>';
}

/** Realistic-looking CSS rules (compound selectors, colours, custom properties chained to each other). */
function bigStylesheet(bytes: number): string {
  const rules: string[] = [':root{--c0:#0a7cff;}'];
  let size = rules[0]?.length ?? 0;
  for (let i = 1; size < bytes; i++) {
    const rule = `.c${i} .d${i % 97} > a:hover,.e${i}:not(.f${i % 13}) [data-x="${i}"]{color:#${(i * 2654435761 % 0xffffff).toString(16).padStart(6, '0')};background:var(--c${i - 1});--c${i}:var(--c${i - 1});font-family:"Face ${i % 50}",sans-serif}\n`;
    rules.push(rule);
    size += rule.length;
  }
  return rules.join('');
}

// ---------------------------------------------------------------- images

/**
 * An .ico whose `count` directory entries all point at one 1-bit `side`×`side` BMP (XOR and AND masks): about
 * 4 MB on the wire for side 4000, and each entry decodes to side²×4 bytes of RGBA.
 */
export function manyEntryIco(side: number, count: number): Buffer {
  const row = Math.ceil(side / 32) * 4;
  const dib = Buffer.alloc(40 + 8 + row * side * 2);
  dib.writeUInt32LE(40, 0);
  dib.writeInt32LE(side, 4);
  dib.writeInt32LE(side * 2, 8);
  dib.writeUInt16LE(1, 12);
  dib.writeUInt16LE(1, 14);
  dib.writeUInt32LE(0x00ffffff, 44); // palette: black, white
  const header = Buffer.alloc(6 + 16 * count);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(count, 4);
  for (let i = 0; i < count; i++) {
    const entry = 6 + 16 * i;
    header.writeUInt16LE(1, entry + 4);
    header.writeUInt16LE(1, entry + 6);
    header.writeUInt32LE(dib.length, entry + 8);
    header.writeUInt32LE(header.length, entry + 12);
  }
  return Buffer.concat([header, dib]);
}

function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real PNG, all zeros, `bitDepth`-bit greyscale: a decompression bomb (tiny file, huge raster). */
export function zeroPng(width: number, height: number, bitDepth: 1 | 8): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(bitDepth, 8);
  ihdr.writeUInt8(0, 9); // greyscale
  const raw = Buffer.alloc((1 + Math.ceil((width * bitDepth) / 8)) * height); // filter byte 0 + zero pixels
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', ihdr), pngChunk('IDAT', deflateSync(raw, { level: 9 })), pngChunk('IEND', Buffer.alloc(0))]);
}

/** A small JPEG whose frame header (SOF0) declares `width`×`height`. */
async function hugeJpeg(width: number, height: number): Promise<Buffer> {
  const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#336699' } }).jpeg({ progressive: false }).toBuffer();
  for (let i = 2; i < jpeg.length - 9; i++) {
    if (jpeg[i] === 0xff && jpeg[i + 1] === 0xc0) {
      jpeg.writeUInt16BE(height, i + 5);
      jpeg.writeUInt16BE(width, i + 7);
      return jpeg;
    }
  }
  throw new Error('no SOF0 marker');
}

/** A small lossless WebP wrapped in an extended (VP8X) header declaring a 16-million-pixel-wide canvas. */
async function hugeWebp(): Promise<Buffer> {
  const webp = await sharp({ create: { width: 64, height: 64, channels: 4, background: '#33669980' } }).webp({ lossless: true }).toBuffer();
  const image = webp.subarray(12); // the VP8L chunk
  const vp8x = Buffer.alloc(18);
  vp8x.write('VP8X', 0, 'latin1');
  vp8x.writeUInt32LE(10, 4);
  vp8x.writeUInt8(0x10, 8); // alpha
  vp8x.writeUIntLE(0xffffff, 12, 3); // canvas width - 1
  vp8x.writeUIntLE(0xffffff, 15, 3); // canvas height - 1
  const body = Buffer.concat([Buffer.from('WEBP', 'latin1'), vp8x, image]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(body.length, 4);
  return Buffer.concat([riff, body]);
}

/** A small GIF whose logical screen and first frame declare 65535×65535. */
async function hugeGif(): Promise<Buffer> {
  const gif = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#336699' } }).gif().toBuffer();
  gif.writeUInt16LE(0xffff, 6);
  gif.writeUInt16LE(0xffff, 8);
  const descriptor = gif.indexOf(0x2c, 13);
  if (descriptor > 0) {
    gif.writeUInt16LE(0xffff, descriptor + 5);
    gif.writeUInt16LE(0xffff, descriptor + 7);
  }
  return gif;
}

/** An .ico with one PNG entry whose header declares 100000×100000. */
function hugeIco(): Buffer {
  const png = zeroPng(100_000, 100_000, 1).subarray(0, 33 + 12); // signature, IHDR and a truncated IDAT header
  const header = Buffer.alloc(22);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(1, 4);
  header.writeUInt16LE(1, 10);
  header.writeUInt16LE(32, 12);
  header.writeUInt32LE(png.length, 14);
  header.writeUInt32LE(22, 18);
  return Buffer.concat([header, png]);
}

/** An SVG declaring a million pixels a side, blurred and nested: the rasteriser's worst case. */
function hugeSvg(): string {
  const groups = '<g transform="scale(1.0001)">'.repeat(500) + '<rect width="1000000" height="1000000" fill="#0a7cff" filter="url(#b)"/>' + '</g>'.repeat(500);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1000000" height="1000000" viewBox="0 0 1000000 1000000"><title>Pixel bomb</title><defs><filter id="b"><feGaussianBlur stdDeviation="50000"/></filter></defs>${groups}</svg>`;
}

async function pixelBombFiles(): Promise<Record<string, StaticFile>> {
  const files: Record<string, StaticFile> = {
    '/logo.png': { type: 'image/png', body: zeroPng(20_000, 20_000, 1) },
    '/logo-near-cap.png': { type: 'image/png', body: zeroPng(6000, 6000, 8) },
    '/logo.jpg': { type: 'image/jpeg', body: await hugeJpeg(65_000, 65_000) },
    '/logo.webp': { type: 'image/webp', body: await hugeWebp() },
    '/logo.gif': { type: 'image/gif', body: await hugeGif() },
    '/favicon.ico': { type: 'image/x-icon', body: hugeIco() },
    '/logo.svg': { type: 'image/svg+xml', body: hugeSvg() },
  };
  const images = Object.keys(files)
    .filter((path) => path.startsWith('/logo'))
    .map((path) => `<img class="logo" src="${path}" alt="Pixel Bombs logo">`)
    .join('');
  files['/'] = html(
    `<!doctype html><html><head><title>Pixel Bombs</title><link rel="icon" href="/favicon.ico"><link rel="apple-touch-icon" href="/logo-near-cap.png"><meta property="og:image" content="/logo.jpg"></head><body><header class="site-header"><a href="/" class="logo">${images}</a></header><main><h1>Pixel Bombs</h1><img src="/logo.webp" alt="hero"><img src="/logo.gif" alt="banner"></main></body></html>`,
  );
  return files;
}
