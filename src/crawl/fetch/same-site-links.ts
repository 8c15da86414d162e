import type { CheerioAPI } from 'cheerio';
import { elementIndex, type HtmlElement } from '../page/element-index.js';
import type { ElementTest } from '../page/element-queries.js';
import { elementText } from '../page/element-text.js';
import { hostDomain, resolveUrl, type HtmlPage } from '../page/html-page.js';

export interface SameSiteLink {
  /** The resolved link target, fragment removed. */
  target: URL;
  /** The link's visible text, whitespace condensed. */
  text: string;
}

/**
 * Links of `page` (the `a[href]` elements that pass `test`, all of them by default) to other pages on the
 * brand's own registrable domain: the candidates for about, contact and product pages. The home page itself is
 * never one. Each call gets its own URL objects (callers edit them).
 */
export function sameSiteLinks(page: HtmlPage, test: ElementTest = () => true): SameSiteLink[] {
  return resolvedLinks(page)
    .filter((link) => test(link.el))
    .map((link) => ({ target: new URL(link.href), text: link.text }));
}

interface ResolvedLink {
  el: HtmlElement;
  /** The target with its fragment removed. */
  href: string;
  text: string;
}

/** URL parsing and the registrable-domain check, once per page for every caller (about pages, product pages). */
const cache = new WeakMap<CheerioAPI, { baseUrl: string; domain: string; links: ResolvedLink[] }>();

function resolvedLinks(page: HtmlPage): ResolvedLink[] {
  const cached = cache.get(page.$);
  if (cached && cached.baseUrl === page.baseUrl && cached.domain === page.domain) return cached.links;
  const links: ResolvedLink[] = [];
  for (const el of elementIndex(page.$).byTag('a')) {
    if (el.attribs['href'] === undefined) continue;
    const url = resolveUrl(el.attribs['href'], page.baseUrl);
    if (!url) continue;
    const target = new URL(url);
    if (hostDomain(target.hostname) !== page.domain) continue;
    target.hash = '';
    if (target.pathname === '/') continue;
    links.push({ el, href: target.href, text: elementText(el) });
  }
  cache.set(page.$, { baseUrl: page.baseUrl, domain: page.domain, links });
  return links;
}
