/**
 * Follows every link the service hands out, against the service itself (Fastify inject): links in JSON bodies,
 * in headers, in the OpenAPI document and in every HTML page reached from them. A link must answer 2xx, and a
 * `#fragment` must name an element id on the page. A URL template (`/v2/brands/{identifier}`, the 402's
 * `resource`) is not followed: it must be a path of the OpenAPI document.
 */
import { load } from 'cheerio';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

const ABSOLUTE_URL = /https?:\/\/[^\s"'<>()[\]`]+/g;
const MARKDOWN_LINK = /\]\(([^)\s]+)\)/g;

function trimPunctuation(url: string): string {
  return url.replace(/[.,;:]+$/, '');
}

/** Absolute URLs inside a string, and the string itself when it is a root-relative path. */
function urlsInString(value: string): string[] {
  const found = [...value.matchAll(ABSOLUTE_URL)].map((m) => trimPunctuation(m[0]));
  for (const m of value.matchAll(MARKDOWN_LINK)) if (m[1] && !found.includes(m[1])) found.push(m[1]);
  if (/^\/[^\s]*$/.test(value)) found.push(value);
  return found;
}

/** Every URL in a JSON value, with the path of keys that holds it (for the failure message). */
export function urlsInJson(value: unknown, at = '$', skip: (path: string) => boolean = () => false): { at: string; url: string }[] {
  if (skip(at)) return [];
  if (typeof value === 'string') return urlsInString(value).map((url) => ({ at, url }));
  if (Array.isArray(value)) return value.flatMap((item, i) => urlsInJson(item, `${at}[${i}]`, skip));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => urlsInJson(v, `${at}.${k}`, skip));
  return [];
}

/** URLs in response headers: any absolute URL, `Link: <...>` targets, and `Location`-like headers. */
export function urlsInHeaders(headers: LightMyRequestResponse['headers']): { at: string; url: string }[] {
  const found: { at: string; url: string }[] = [];
  for (const [name, raw] of Object.entries(headers)) {
    for (const value of Array.isArray(raw) ? raw : [String(raw ?? '')]) {
      for (const m of value.matchAll(ABSOLUTE_URL)) found.push({ at: `header ${name}`, url: trimPunctuation(m[0]) });
      if (name === 'link') for (const m of value.matchAll(/<([^>]+)>/g)) if (m[1]) found.push({ at: 'header link', url: m[1] });
      if ((name === 'location' || name === 'content-location') && !/^https?:/.test(value)) found.push({ at: `header ${name}`, url: value });
    }
  }
  return found;
}

interface Page {
  status: number;
  ids: Set<string> | null;
}

export class LinkChecker {
  private readonly origin: string;
  private readonly pages = new Map<string, Page>();
  private readonly pending: { from: string; url: URL; external: 'fail' | 'skip' }[] = [];
  readonly problems: string[] = [];
  readonly followed = new Set<string>();
  readonly skippedExternal = new Set<string>();

  constructor(
    private readonly app: FastifyInstance,
    publicUrl: string,
    /** The paths of the OpenAPI document: what a URL template must be. */
    private readonly templates: ReadonlySet<string>,
  ) {
    this.origin = new URL(publicUrl).origin;
  }

  /**
   * A link found at `from`. Relative links resolve against `base` (a path on the service). Links to another
   * origin fail (answers must only link the service) unless `external` is `skip` (a docs page may cite a site).
   */
  add(from: string, href: string, base = '/', external: 'fail' | 'skip' = 'fail'): void {
    let url: URL;
    try {
      url = new URL(href, `${this.origin}${base}`);
    } catch {
      this.problems.push(`${from}: ${href} is not a URL`);
      return;
    }
    if (url.protocol === 'mailto:') return;
    this.pending.push({ from, url, external });
  }

  /** Follows every pending link, and the links of every page it reaches, until none is left. */
  async run(): Promise<void> {
    for (let next = this.pending.shift(); next; next = this.pending.shift()) await this.check(next.from, next.url, next.external);
  }

  private async check(from: string, url: URL, external: 'fail' | 'skip'): Promise<void> {
    if (url.origin !== this.origin) {
      if (external === 'skip') this.skippedExternal.add(url.href);
      else this.problems.push(`${from}: ${url.href} leads outside the service`);
      return;
    }
    const path = decodeURIComponent(url.pathname);
    if (/[{}]/.test(path)) {
      if (!this.templates.has(path)) this.problems.push(`${from}: ${path} is a URL template that is not a path of /openapi.json`);
      return;
    }
    const page = await this.fetch(url.pathname + url.search);
    if (page.status < 200 || page.status > 299) {
      this.problems.push(`${from}: ${url.pathname}${url.search} answered ${page.status}`);
      return;
    }
    if (!url.hash) return;
    const id = decodeURIComponent(url.hash.slice(1));
    if (!page.ids?.has(id)) this.problems.push(`${from}: ${url.pathname} has no element with id "${id}"`);
  }

  private async fetch(target: string): Promise<Page> {
    const known = this.pages.get(target);
    if (known) return known;
    const res = await this.app.inject({ method: 'GET', url: target });
    this.followed.add(target);
    const html = String(res.headers['content-type'] ?? '').startsWith('text/html');
    const page: Page = { status: res.statusCode, ids: html ? this.readPage(target, res.body) : null };
    this.pages.set(target, page);
    return page;
  }

  /** The ids of an HTML page, and its links queued: anchors, stylesheets, scripts, images. */
  private readPage(target: string, body: string): Set<string> {
    const $ = load(body);
    const ids = new Set($('[id]').map((_i, el) => $(el).attr('id') ?? '').get());
    const base = target.split(/[?#]/)[0] ?? '/';
    $('a[href], link[href]').each((_i, el) => this.add(`page ${base}`, $(el).attr('href') ?? '', base, 'skip'));
    $('script[src], img[src]').each((_i, el) => this.add(`page ${base}`, $(el).attr('src') ?? '', base, 'skip'));
    return ids;
  }
}
