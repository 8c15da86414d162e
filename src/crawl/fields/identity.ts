/**
 * Name, description and long description from the homepage's own metadata: the name weighed over every source
 * by agreement (names/), the description from what the site says about itself (description/).
 */
import { elementIndex } from '../page/element-index.js';
import { anyOf, attrContains, attrEquals, closest, hasAncestor, tagIs } from '../page/element-queries.js';
import { elementText } from '../page/element-text.js';
import type { HtmlElement, HtmlPage } from '../page/html-page.js';
import { findOrganization, stringValue, type JsonLdNode } from '../page/json-ld.js';
import { cleanDescription } from './description/description-text.js';
import { extractDescription, truncateAtSentence } from './description/site-description.js';
import { chooseName } from './names/choose-name.js';
import { nameCandidates, SOURCE_WEIGHTS, splitSegments } from './names/name-sources.js';
import type { WebManifest } from '../fetch/manifest.js';

export interface Identity {
  name: string | null;
  description: string | null;
  longDescription: string | null;
}

export interface IdentityInput {
  page: HtmlPage;
  jsonLd: JsonLdNode[];
  manifest: WebManifest | null;
  /** About/contact pages of the site (about-pages.ts): their lead paragraphs can be the long description. */
  aboutPages?: HtmlPage[];
}


export { cleanDescription, extractDescription, truncateAtSentence };
const MAX_LONG_DESCRIPTION_CHARS = 2000;

export function extractIdentity(input: IdentityInput): Identity {
  const name = extractName(input);
  const description = extractDescription(input.page, { jsonLd: input.jsonLd, manifest: input.manifest, aboutPages: input.aboutPages ?? [], name });
  return {
    name,
    description,
    longDescription: extractLongDescription(input, description),
  };
}

/**
 * The brand name, weighed over every source the page offers (names/name-sources.ts) by agreement and by
 * resemblance to the domain label, then cleaned of legal forms, domain suffixes, section words and asides
 * (names/choose-name.ts, names/clean-name.ts).
 */
export function extractName({ page, jsonLd, manifest }: IdentityInput): string | null {
  return chooseName(nameCandidates({ page, jsonLd, manifest }), page.label);
}

/**
 * Homepage titles read "Brand | Tagline" or "Tagline — Brand": the segment closest to the domain label is the
 * name. A title without separators is the name only when it is short; otherwise no name beats a tagline.
 */
export function nameFromTitle(title: string, label: string): string | null {
  const segments = splitSegments(title);
  return chooseName(segments.map((text) => ({ text, source: 'title', weight: SOURCE_WEIGHTS.title, segment: segments.length > 1 })), label);
}

/** `main p, article p, body p` */
function contentParagraphs(page: HtmlPage): HtmlElement[] {
  return elementIndex(page.$).byTag('p').filter((p) => hasAncestor(p, CONTENT_ROOT));
}

const CONTENT_ROOT = tagIs('main', 'article', 'body');
/** `header, nav, footer, [role="dialog"], [class*="cookie" i], [class*="consent" i]` */
const NOT_ABOUT = anyOf(tagIs('header', 'nav', 'footer'), attrEquals('role', 'dialog'), attrContains('class', 'cookie', true), attrContains('class', 'consent', true));

/** The longer self-description: JSON-LD Organization description, the about page's lead text, the manifest's. */
function extractLongDescription({ page, jsonLd, manifest, aboutPages = [] }: IdentityInput, description: string | null): string | null {
  const candidates = [
    stringValue(findOrganization(jsonLd, page.label)?.['description']),
    ...aboutPages.map(aboutText),
    manifest?.description,
  ];
  for (const candidate of candidates) {
    const text = cleanDescription(candidate);
    if (text && text !== description && text.length > (description?.length ?? 0)) {
      return truncateAtSentence(text, MAX_LONG_DESCRIPTION_CHARS);
    }
  }
  return null;
}

/** The about page's opening prose: its first paragraphs of at least 60 characters, up to ~1,200 characters. */
export function aboutText(page: HtmlPage): string | null {
  const paragraphs = contentParagraphs(page)
    .filter((p) => closest(p, NOT_ABOUT) === null)
    .map((p) => elementText(p))
    .filter((t) => t.length >= 60 && !/©|copyright|all rights reserved/i.test(t) && cleanDescription(t) !== null);
  let text = '';
  for (const p of paragraphs) {
    if (text.length > 1200) break;
    text = text ? `${text} ${p}` : p;
  }
  return text || null;
}
