/**
 * When a rendered page is ready to be read (issue 16, JavaScript-built headers): after DOMContentLoaded a
 * script may still fetch the header's data and insert the logo, so the render waits for the page to settle:
 * the DOM quiet (no node added or removed, no image source set) and the site's own requests all answered, both
 * for QUIET_MS. When the crawl renders because the static page had no mark, it also waits for one to appear
 * (a logo-looking image or SVG in the header, a logo-named element or a home link), giving up once the page
 * has done nothing for IDLE_GIVE_UP_MS or after MARK_PATIENCE_MS. Otherwise it stops as soon as the page is
 * quiet: a render costs only what the page needs. A page that never stops changing (a ticker, a carousel) is
 * read once its own requests are answered and BUSY_DOM_MS have passed. The render's own time cap bounds it all.
 */
import type { Page } from 'playwright-core';

const POLL_MS = 100;
const QUIET_MS = 400;
const IDLE_GIVE_UP_MS = 1_500;
const MARK_PATIENCE_MS = 5_000;
const BUSY_DOM_MS = 2_000;

/**
 * Installed before any page script runs (context.addInitScript): remembers when the DOM last changed. A string,
 * as it runs in the page, whose DOM types this Node project does not compile against.
 */
export const WATCH_MUTATIONS_SCRIPT = `(() => {
  window.__brandbaseLastMutation = performance.now();
  new MutationObserver(() => { window.__brandbaseLastMutation = performance.now(); })
    .observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['src', 'srcset'] });
})();`;

/** What a header mark looks like to the in-page check; the crawl's own rules judge the serialised DOM afterwards. */
const MARK_SELECTOR = [
  'header img', 'header svg', '[role="banner"] img', '[role="banner"] svg', 'nav img',
  '[class*="logo" i] img', '[class*="logo" i] svg', 'img[class*="logo" i]', 'svg[class*="logo" i]', '[id*="logo" i] img', '[id*="logo" i] svg',
  'img[alt*="logo" i]', 'img[src*="logo" i]', 'a[href="/"] img', 'a[href="/"] svg',
].join(', ');

const STATE_SCRIPT = `(() => ({
  quietMs: performance.now() - (window.__brandbaseLastMutation ?? 0),
  hasMark: document.querySelector(${JSON.stringify(MARK_SELECTOR)}) !== null,
}))()`;

export interface SettleOptions {
  /** performance.now() past which the page is read whatever it is doing. */
  deadline: number;
  /** Wait for a mark to appear (the static page had none). */
  awaitMark: boolean;
  /** How long the site's own requests have all been answered (render-requests.ts). */
  ownIdleMs: () => number;
}

interface PageState {
  quietMs: number;
  hasMark: boolean;
}

export async function settlePage(page: Page, options: SettleOptions, now: () => number = () => performance.now()): Promise<void> {
  const started = now();
  while (now() + POLL_MS < options.deadline) {
    const state = await page.evaluate<PageState>(STATE_SCRIPT).catch(() => null);
    if (!state || isSettled(state, options, now() - started)) return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The decision, apart from the polling (see the module comment). */
export function isSettled(state: PageState, options: Pick<SettleOptions, 'awaitMark' | 'ownIdleMs'>, elapsedMs: number): boolean {
  const ownIdle = options.ownIdleMs();
  if (ownIdle < QUIET_MS) return false;
  const markDone = !options.awaitMark || state.hasMark;
  const quiet = state.quietMs >= QUIET_MS;
  if (quiet && markDone) return true;
  if (!markDone) return elapsedMs >= MARK_PATIENCE_MS || Math.min(state.quietMs, ownIdle) >= IDLE_GIVE_UP_MS;
  return elapsedMs >= BUSY_DOM_MS;
}
