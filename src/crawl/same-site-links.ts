import { cleanText, registrableDomain, resolveUrl, type HtmlPage } from './html-page.js';

export interface SameSiteLink {
  /** The resolved link target, fragment removed. */
  target: URL;
  /** The link's visible text, whitespace condensed. */
  text: string;
}

/**
 * Links of `page` (matching `selector`) to other pages on the brand's own registrable domain: the candidates for
 * about, contact and product pages. The home page itself is never one.
 */
export function sameSiteLinks(page: HtmlPage, selector: string): SameSiteLink[] {
  const links: SameSiteLink[] = [];
  page.$(selector).each((_, el) => {
    const $a = page.$(el);
    const url = resolveUrl($a.attr('href'), page.baseUrl);
    if (!url || registrableDomain(url) !== page.domain) return;
    const target = new URL(url);
    target.hash = '';
    if (target.pathname === '/') return;
    links.push({ target, text: cleanText($a.text()) });
  });
  return links;
}
