/**
 * About and contact pages: where sites state when they were founded, how many people they employ, where they
 * are and what they do. Up to MAX_PAGES pages linked from the homepage on the brand's own registrable domain
 * are fetched through the same fetcher and crawl budget as everything else (robots.txt and the SSRF guard
 * apply); a page that fails is missing evidence, never a failed crawl.
 */
import type { Fetcher } from '../../platform/fetcher.js';
import type { CrawlBudget } from '../crawl-budget.js';
import { fetchResource } from './fetch-resource.js';
import { sameSiteLinks } from './same-site-links.js';
import { parseHtmlPage, type HtmlPage } from '../page/html-page.js';

export const MAX_ABOUT_PAGES = 2;
const MAX_ABOUT_BYTES = 1024 * 1024;

/** Path or link text that names an about page (first) or a contact/imprint page (second). */
const ABOUT = /(^|[/_-])(about|about-us|aboutus|company|who-we-are|our-story|story|mission|uber-uns|ueber-uns|a-propos|quienes-somos|chi-siamo|over-ons)([/_.-]|$)/i;
const ABOUT_TEXT = /^(about( us)?|our (story|company|mission)|who we are|company|über uns|à propos|quiénes somos|over ons)$/i;
const CONTACT = /(^|[/_-])(contact|contact-us|contacts|kontakt|impressum|imprint|legal-notice|mentions-legales)([/_.-]|$)/i;
const CONTACT_TEXT = /^(contact( us)?|kontakt|impressum|imprint|legal notice|get in touch)$/i;

export function findAboutPageUrls(page: HtmlPage): string[] {
  const about: string[] = [];
  const contact: string[] = [];
  for (const { target, text } of sameSiteLinks(page)) {
    if (target.href === page.url) continue;
    if (ABOUT.test(target.pathname) || ABOUT_TEXT.test(text)) about.push(target.href);
    else if (CONTACT.test(target.pathname) || CONTACT_TEXT.test(text)) contact.push(target.href);
  }
  // One about page and one contact page when both exist: they state different facts.
  const picks = [...new Set(about)].slice(0, 1).concat([...new Set(contact)].slice(0, 1));
  const rest = [...new Set([...about, ...contact])].filter((u) => !picks.includes(u));
  return [...picks, ...rest].slice(0, MAX_ABOUT_PAGES);
}

/** `urls`: findAboutPageUrls(page), when the caller has it already. */
export async function fetchAboutPages(page: HtmlPage, fetcher: Fetcher, budget: CrawlBudget, urls = findAboutPageUrls(page)): Promise<HtmlPage[]> {
  const pages = await Promise.all(urls.map((url) => fetchPage(url, fetcher, budget)));
  // A redirect to another domain (a careers portal, a parent company) is not this brand's page.
  return pages.filter((p): p is HtmlPage => p !== null && p.domain === page.domain);
}

async function fetchPage(url: string, fetcher: Fetcher, budget: CrawlBudget): Promise<HtmlPage | null> {
  const res = await fetchResource(fetcher, budget, url, { maxBytes: MAX_ABOUT_BYTES, accept: 'text/html,application/xhtml+xml;q=0.9' });
  if (!res || !/html/i.test(res.headers['content-type'] ?? 'text/html')) return null;
  try {
    return parseHtmlPage(res.body, res.url, res.headers['content-type'], budget.limits.html);
  } catch {
    return null;
  }
}
