import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserRenderer, CHROMIUM_ARGS, findChromium, openRenderer } from '../../../src/crawl/fetch/render/browser-renderer.js';
import { createLogger } from '../../../src/platform/logger.js';
import type { Fetcher } from '../../../src/platform/fetcher.js';
import { SafeFetcher, USER_AGENT } from '../../../src/platform/safe-fetcher.js';
import { useProcessTimeouts } from '../../helpers/process-timeouts.js';
import { until } from '../../helpers/until.js';
import { CHROMIUM_PATH, needsChromium } from '../../helpers/optional.js';

const chromiumPath = CHROMIUM_PATH;
/**
 * The time cap of a render that must succeed. Starting Chromium counts against the first render's cap, and on a
 * busy 2-core machine a start alone can take many seconds: generous, since no test here is about speed.
 */
const RENDER_MS = 60_000;
/** The SSRF trap's tests, counted apart when Chromium is missing (test/helpers/optional.ts). */
const SSRF_TRAP = { tags: ['chromium-ssrf'] };

// Chromium processes: timeouts sized for a busy machine.
useProcessTimeouts();

/** A loopback service the page must never reach: the crawler's own admin port, a metadata endpoint, ... */
async function startTrap(): Promise<{ port: number; hits: string[]; server: Server }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method ?? ''} ${req.url ?? ''}`);
    res.writeHead(200, { 'content-type': 'image/png', 'access-control-allow-origin': '*' }).end('secret');
  });
  server.on('upgrade', (req, socket) => {
    hits.push(`UPGRADE ${req.url ?? ''}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, hits, server };
}

function pages(trapPort: number): Record<string, string> {
  const trap = `127.0.0.1:${trapPort}`;
  return {
    '/': `<!doctype html><html><head><title>Shell</title></head><body><div id="root"></div>
<img src="http://${trap}/img.png"><iframe src="http://${trap}/frame"></iframe>
<link rel="stylesheet" href="http://${trap}/style.css"><img src="http://rebind.test/rebind.png">
<script src="/app.js"></script></body></html>`,
    '/app.js': `
document.getElementById('root').innerHTML = '<header class="site-header"><a href="/"><img src="/logo.svg" alt="Shell"></a></header><main><h1>Built by JS</h1></main>';
fetch('http://${trap}/fetch').catch(() => {});
fetch('/api', { method: 'POST', body: 'x' }).catch(() => {});
try { new WebSocket('ws://${trap}/ws'); } catch (e) {}
try { navigator.sendBeacon('http://${trap}/beacon', 'x'); } catch (e) {}
try { const pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:${trap}' }] }); pc.createDataChannel('x'); pc.createOffer().then((o) => pc.setLocalDescription(o)); } catch (e) {}
const s = document.createElement('script'); s.src = 'http://169.254.169.254/latest/meta-data/'; document.head.appendChild(s);
document.body.dataset.cookie = document.cookie || 'none';
document.body.dataset.stored = localStorage.getItem('seen') || 'none';
document.cookie = 'visited=yes'; localStorage.setItem('seen', 'yes');
if (navigator.serviceWorker) navigator.serviceWorker.register('/sw.js').catch(() => {});
`,
    '/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="24"><rect width="120" height="24"/></svg>',
    '/consent': `<!doctype html><html><body><div id="onetrust-banner-sdk" style="position:fixed;bottom:0"><p>Cookies?</p><button id="onetrust-accept-btn-handler" onclick="document.getElementById('onetrust-banner-sdk').remove()">Accept</button></div><header><img src="/logo.svg" alt="Shell"></header></body></html>`,
    '/spin': '<!doctype html><html><body><script>while (true) {}</script></body></html>',
  };
}

async function startSite(files: Record<string, string>): Promise<{ address: string; requests: string[]; server: Server }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push(`${req.method ?? ''} ${path}`);
    if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    const body = files[path];
    if (body === undefined) return void res.writeHead(404).end();
    const type = path.endsWith('.js') ? 'text/javascript' : path.endsWith('.svg') ? 'image/svg+xml' : 'text/html';
    res.writeHead(200, { 'content-type': type }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { address: `127.0.0.1:${(server.address() as AddressInfo).port}`, requests, server };
}

describe('findChromium and openRenderer', () => {
  it('returns null for a path that is not an executable, and the service logs that rendering is off', () => {
    expect(findChromium('/nonexistent/chromium')).toBeNull();
    const lines: string[] = [];
    const logger = createLogger({ destination: new Writable({ write: (chunk: Buffer, _e, done) => (lines.push(chunk.toString()), done()) }) });
    expect(openRenderer({ chromiumPath: '/nonexistent/chromium', fetcher: new SafeFetcher(), userAgent: USER_AGENT, logger })).toBeUndefined();
    expect(lines.join('')).toMatch(/rendering is off/);
  });

  it('launch flags send anything Chromium does on its own to a dead proxy, loopback included', () => {
    expect(CHROMIUM_ARGS).toContain('--proxy-server=http://127.0.0.1:9');
    expect(CHROMIUM_ARGS).toContain('--proxy-bypass-list=<-loopback>');
    expect(CHROMIUM_ARGS.some((a) => a.includes('disable_non_proxied_udp'))).toBe(true);
  });
});

/** Fetches the renderer has started and not yet seen settle: a render's last requests can outlive the render. */
let fetchesInFlight = 0;

function countingFetcher(inner: Fetcher): Fetcher {
  return {
    async fetch(url, options) {
      fetchesInFlight += 1;
      try {
        return await inner.fetch(url, options);
      } finally {
        fetchesInFlight -= 1;
      }
    },
  };
}

needsChromium('render').describe('BrowserRenderer (headless Chromium through the safe fetcher)', () => {
  let trap: Awaited<ReturnType<typeof startTrap>>;
  let site: Awaited<ReturnType<typeof startSite>>;
  let renderer: BrowserRenderer;

  beforeAll(async () => {
    trap = await startTrap();
    site = await startSite(pages(trap.port));
    // rebind.test resolves to loopback, as a DNS-rebinding attacker's name would: the fetcher's policy refuses it.
    const fetcher = new SafeFetcher({
      hostMap: { 'shell.test': site.address },
      lookup: (host) => Promise.resolve(host === 'rebind.test' ? [{ address: '127.0.0.1', family: 4 }] : []),
    });
    renderer = new BrowserRenderer({ executablePath: chromiumPath ?? '', fetcher: countingFetcher(fetcher), userAgent: USER_AGENT });
  });

  afterAll(async () => {
    await renderer?.close();
    trap?.server.close();
    site?.server.close();
  });

  it('renders the JavaScript-built DOM with every request served by the fetcher', async () => {
    const page = await renderer.render('http://shell.test/', { timeoutMs: RENDER_MS });
    expect(page?.html).toContain('Built by JS');
    expect(page?.html).toContain('/logo.svg');
    expect(site.requests).toEqual(expect.arrayContaining(['GET /', 'GET /app.js', 'GET /logo.svg']));
  });

  it('a page cannot make Chromium reach a private address (img, iframe, css, fetch, WebSocket, beacon, WebRTC, metadata IP, rebinding)', SSRF_TRAP, async () => {
    await renderer.render('http://shell.test/', { timeoutMs: RENDER_MS });
    // The render closed its browser context (no new request can start); every request it did start went to the
    // fetcher (Chromium itself only has a dead proxy) and is settled once none is in flight. A request that had
    // reached the trap would have been logged there before its answer came back, so nothing can arrive later.
    await until(() => fetchesInFlight === 0, 'the render\'s fetches settling');
    expect(trap.hits).toEqual([]);
    // Non-GET requests are aborted before they reach even the site.
    expect(site.requests.filter((r) => !r.startsWith('GET '))).toEqual([]);
  });

  it('control: an unguarded Chromium on the same page does reach the trap (so the test above can fail)', SSRF_TRAP, async () => {
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: chromiumPath ?? '', headless: true });
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${trap.port}/direct`).catch(() => undefined);
      expect(trap.hits.length).toBeGreaterThan(0);
    } finally {
      await browser.close();
      trap.hits.length = 0;
    }
  });

  it('uses a fresh context per render: no cookie or storage survives', async () => {
    await renderer.render('http://shell.test/', { timeoutMs: RENDER_MS });
    const second = await renderer.render('http://shell.test/', { timeoutMs: RENDER_MS });
    expect(second?.html).toContain('data-cookie="none"');
    expect(second?.html).toContain('data-stored="none"');
  });

  it('dismisses a consent banner', async () => {
    const page = await renderer.render('http://shell.test/consent', { timeoutMs: RENDER_MS });
    expect(page?.html).toContain('logo.svg');
    expect(page?.html).not.toContain('onetrust-banner-sdk');
  });

  it('gives up at the hard time cap on a page that never yields', async () => {
    // The page never yields, so only the cap can end this render: that it returns at all is the check.
    const page = await renderer.render('http://shell.test/spin', { timeoutMs: 2_000 });
    expect(page).toBeNull();
    // The browser is still usable afterwards.
    expect((await renderer.render('http://shell.test/', { timeoutMs: RENDER_MS }))?.html).toContain('Built by JS');
  });
});

describe('BrowserRenderer when Chromium cannot start', () => {
  it('returns null and pauses rendering instead of retrying the launch on every crawl', async () => {
    // A "browser" that counts its launches and fails at once: the launches are counted, not timed.
    const dir = await mkdtemp(join(tmpdir(), 'brandbase-nochromium-'));
    const launches = join(dir, 'launches');
    const executablePath = join(dir, 'chromium');
    await writeFile(executablePath, `#!/bin/sh\necho launch >> '${launches}'\nexit 1\n`, { mode: 0o755 });
    const launchCount = async () => (await readFile(launches, 'utf8').catch(() => '')).split('\n').filter(Boolean).length;
    let now = 1_000;
    const renderer = new BrowserRenderer({ executablePath, fetcher: new SafeFetcher(), userAgent: USER_AGENT }, () => now);
    try {
      expect(await renderer.render('http://shell.test/', { timeoutMs: RENDER_MS })).toBeNull();
      expect(await launchCount()).toBe(1);
      expect(await renderer.render('http://shell.test/', { timeoutMs: RENDER_MS })).toBeNull();
      expect(await launchCount()).toBe(1);
      now += 6 * 60_000;
      expect(await renderer.render('http://shell.test/', { timeoutMs: RENDER_MS })).toBeNull();
      expect(await launchCount()).toBe(2);
    } finally {
      await renderer.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
