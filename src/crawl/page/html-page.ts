/**
 * The parsed homepage every extractor reads: the cheerio document, the URL that answered, the base URL for
 * resolving relative links (<base href>), and the brand's registrable domain and its label.
 */
import { StringDecoder } from 'node:string_decoder';
import { load, type CheerioAPI } from 'cheerio';
import { decodeBuffer } from 'encoding-sniffer';
import { getDomain, getDomainWithoutSuffix } from 'tldts';
import { DEFAULT_HTML_LIMITS, parseBoundedHtml, type HtmlBound, type HtmlLimits } from './bounded-html.js';
import { elementIndex } from './element-index.js';
import type { RenderedPaletteSamples } from '../../domain/palette.js';

export type { HtmlElement } from './element-index.js';

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
  /** The bound that cut the parse short (bounded-html.ts: the page holds what came before it), or null. */
  truncatedBy: HtmlBound | null;
  /** Computed colours seen when the page was rendered in Chromium (palette evidence, ADR 0023); absent otherwise. */
  paletteSamples?: RenderedPaletteSamples;
}

/**
 * The page parsed as cheerio's sniffing loader (`loadBuffer`) parses it, within `limits` (bounded-html.ts): a page
 * past a bound is parsed up to that point, never refused.
 */
export function parseHtmlPage(body: Buffer, url: string, contentType?: string, limits: Readonly<HtmlLimits> = DEFAULT_HTML_LIMITS): HtmlPage {
  const charset = /charset=["']?([\w-]+)/i.exec(contentType ?? '')?.[1];
  // Only the first `maxBytes` are parsed: brand evidence sits in <head> and the header.
  const bytes = body.subarray(0, limits.maxBytes);
  // loadBuffer's decoding (encoding-sniffer: BOM, Content-Type, <meta> prescan, windows-1252), without its parse.
  const text = isUtf8Declared(bytes, charset) ? decodeUtf8(bytes) : decodeBuffer(bytes, { defaultEncoding: 'windows-1252', transportLayerEncodingLabel: charset });
  const parsed = parseBoundedHtml(text, limits);
  const $ = load(parsed.document);
  const host = new URL(url).hostname;
  const domain = hostDomain(host);
  const baseHref = elementIndex($).byTag('base').find((el) => el.attribs['href'] !== undefined)?.attribs['href'];
  return {
    $,
    url,
    baseUrl: (baseHref && resolveUrl(baseHref, url)) || url,
    domain,
    label: (getDomainWithoutSuffix(host) ?? domain).toLowerCase(),
    truncatedBy: parsed.truncatedBy,
  };
}

/**
 * True when cheerio's encoding sniffer (encoding-sniffer, WHATWG prescan) would settle on UTF-8 without reading
 * further: a UTF-8 byte order mark, or a UTF-8 Content-Type charset and no UTF-16 byte order mark (only a BOM
 * overrides the transport layer). Anything else goes through the sniffer.
 */
function isUtf8Declared(bytes: Buffer, charset: string | undefined): boolean {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return true;
  if (bytes[0] === 0xfe || bytes[0] === 0xff || bytes[0] === 0xef) return false;
  return charset !== undefined && /^utf-?8$/i.test(charset);
}

/**
 * UTF-8 exactly as cheerio's loadBuffer decodes it (iconv-lite's UTF-8 codec is Node's StringDecoder plus
 * stripping one leading BOM from the first chunk), so the parsed document is the same, without the sniffer.
 */
function decodeUtf8(bytes: Buffer): string {
  const decoder = new StringDecoder('utf8');
  const head = decoder.write(bytes);
  return (head.startsWith('\uFEFF') ? head.slice(1) : head) + decoder.end();
}

/** Resolves `href` against `base`; only http(s) results are usable by the crawler (no data:, javascript:, file:). */
export function resolveUrl(href: string | undefined | null, base: string): string | null {
  if (!href) return null;
  const resolved = resolvedOf(base);
  let url = resolved.get(href);
  if (url === undefined) {
    if (resolved.size >= MAX_CACHED_URLS) resolved.clear();
    url = parseHttpUrl(href, base);
    resolved.set(href, url);
  }
  return url;
}

/**
 * Resolutions per base URL, remembered: links, fonts, icons, stylesheets and the about/product page finder all
 * resolve the same hrefs of the same page. Bounded, as a long-running server crawls many bases: a crawl reads
 * three or four pages and a worker runs a few crawls at once, so 16 bases cover the pages in use (at most 80,000
 * remembered URLs, a few tens of MB in the worst case of pathological pages).
 */
const resolutions = new Map<string, Map<string, string | null>>();
const MAX_CACHED_BASES = 16;
const MAX_CACHED_URLS = 5_000;

function resolvedOf(base: string): Map<string, string | null> {
  let resolved = resolutions.get(base);
  if (!resolved) {
    if (resolutions.size >= MAX_CACHED_BASES) resolutions.clear();
    resolved = new Map();
    resolutions.set(base, resolved);
  }
  return resolved;
}

function parseHttpUrl(href: string, base: string): string | null {
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
    return hostDomain(new URL(url).hostname);
  } catch {
    return null;
  }
}

const MAX_CACHED_HOSTS = 10_000;
const domains = new Map<string, string>();

/** Registrable domain of a host; the public-suffix lookup is remembered (a page links to the same few hosts). */
export function hostDomain(host: string): string {
  let domain = domains.get(host);
  if (domain === undefined) {
    if (domains.size >= MAX_CACHED_HOSTS) domains.clear();
    domain = getDomain(host) ?? host;
    domains.set(host, domain);
  }
  return domain;
}
