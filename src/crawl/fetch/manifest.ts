/**
 * The web app manifest (<link rel=manifest>): a name, a description, brand colours (theme_color,
 * background_color) and square app icons declared by the brand itself.
 */
import type { Fetcher } from '../../platform/fetcher.js';
import type { CrawlBudget } from '../crawl-budget.js';
import { fetchResource } from './fetch-resource.js';
import { elementIndex } from '../page/element-index.js';
import { attrHasWord, type ElementTest } from '../page/element-queries.js';
import { resolveUrl, type HtmlPage } from '../page/html-page.js';
import { parseLenientJson } from '../page/json-ld.js';

export interface ManifestIcon {
  url: string;
  /** Largest side declared in `sizes` (0 when absent or `any`). */
  size: number;
  purpose: string;
}

export interface WebManifest {
  name: string | null;
  shortName: string | null;
  description: string | null;
  themeColor: string | null;
  backgroundColor: string | null;
  icons: ManifestIcon[];
}

const MAX_MANIFEST_BYTES = 256 * 1024;

const MANIFEST_REL = attrHasWord('rel', 'manifest', true);
/** `link[rel~="manifest" i][href]` */
const MANIFEST_LINK: ElementTest = (el) => MANIFEST_REL(el) && el.attribs['href'] !== undefined;

export function findManifestUrl(page: HtmlPage): string | null {
  return resolveUrl(elementIndex(page.$).byTag('link').find(MANIFEST_LINK)?.attribs['href'], page.baseUrl);
}

export async function fetchManifest(page: HtmlPage, fetcher: Fetcher, budget: CrawlBudget): Promise<WebManifest | null> {
  const url = findManifestUrl(page);
  if (!url) return null;
  const res = await fetchResource(fetcher, budget, url, {
    maxBytes: MAX_MANIFEST_BYTES,
    accept: 'application/manifest+json, application/json;q=0.9, */*;q=0.1',
  });
  return res ? parseManifest(res.body.toString('utf8'), res.url) : null;
}

/** Parses manifest JSON leniently; icon URLs resolve against the manifest's own URL (per the spec of manifests). */
export function parseManifest(text: string, manifestUrl: string): WebManifest | null {
  const data = parseLenientJson(text);
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const m = data as Record<string, unknown>;
  return {
    name: str(m['name']),
    shortName: str(m['short_name']),
    description: str(m['description']),
    themeColor: str(m['theme_color']),
    backgroundColor: str(m['background_color']),
    icons: Array.isArray(m['icons']) ? m['icons'].flatMap((icon) => parseIcon(icon, manifestUrl)) : [],
  };
}

function parseIcon(icon: unknown, base: string): ManifestIcon[] {
  if (typeof icon !== 'object' || icon === null) return [];
  const i = icon as Record<string, unknown>;
  const url = resolveUrl(str(i['src']), base);
  if (!url) return [];
  return [{ url, size: largestSize(str(i['sizes'])), purpose: (str(i['purpose']) ?? 'any').toLowerCase() }];
}

/** Largest side in a `sizes` list such as "16x16 32x32" (also used for <link sizes>). */
export function largestSize(sizes: string | null | undefined): number {
  let best = 0;
  for (const m of (sizes ?? '').matchAll(/(\d{1,5})\s*[xX×]\s*(\d{1,5})/g)) {
    best = Math.max(best, Math.min(Number(m[1]), Number(m[2])));
  }
  return best;
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}
