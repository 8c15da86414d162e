/**
 * When to render (extraction notes 4): a homepage whose content is built by JavaScript. Signals, any of:
 *   - an empty hydration root (`#root`, `#app`, `#__next`, `#__nuxt`, `#svelte`, `#___gatsby`, `[data-reactroot]`);
 *   - thin text (under 400 characters of visible text) on a page that loads scripts, or a <noscript>
 *     "enable JavaScript" notice;
 *   - no logo candidate at all in the static HTML (the header is injected at run time).
 * The rendered DOM replaces the static page for every extractor; when rendering fails or times out the static
 * page is kept, so rendering can only add evidence. A page without a logo candidate is rendered until a mark
 * appears or the page has stopped doing anything (settle-page.ts); any other only until it is quiet.
 */
import type { CrawlBudget } from '../../crawl-budget.js';
import { cleanText, parseHtmlPage, type HtmlPage } from '../../page/html-page.js';
import { readJsonLd } from '../../page/json-ld.js';
import { findMarkCandidates } from '../../fields/logos/logo-candidates.js';
import type { PageRenderer } from './page-renderer.js';

const HYDRATION_ROOTS = ['#root', '#app', '#__next', '#__nuxt', '#svelte', '#___gatsby', '[data-reactroot]', '#main-app'];
const THIN_TEXT_CHARS = 400;
/**
 * Rendering may use at most this much of the crawl, and always leaves time for the assets afterwards. The palette's
 * background render (palette/palette-render-job.ts) is bounded by the same cap.
 */
export const MAX_RENDER_MS = 12_000;
const RESERVED_AFTER_RENDER_MS = 4_000;

export type RenderReason = 'empty-hydration-root' | 'thin-text' | 'noscript-notice' | 'no-logo-candidate';

export function renderReason(page: HtmlPage): RenderReason | null {
  const { $ } = page;
  const emptyRoot = HYDRATION_ROOTS.some((selector) => {
    const root = $(selector).first();
    return root.length > 0 && cleanText(root.text()).length < 40 && root.find('img, svg').length === 0;
  });
  if (emptyRoot) return 'empty-hydration-root';
  const text = cleanText($('body').clone().find('script, style, noscript, template').remove().end().text());
  if (/enable javascript|requires javascript|javascript (is )?(required|disabled)/i.test($('noscript').text()) && text.length < THIN_TEXT_CHARS) return 'noscript-notice';
  if (text.length < THIN_TEXT_CHARS && $('script[src]').length > 0) return 'thin-text';
  const marks = findMarkCandidates({ page, jsonLd: readJsonLd($), brandName: null, cssRules: [] });
  return marks.length === 0 ? 'no-logo-candidate' : null;
}

/** The page to extract from: rendered when needed and possible, else the static one. */
export async function renderIfNeeded(page: HtmlPage, renderer: PageRenderer | undefined, budget: CrawlBudget): Promise<HtmlPage> {
  if (!renderer || renderReason(page) === null) return page;
  const timeoutMs = Math.min(MAX_RENDER_MS, budget.remaining() - RESERVED_AFTER_RENDER_MS);
  if (timeoutMs < 1_000) return page;
  const awaitMark = findMarkCandidates({ page, jsonLd: readJsonLd(page.$), brandName: null, cssRules: [] }).length === 0;
  const rendered = await renderer.render(page.url, { timeoutMs, signal: budget.signal, awaitMark });
  if (!rendered) return page;
  const parsed = parseHtmlPage(Buffer.from(rendered.html, 'utf8'), page.url, 'text/html; charset=utf-8', budget.limits.html);
  // A render that produced less than the static page (an error screen, a blank) is not an improvement.
  if (rendered.paletteSamples) parsed.paletteSamples = rendered.paletteSamples;
  return cleanText(parsed.$('body').text()).length + parsed.$('img, svg').length > 0 ? parsed : page;
}
