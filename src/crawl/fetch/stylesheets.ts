/**
 * The homepage's CSS: inline <style> blocks plus up to 10 linked stylesheets hosted on the brand's own
 * registrable domain or a public CDN, with their @imports followed one level deep, all within the crawl's CSS
 * limits (parse-css.ts: bytes per sheet, i.e. 1 MB by default, bytes, rules and parse time per crawl).
 * Font-provider stylesheets (Google Fonts, Bunny) are not fetched: fonts.ts reads their URLs, which name the
 * families and weights. An Adobe Fonts (Typekit) kit URL names nothing, so the kit CSS (use.typekit.net/<kit>.css,
 * public, small) is fetched: its @font-face rules declare the kit's families and weights.
 */
import type { Fetcher } from '../../platform/fetcher.js';
import type { CrawlBudget } from '../crawl-budget.js';
import { fetchResource } from './fetch-resource.js';
import { elementIndex } from '../page/element-index.js';
import { attrHasWord, textOf } from '../page/element-queries.js';
import { registrableDomain, resolveUrl, type HtmlPage } from '../page/html-page.js';
import { CssAllowance, parseCssInTurns, type ParsedCss } from '../page/parse-css.js';

const MAX_STYLESHEETS = 10;

/** CDNs that serve brands' own CSS; a stylesheet elsewhere on another domain is likely a widget's. */
const CDN_HOSTS = /(^|\.)(cloudfront\.net|akamaihd\.net|akamaized\.net|azureedge\.net|fastly\.net|b-cdn\.net|jsdelivr\.net|unpkg\.com|cdnjs\.cloudflare\.com|cdn\.shopify\.com|squarespace-cdn\.com|website-files\.com|wixstatic\.com|ctfassets\.net|netlify\.app|vercel\.app|github\.io)$/i;
export const FONT_PROVIDER_HOSTS = /(^|\.)(fonts\.googleapis\.com|fonts\.bunny\.net|use\.typekit\.net|p\.typekit\.net|fonts\.gstatic\.com)$/i;

const STYLESHEET_REL = attrHasWord('rel', 'stylesheet', true);

export function findStylesheetUrls(page: HtmlPage): string[] {
  const urls: string[] = [];
  // `link[rel~="stylesheet" i][href]`
  for (const el of elementIndex(page.$).byTag('link')) {
    if (!STYLESHEET_REL(el) || el.attribs['href'] === undefined) continue;
    const url = resolveUrl(el.attribs['href'], page.baseUrl);
    if (url && isFetchableStylesheet(url, page.domain) && !urls.includes(url)) urls.push(url);
  }
  return urls.slice(0, MAX_STYLESHEETS);
}

const TYPEKIT_KIT = /^https:\/\/use\.typekit\.net\/[a-z0-9]{5,12}\.css$/i;

export function isFetchableStylesheet(url: string, domain: string): boolean {
  const host = new URL(url).hostname;
  if (TYPEKIT_KIT.test(url)) return true;
  if (FONT_PROVIDER_HOSTS.test(host)) return false;
  return registrableDomain(url) === domain || CDN_HOSTS.test(host);
}

/**
 * All CSS of the page in document order of discovery: inline blocks first, then linked sheets and imports. Sheets
 * are parsed in that order (each as soon as it and those before it are in) against one allowance for the crawl,
 * so what a bound leaves out is always the last of the page's CSS, whichever download finished first.
 */
export async function collectStylesheets(page: HtmlPage, fetcher: Fetcher, budget: CrawlBudget): Promise<ParsedCss[]> {
  const allowance = new CssAllowance(budget.limits.css);
  const linked = findStylesheetUrls(page).map((url) => fetchCssText(url, fetcher, budget));
  const inline = elementIndex(page.$)
    .byTag('style')
    .map((el) => ({ url: null, text: textOf(el) }))
    .filter((sheet) => sheet.text.length > 0);
  const top = await parseInOrder([...inline, ...linked], allowance);
  const importUrls = top
    .flatMap((sheet) => sheet.imports.map((href) => resolveUrl(href, sheet.url ?? page.baseUrl)))
    .filter((url): url is string => url !== null && isFetchableStylesheet(url, page.domain))
    .slice(0, MAX_STYLESHEETS);
  const imported = await parseInOrder(importUrls.map((url) => fetchCssText(url, fetcher, budget)), allowance);
  return [...imported, ...top];
}

interface CssText {
  url: string | null;
  text: string;
}

async function parseInOrder(sheets: (CssText | Promise<CssText | null>)[], allowance: CssAllowance): Promise<ParsedCss[]> {
  const parsed: ParsedCss[] = [];
  for (const pending of sheets) {
    const sheet = await pending;
    if (sheet) parsed.push(await parseCssInTurns(sheet.text, sheet.url, allowance));
  }
  return parsed;
}

async function fetchCssText(url: string, fetcher: Fetcher, budget: CrawlBudget): Promise<CssText | null> {
  const res = await fetchResource(fetcher, budget, url, { maxBytes: budget.limits.css.maxSheetBytes, accept: 'text/css,*/*;q=0.1' });
  if (!res) return null;
  const text = res.body.toString('utf8');
  // An HTML error page served with 200 is not CSS.
  if (/^\s*<(!doctype|html)/i.test(text)) return null;
  return { url: res.url, text };
}
