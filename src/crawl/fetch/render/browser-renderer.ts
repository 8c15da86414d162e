/**
 * Headless Chromium (playwright-core driving the system's `chromium`) for pages built by JavaScript
 * (issue 4 item 7). Chromium never touches the network itself:
 *   - every request the page makes is intercepted with `context.route('**\/*')` and fulfilled from the
 *     crawler's SafeFetcher (SSRF policy, DNS pinning, robots.txt, byte caps); non-GET requests, non-http(s)
 *     URLs and request types a brand page does not need are aborted;
 *   - Chromium is launched with a dead proxy for everything (`--proxy-server=127.0.0.1:9` and no bypass, not
 *     even loopback), so whatever escapes interception (its own background services, a WebSocket, WebRTC)
 *     has nowhere to go; service workers are blocked and WebRTC is limited to proxied UDP;
 *   - one fresh browser context per render (no cookies, cache or storage shared between brands) and a hard
 *     time cap after which the context is closed whatever the page is doing;
 *   - other hosts get a short timeout and no images (render-requests.ts), and the page is read as soon as it has
 *     settled (settle-page.ts), waiting for a header mark only when the crawl asks for one.
 * The browser process is started on first use and reused; a crashed browser is relaunched on the next render.
 */
import { chromium, type Browser, type BrowserContext, type Route } from 'playwright-core';
import type { Fetcher } from '../../../platform/fetcher.js';
import type { Logger } from '../../../platform/logger.js';
import { dismissConsent } from './dismiss-consent.js';
import { DEFAULT_CHROMIUM_PATH, findChromium } from './find-chromium.js';
import { collectPaletteSamples } from './palette-samples.js';
import type { PageRenderer, RenderOptions, RenderedPage } from './page-renderer.js';
import { RenderRequests } from './render-requests.js';
import { settlePage, WATCH_MUTATIONS_SCRIPT } from './settle-page.js';

// Re-exported: tests, eval and bench import them from here.
export { DEFAULT_CHROMIUM_PATH, findChromium };

/** Arguments that keep Chromium's own network stack shut (see the module comment). */
export const CHROMIUM_ARGS = [
  '--proxy-server=http://127.0.0.1:9',
  '--proxy-bypass-list=<-loopback>',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-domain-reliability',
  '--disable-sync',
  '--no-pings',
  '--dns-prefetch-disable',
  '--no-first-run',
  '--disable-default-apps',
  '--disable-extensions',
  '--disable-features=Translate,OptimizationHints,MediaRouter,InterestFeedContentSuggestions,AutofillServerCommunication',
  '--disable-dev-shm-usage',
];

/** Request types a brand page needs to build its header; media, fonts, websockets and beacons are not. */
const ALLOWED_TYPES = new Set(['document', 'script', 'stylesheet', 'image', 'xhr', 'fetch']);
const MAX_REQUESTS_PER_RENDER = 120;
const MAX_RESOURCE_BYTES = 5 * 1024 * 1024;
/** Kept back from the render's cap for consent dismissal and serialising the DOM once the wait ends. */
const FINISH_RESERVE_MS = 1_000;
/** The rendered DOM handed back, at most: the crawl parses the first 2 MB of a page (crawl/page/html-page.ts). */
const MAX_RENDERED_HTML_CHARS = 2 * 1024 * 1024;

export interface BrowserRendererOptions {
  executablePath: string;
  fetcher: Fetcher;
  /** Sent as the page's user agent: the crawler's honest bot token, never a browser impersonation. */
  userAgent: string;
  logger?: Logger;
}

/** After Chromium fails to start, rendering pauses this long instead of costing every crawl a failed launch. */
const LAUNCH_FAILURE_PAUSE_MS = 5 * 60_000;

export class BrowserRenderer implements PageRenderer {
  private browser: Promise<Browser> | null = null;
  private pausedUntil = 0;

  constructor(private readonly options: BrowserRendererOptions, private readonly now: () => number = Date.now) {}

  async render(url: string, options: RenderOptions): Promise<RenderedPage | null> {
    if (options.signal?.aborted || options.timeoutMs <= 0 || this.now() < this.pausedUntil) return null;
    let context: BrowserContext | null = null;
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), options.timeoutMs);
    const onAbort = (): void => deadline.abort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const browser = await this.launched();
      context = await browser.newContext({ userAgent: this.options.userAgent, serviceWorkers: 'block', acceptDownloads: false, javaScriptEnabled: true, bypassCSP: false });
      const openContext = context;
      const closed = new Promise<null>((resolve) => deadline.signal.addEventListener('abort', () => resolve(null), { once: true }));
      return await Promise.race([this.renderIn(openContext, url, deadline.signal, options), closed]);
    } catch (error) {
      this.options.logger?.info({ err: error instanceof Error ? error.message : String(error) }, 'render failed');
      return null;
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      await context?.close().catch(() => undefined);
    }
  }

  /** Starts Chromium now (serve's warm-up), so the first render does not pay for the launch; never throws. */
  async warm(): Promise<void> {
    if (this.now() < this.pausedUntil) return;
    await this.launched().then(
      () => undefined,
      () => undefined,
    );
  }

  async close(): Promise<void> {
    const browser = this.browser;
    this.browser = null;
    if (browser) await (await browser.catch(() => null))?.close().catch(() => undefined);
  }

  private launched(): Promise<Browser> {
    if (!this.browser) {
      const launching = chromium.launch({ executablePath: this.options.executablePath, headless: true, args: CHROMIUM_ARGS, timeout: 15_000 });
      this.browser = launching;
      launching
        .then((b) => b.on('disconnected', () => { if (this.browser === launching) this.browser = null; }))
        .catch((error: unknown) => {
          if (this.browser === launching) this.browser = null;
          this.pausedUntil = this.now() + LAUNCH_FAILURE_PAUSE_MS;
          this.options.logger?.warn({ err: error instanceof Error ? error.message : String(error) }, 'Chromium failed to start; rendering paused for 5 minutes');
        });
    }
    return this.browser;
  }

  private async renderIn(context: BrowserContext, url: string, signal: AbortSignal, options: RenderOptions): Promise<RenderedPage | null> {
    const deadline = performance.now() + options.timeoutMs;
    const requests = new RenderRequests(url);
    let count = 0;
    await context.addInitScript(WATCH_MUTATIONS_SCRIPT);
    await context.route('**/*', (route) => {
      count += 1;
      return this.fulfil(route, signal, requests, count > MAX_REQUESTS_PER_RENDER);
    });
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: options.timeoutMs });
    // Consent dismissal and serialising need a moment of the cap too.
    await settlePage(page, { deadline: deadline - FINISH_RESERVE_MS, awaitMark: options.awaitMark ?? false, ownIdleMs: () => requests.ownIdleMs() });
    await dismissConsent(page);
    // Serialised and cut in Chromium's process: only what the crawl parses (2 MB) crosses into the server's, so a
    // script-built DOM of any size costs the server's event loop no more than that message (ADR 0014).
    const html = options.paletteOnly
      ? ''
      : await page.evaluate<string>(
          `(() => { const d = document.doctype ? '<!DOCTYPE ' + document.doctype.name + '>' : ''; const h = d + document.documentElement.outerHTML; return h.length > ${MAX_RENDERED_HTML_CHARS} ? h.slice(0, ${MAX_RENDERED_HTML_CHARS}) : h; })()`,
        );
    const paletteSamples = await collectPaletteSamples(page, deadline - performance.now());
    return { html, url: page.url(), ...(paletteSamples ? { paletteSamples } : {}) };
  }

  /** Every browser request is answered from the safe fetcher, or aborted (render-requests.ts says which, how patiently). */
  private async fulfil(route: Route, signal: AbortSignal, requests: RenderRequests, overBudget: boolean): Promise<void> {
    const request = route.request();
    const target = request.url();
    const decision = overBudget || signal.aborted || request.method() !== 'GET' || !/^https?:/i.test(target) || !ALLOWED_TYPES.has(request.resourceType())
      ? ({ fetch: false } as const)
      : requests.decide(target, request.resourceType());
    if (!decision.fetch) {
      await route.abort('blockedbyclient').catch(() => undefined);
      return;
    }
    try {
      const fetchOptions = { accept: request.headers()['accept'] ?? '*/*', maxBytes: MAX_RESOURCE_BYTES, timeoutMs: decision.timeoutMs, signal };
      const res = await requests.track(target, decision.own, () => this.options.fetcher.fetch(target, fetchOptions));
      const contentType = res.headers['content-type'];
      await route.fulfill({ status: res.status, body: res.body, headers: contentType ? { 'content-type': contentType } : {} });
    } catch {
      await route.abort('blockedbyclient').catch(() => undefined);
    }
  }
}

/**
 * The renderer the service wires into the crawler, or undefined (with one log line saying rendering is off)
 * when no Chromium executable is found: Brandbase then crawls statically, which covers most sites.
 */
export function openRenderer(options: { chromiumPath: string | null | undefined; fetcher: Fetcher; userAgent: string; logger: Logger }): BrowserRenderer | undefined {
  const executablePath = findChromium(options.chromiumPath);
  if (!executablePath) {
    options.logger.warn({ chromiumPath: options.chromiumPath?.trim() || DEFAULT_CHROMIUM_PATH }, 'rendering is off: no Chromium executable found; JavaScript-built sites are crawled statically');
    return undefined;
  }
  options.logger.info({ chromiumPath: executablePath }, 'rendering is on: JavaScript-built sites are rendered in headless Chromium');
  return new BrowserRenderer({ executablePath, fetcher: options.fetcher, userAgent: options.userAgent, logger: options.logger });
}
