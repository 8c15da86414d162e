/** The search box, the search results page and the "not held" page of the public brand pages. */
import type { SearchHit } from '../../../domain/search-hit.js';
import { html, page, type Html } from '../html.js';
import { BRAND_PAGE_STYLE } from './brand-page-style.js';

export function searchForm(query: string): Html {
  return html`<form class="search" role="search" action="/brands" method="get"><label for="q">Search brands by name</label><div class="row"><input id="q" name="q" type="search" value="${query}" maxlength="100" autocomplete="off"><button type="submit">Search</button></div></form>`;
}

export function brandsNav(): Html {
  return html`<a href="/brands">Brands</a><a href="/docs">API docs</a>`;
}

export function searchPage(query: string, hits: readonly SearchHit[] | null): string {
  const results = hits === null ? html`` : hits.length === 0 ? html`<p>No brand matches <strong>${query}</strong>.</p>` : resultsList(query, hits);
  return page({
    title: query ? `Search: ${query}` : 'Brands',
    nav: brandsNav(),
    style: BRAND_PAGE_STYLE,
    body: html`<h1>${query ? html`Brands matching “${query}”` : 'Brands'}</h1>${searchForm(query)}${results}<p class="muted">A brand page is at <code>/brands/{domain}</code>, for example <a href="/brands/example.com">/brands/example.com</a>.</p>`,
  });
}

function resultsList(query: string, hits: readonly SearchHit[]): Html {
  return html`<h2 id="results">Results for “${query}”</h2><ul class="results" aria-labelledby="results">${hits.map(
    (h) =>
      html`<li>${h.icon ? html`<img src="${h.icon}" alt="" width="32" height="32" loading="lazy">` : html`<span class="noicon" aria-hidden="true"></span>`}<a href="/brands/${encodeURIComponent(h.domain)}">${h.name}</a> <span class="muted">${h.domain}${h.brandId ? '' : ' (not indexed yet)'}</span></li>`,
  )}</ul>`;
}

export function notHeldPage(domain: string): string {
  return page({
    title: `${domain}: not held`,
    nav: brandsNav(),
    style: BRAND_PAGE_STYLE,
    body: html`<h1>No brand page for ${domain}</h1><p>Brandbase does not hold a brand for <code>${domain}</code>. Pages show only brands already indexed; the API indexes a brand live on its first lookup (<code>GET /v2/brands/${domain}</code>).</p>${searchForm('')}`,
  });
}

export function invalidDomainPage(): string {
  return page({ title: 'Not a domain', nav: brandsNav(), style: BRAND_PAGE_STYLE, body: html`<h1>Not a domain</h1><p>A brand page is addressed by a domain such as <code>example.com</code>.</p>${searchForm('')}` });
}

export function tooManySearchesPage(retryAfterSeconds: number): string {
  return page({
    title: 'Too many searches',
    nav: brandsNav(),
    style: BRAND_PAGE_STYLE,
    body: html`<h1>Too many searches</h1><p class="error">This address searched too often. Try again in ${retryAfterSeconds} seconds, or use the API (<code>GET /v2/search/{name}</code> with a client ID).</p>`,
  });
}

export function searchUnavailablePage(query: string): string {
  return page({
    title: 'Search unavailable',
    nav: brandsNav(),
    style: BRAND_PAGE_STYLE,
    body: html`<h1>Search is unavailable</h1><p class="error">The search could not answer just now. Please try again in a moment.</p>${searchForm(query)}`,
  });
}
