/**
 * A source's website column to the company's registrable domain: `http://www.aalberts.com` → `aalberts.com`,
 * an investor-relations host `stock.example.co.jp` → `example.co.jp`, `http://global.toyota/en` → `global.toyota`
 * (`.toyota` is a brand TLD, so `global.toyota` is itself a registrable domain).
 */
import { registrableDomain } from '../domain/identifiers.js';

/**
 * A website as sources write it (`www.example.com`, `http://example.com/en`) as an http(s) URL, or null. Parsed with
 * `new URL` in a try, not `URL.canParse`: on Node 20, once V8 has optimized it, `URL.canParse` answers false for
 * hosts with Latin-1 letters (`https://minkøbmand.dk/`), which then dropped three brands of the knowledge set.
 */
export function parseWebsiteUrl(website: string | null | undefined): URL | null {
  const text = (website ?? '').trim();
  if (!text) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
}

export function websiteDomain(website: string | null | undefined): string | null {
  const url = parseWebsiteUrl(website);
  return url === null ? null : registrableDomain(url.hostname);
}
