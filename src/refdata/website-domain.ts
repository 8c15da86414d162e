/**
 * A source's website column to the company's registrable domain: `http://www.aalberts.com` → `aalberts.com`,
 * an investor-relations host `stock.example.co.jp` → `example.co.jp`, `http://global.toyota/en` → `global.toyota`
 * (`.toyota` is a brand TLD, so `global.toyota` is itself a registrable domain).
 */
import { registrableDomain } from '../domain/identifiers.js';

export function websiteDomain(website: string | null | undefined): string | null {
  const text = (website ?? '').trim();
  if (!text) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  if (!URL.canParse(withScheme)) return null;
  const url = new URL(withScheme);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return registrableDomain(url.hostname);
}
