/**
 * Every place a homepage names its brand, as raw candidates with a weight (how much a site's own word there
 * counts): JSON-LD Organization / WebSite / publisher, microdata publisher, og:site_name, application-name,
 * the manifest, `<meta name="publisher">`, the header logo's alt text, the <title> segments, twitter:site and
 * the copyright line. choose-name.ts weighs them by agreement; clean-name.ts cleans them.
 */
import { elementIndex } from '../../page/element-index.js';
import { anyOf, attrContains, attrEquals, attrHasWord, firstAttr, findIn, hasAncestor, LINK, tagIs, textOf, type ElementTest } from '../../page/element-queries.js';
import { elementText } from '../../page/element-text.js';
import { cleanText, type HtmlElement, type HtmlPage } from '../../page/html-page.js';
import { findOrganization, nodeTypes, nodeValue, stringValue, type JsonLdNode } from '../../page/json-ld.js';
import type { WebManifest } from '../../fetch/manifest.js';
import { isHomeLinked } from '../logos/logo-candidates.js';

export type NameSource =
  | 'json-ld-organization' | 'json-ld-website' | 'json-ld-publisher' | 'microdata-publisher' | 'og-site-name'
  | 'application-name' | 'manifest-short-name' | 'manifest-name' | 'meta-publisher' | 'logo-alt' | 'title'
  | 'twitter-site' | 'copyright' | 'json-ld-alternate-name';

export interface NameCandidate {
  text: string;
  source: NameSource;
  weight: number;
  /** One of several segments of its source ("Rocket Podcasts | Acme Studios"): usable alone only when it matches the domain. */
  segment: boolean;
}

/** How much each source's word counts when sources are weighed (docs/extraction.md, "Name"). */
export const SOURCE_WEIGHTS: Record<NameSource, number> = {
  'json-ld-organization': 3,
  'json-ld-website': 3,
  'og-site-name': 3,
  'json-ld-publisher': 2,
  'microdata-publisher': 2,
  'meta-publisher': 2,
  'application-name': 2,
  'manifest-short-name': 2,
  'manifest-name': 1.5,
  'logo-alt': 1.5,
  title: 1,
  'twitter-site': 1,
  copyright: 1,
  'json-ld-alternate-name': 1,
};

export interface NameSourcesInput {
  page: HtmlPage;
  jsonLd: JsonLdNode[];
  manifest: WebManifest | null;
}

export const TITLE_SEPARATORS = /\s+[|\-–—·:•/»]\s+|\s*[|–—·•»]\s*|:\s+/;

const SITE_NAME = anyOf(attrEquals('property', 'og:site_name', true), attrEquals('name', 'og:site_name', true));
const APPLICATION_NAME = anyOf(attrEquals('name', 'application-name', true), attrEquals('name', 'apple-mobile-web-app-title', true));
const PUBLISHER_META = anyOf(attrEquals('name', 'publisher', true), attrEquals('name', 'dc.publisher', true), attrEquals('name', 'DC.publisher', true));
const TWITTER_SITE = anyOf(attrEquals('name', 'twitter:site', true), attrEquals('property', 'twitter:site', true));

export function nameCandidates({ page, jsonLd, manifest }: NameSourcesInput): NameCandidate[] {
  const index = elementIndex(page.$);
  const metas = index.byTag('meta');
  const titleElement = index.byTag('title')[0];
  const raw: [NameSource, string | null | undefined][] = [
    ['json-ld-organization', stringValue(findOrganization(jsonLd, page.label)?.['name'])],
    ...jsonLdSiteNames(jsonLd),
    ...jsonLdPublishers(jsonLd),
    ...microdataPublishers(page).map((name): [NameSource, string] => ['microdata-publisher', name]),
    ['og-site-name', firstAttr(metas, SITE_NAME, 'content')],
    ['application-name', firstAttr(metas, APPLICATION_NAME, 'content')],
    ['manifest-short-name', manifest?.shortName],
    ['manifest-name', manifest?.name],
    ['meta-publisher', firstAttr(metas, PUBLISHER_META, 'content')],
    ['logo-alt', homeLogoLabel(page)],
    ['title', titleElement ? textOf(titleElement) : null],
    ['twitter-site', twitterHandle(firstAttr(metas, TWITTER_SITE, 'content'))],
    ['copyright', copyrightHolder(page)],
  ];
  return raw.flatMap(([source, value]) => {
    const segments = splitSegments(value);
    return segments.map((text) => ({ text, source, weight: SOURCE_WEIGHTS[source], segment: segments.length > 1 }));
  });
}

/** Segments of a source split at title separators; URLs and e-mail addresses are not names. */
export function splitSegments(text: string | null | undefined): string[] {
  const clean = cleanText(text);
  if (!clean || /^https?:\/\/|@\S+\.\S+/.test(clean)) return [];
  return clean.split(TITLE_SEPARATORS).map((s) => s.trim()).filter(Boolean);
}

/** WebSite nodes name the site (and its alternate names); WebPage/Article nodes are about one page. */
function jsonLdSiteNames(nodes: JsonLdNode[]): [NameSource, string | null][] {
  return nodes
    .filter((n) => nodeTypes(n).includes('WebSite'))
    .flatMap((n): [NameSource, string | null][] => [['json-ld-website', stringValue(n['name'])], ['json-ld-alternate-name', stringValue(n['alternateName'])]]);
}

/** The publisher of an article, page or site node (a typed node or a bare `{name}`). */
function jsonLdPublishers(nodes: JsonLdNode[]): [NameSource, string | null][] {
  const out: [NameSource, string | null][] = [];
  for (const n of nodes) {
    const publisher = nodeValue(n['publisher']) ?? nodeValue(n['sourceOrganization']);
    const name = publisher ? stringValue(publisher['name']) : null;
    if (name && out.length < 4) out.push(['json-ld-publisher', name]);
  }
  return out;
}

const ITEMSCOPE_ORGANIZATION: ElementTest = (el) => el.attribs['itemscope'] !== undefined && /schema\.org\/(Organization|NewsMediaOrganization|Corporation|OnlineBusiness)\b/i.test(el.attribs['itemtype'] ?? '');
const PUBLISHER_PROP = attrHasWord('itemprop', 'publisher', true);
const NAME_PROP = attrHasWord('itemprop', 'name', true);

/** Microdata `itemprop="publisher"` (or an Organization item) → its `itemprop="name"` (content or text). */
function microdataPublishers(page: HtmlPage): string[] {
  const index = elementIndex(page.$);
  const items = index.all.filter((el) => (PUBLISHER_PROP(el) && el.attribs['itemscope'] !== undefined) || ITEMSCOPE_ORGANIZATION(el)).slice(0, 4);
  const names: string[] = [];
  for (const item of items) {
    const nameEl = findIn(item, NAME_PROP)[0];
    const name = nameEl ? nameEl.attribs['content'] ?? elementText(nameEl) : null;
    if (name && name.length <= 80) names.push(name);
  }
  // A publisher named without an item of its own: `<meta itemprop="publisher" content="Example">`.
  for (const el of index.all.filter((e) => PUBLISHER_PROP(e) && e.attribs['itemscope'] === undefined && e.attribs['content'])) {
    names.push(el.attribs['content'] ?? '');
  }
  return names;
}

/** `@TheVerge` → `TheVerge`; numeric ids and URLs are not names. */
function twitterHandle(value: string | undefined): string | null {
  const handle = /^@?([A-Za-z0-9_]{2,15})$/.exec((value ?? '').trim().replace(/^https?:\/\/(www\.)?(twitter|x)\.com\//i, '@'))?.[1];
  return handle && !/^\d+$/.test(handle) ? handle : null;
}

const LOGO_WORDS = /\b(logo(type)?|icon|image|img|svg|png|home(page)?|go to|back to|black|white|dark|light|colou?r|\d+)\b/gi;

/** The alt/aria-label of the header's home-linked logo, minus logo words ("audiense_logotype_black" → "audiense"). */
function homeLogoLabel(page: HtmlPage): string | null {
  const logo = elementIndex(page.$).all.find((el) => isHomeLogoCandidate(el) && isHomeLinked(page, el));
  if (!logo) return null;
  const text = logo.attribs['alt'] ?? logo.attribs['aria-label'] ?? '';
  const name = cleanText(text.replace(/[_-]+/g, ' ').replace(LOGO_WORDS, ' '));
  return name.split(' ').length <= 4 ? name : null;
}

const HEADER_TAG = tagIs('header');
const LINK_IN_HEADER: ElementTest = (el) => LINK(el) && hasAncestor(el, HEADER_TAG);
const LOGO_CLASS = attrContains('class', 'logo', true);
/** `header a[href] img[alt], header a[href][aria-label], a[href] img[class*="logo" i][alt]` */
function isHomeLogoCandidate(el: HtmlElement): boolean {
  if (el.name === 'img' && el.attribs['alt'] !== undefined) return hasAncestor(el, LINK_IN_HEADER) || (LOGO_CLASS(el) && hasAncestor(el, LINK));
  return el.attribs['aria-label'] !== undefined && LINK_IN_HEADER(el);
}

/** `footer, [role="contentinfo"], .footer, #footer, .copyright` */
const FOOTER = anyOf(tagIs('footer'), attrEquals('role', 'contentinfo'), attrHasWord('class', 'footer'), attrEquals('id', 'footer'), attrHasWord('class', 'copyright'));
/** "© 2009–2026 Example Media, Inc. All rights reserved." → "Example Media, Inc." (legal form cleaned later). */
const COPYRIGHT = /(?:©|\(c\)|copyright\b)\s*(?:(?:19|20)\d{2}\s*(?:[-–—]\s*(?:(?:19|20)\d{2}|present)\s*)?)?,?\s*(?:by\s+)?([\p{L}\p{N}][\p{L}\p{N}&'’.,\s-]{1,60}?)\s*(?:[.|·•]\s|\ball rights\b|\btous droits\b|\balle rechte\b|\btodos los derechos\b|[|·•]|$)/iu;

/** The copyright holder named in the footer; null when none or when it reads like a sentence. */
export function copyrightHolder(page: HtmlPage): string | null {
  const footers = elementIndex(page.$).all.filter(FOOTER).slice(0, 6);
  for (const el of footers) {
    const text = elementText(el);
    const holder = COPYRIGHT.exec(text)?.[1]?.trim().replace(/[\s,.]+$/, '');
    if (holder && holder.split(/\s+/).length <= 6 && !/^(?:19|20)\d{2}$|^all rights\b/i.test(holder)) return holder;
  }
  return null;
}
