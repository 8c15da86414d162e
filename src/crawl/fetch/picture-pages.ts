/**
 * The linked pages pictures are gathered from besides the homepage (spec 2.6: "images published on the
 * brand's own site"): one or two product/feature/work pages linked from the homepage on the brand's own
 * registrable domain. About pages are fetched by about-pages.ts already and are passed in, not re-fetched.
 */
import type { Fetcher } from '../../platform/fetcher.js';
import type { CrawlBudget } from '../crawl-budget.js';
import { fetchResource } from './fetch-resource.js';
import { hasAncestor, tagIs } from '../page/element-queries.js';
import { sameSiteLinks } from './same-site-links.js';
import { parseHtmlPage, type HtmlPage } from '../page/html-page.js';

export const MAX_PICTURE_PAGES = 2;
const MAX_PAGE_BYTES = 1024 * 1024;
const SHOWCASE_PATH = /(^|[/_-])(product|products|features|solutions|platform|work|portfolio|gallery|showcase|collection|collections|shop|menu|projects|customers|stories)([/_.-]|$)/i;
const SHOWCASE_TEXT = /^(products?|features|solutions|platform|our work|work|portfolio|gallery|showcase|shop|collections?|menu|projects|customers|customer stories)$/i;

const SECTION = tagIs('header', 'nav', 'main');

export function findPicturePageUrls(page: HtmlPage): string[] {
  const urls: string[] = [];
  // `header a[href], nav a[href], main a[href]`
  for (const { target, text } of sameSiteLinks(page, (a) => hasAncestor(a, SECTION))) {
    target.search = '';
    if (target.href === page.url || urls.includes(target.href)) continue;
    if (SHOWCASE_PATH.test(target.pathname) || SHOWCASE_TEXT.test(text)) urls.push(target.href);
  }
  return urls.slice(0, MAX_PICTURE_PAGES);
}

export async function fetchPicturePages(page: HtmlPage, fetcher: Fetcher, budget: CrawlBudget, skip: string[] = []): Promise<HtmlPage[]> {
  const urls = findPicturePageUrls(page).filter((u) => !skip.includes(u));
  const pages = await Promise.all(urls.map(async (url) => {
    const res = await fetchResource(fetcher, budget, url, { maxBytes: MAX_PAGE_BYTES, accept: 'text/html,application/xhtml+xml;q=0.9' });
    if (!res || !/html/i.test(res.headers['content-type'] ?? 'text/html')) return null;
    const parsed = parseHtmlPage(res.body, res.url, res.headers['content-type'], budget.limits.html);
    return parsed.domain === page.domain ? parsed : null;
  }));
  return pages.filter((p): p is HtmlPage => p !== null);
}
