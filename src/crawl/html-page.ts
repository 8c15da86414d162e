/**
 * The parsed homepage every extractor reads: the cheerio document, the URL that answered, the base URL for
 * resolving relative links (<base href>), and the brand's registrable domain and its label.
 */
import { loadBuffer, type CheerioAPI } from 'cheerio';
import { getDomain, getDomainWithoutSuffix } from 'tldts';

/** Only here to name the element type cheerio selections hold, so extractors need not import domhandler. */
const _firstElement = ($: CheerioAPI) => $('*').get(0);
export type HtmlElement = NonNullable<ReturnType<typeof _firstElement>>;

export interface HtmlPage {
  $: CheerioAPI;
  /** The URL that answered, after redirects. */
  url: string;
  /** Resolution base: <base href> when present and valid, else `url`. */
  baseUrl: string;
  /** Registrable domain of `url`. */
  domain: string;
  /** The registrable domain without its public suffix, e.g. `northwind` for northwind.co.uk. */
  label: string;
}

/** Only the first 2 MB are parsed: brand evidence sits in <head> and the header, and parsing is O(n) memory. */
export const MAX_PARSED_HTML_BYTES = 2 * 1024 * 1024;

export function parseHtmlPage(body: Buffer, url: string, contentType?: string): HtmlPage {
  const charset = /charset=["']?([\w-]+)/i.exec(contentType ?? '')?.[1];
  const $ = loadBuffer(body.subarray(0, MAX_PARSED_HTML_BYTES), {
    encoding: { transportLayerEncodingLabel: charset },
  });
  const host = new URL(url).hostname;
  const domain = getDomain(host) ?? host;
  const baseHref = $('base[href]').first().attr('href');
  return {
    $,
    url,
    baseUrl: (baseHref && resolveUrl(baseHref, url)) || url,
    domain,
    label: (getDomainWithoutSuffix(host) ?? domain).toLowerCase(),
  };
}

/** Resolves `href` against `base`; only http(s) results are usable by the crawler (no data:, javascript:, file:). */
export function resolveUrl(href: string | undefined | null, base: string): string | null {
  if (!href) return null;
  try {
    const url = new URL(href.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** Condenses whitespace and trims; site text is untrusted and often full of layout whitespace. */
export function cleanText(text: string | undefined | null): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

/** Registrable domain of a URL's host, or null for an unparsable URL. */
export function registrableDomain(url: string): string | null {
  try {
    const host = new URL(url).hostname;
    return getDomain(host) ?? host;
  } catch {
    return null;
  }
}
