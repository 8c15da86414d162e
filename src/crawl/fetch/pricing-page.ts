/**
 * The pricing page, the one page the context reads that no other extractor needs (ADR 0035): plan names and what
 * each includes are often the clearest statement of what a brand sells and to whom. At most one page, linked from
 * the home page on the brand's own registrable domain, fetched in the crawl's round of linked pages, within its
 * budget; a page that fails is missing evidence, never a failed crawl.
 */
import type { Fetcher } from '../../platform/fetcher.js';
import type { CrawlBudget } from '../crawl-budget.js';
import { fetchResource } from './fetch-resource.js';
import { sameSiteLinks } from './same-site-links.js';
import { parseHtmlPage, type HtmlPage } from '../page/html-page.js';

const MAX_PAGE_BYTES = 1024 * 1024;
const PRICING_PATH = /(^|[/_-])(pricing|prices|plans|tarifs|preise|precios)([/_.-]|$)/i;
const PRICING_TEXT = /^(pricing|prices|plans( (&|and) pricing)?|preise|tarifs|precios)$/i;

export function findPricingPageUrl(page: HtmlPage, skip: readonly string[] = []): string | null {
  for (const { target, text } of sameSiteLinks(page)) {
    target.search = '';
    if (target.href === page.url || skip.includes(target.href)) continue;
    if (PRICING_PATH.test(target.pathname) || PRICING_TEXT.test(text)) return target.href;
  }
  return null;
}

export async function fetchPricingPage(page: HtmlPage, fetcher: Fetcher, budget: CrawlBudget, skip: readonly string[] = []): Promise<HtmlPage | null> {
  const url = findPricingPageUrl(page, skip);
  if (!url) return null;
  const res = await fetchResource(fetcher, budget, url, { maxBytes: MAX_PAGE_BYTES, accept: 'text/html,application/xhtml+xml;q=0.9' });
  if (!res || !/html/i.test(res.headers['content-type'] ?? 'text/html')) return null;
  try {
    const parsed = parseHtmlPage(res.body, res.url, res.headers['content-type'], budget.limits.html);
    // A redirect to another domain (a billing portal) is not this brand's page.
    return parsed.domain === page.domain ? parsed : null;
  } catch {
    return null;
  }
}
