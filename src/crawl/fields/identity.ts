/**
 * Name, description and long description from the homepage's own metadata (metascraper-style ordered rules:
 * the first source that yields a usable value wins).
 */
import { elementIndex } from '../page/element-index.js';
import { anyOf, attrContains, attrEquals, closest, firstAttr, hasAncestor, LINK, tagIs, textOf, type ElementTest } from '../page/element-queries.js';
import { elementText } from '../page/element-text.js';
import { cleanText, type HtmlElement, type HtmlPage } from '../page/html-page.js';
import { isHomeLinked } from './logos/logo-candidates.js';
import { findOrganization, stringValue, type JsonLdNode } from '../page/json-ld.js';
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

const MAX_NAME_CHARS = 80;
const MAX_DESCRIPTION_CHARS = 300;
const MAX_LONG_DESCRIPTION_CHARS = 2000;
/** Titles and site names that name no brand. */
const GENERIC_NAMES = /^(home|homepage|home page|welcome|index|untitled|default|main|start|startseite|accueil|inicio|coming soon|under construction|404|not found|page not found|error|loading\.*|document)$/i;
const TITLE_SEPARATORS = /\s+[|\-–—·:•/]\s+|\s*[|–—·•]\s*|:\s+/;

export function extractIdentity(input: IdentityInput): Identity {
  const description = extractDescription(input.page);
  return {
    name: extractName(input),
    description,
    longDescription: extractLongDescription(input, description),
  };
}

/**
 * Ordered sources (JSON-LD Organization name, og:site_name, application-name, manifest short_name/name, the
 * home-linked header logo's alt text, the <title>). A source that resembles the domain label beats an earlier
 * one that does not (an article page's JSON-LD may name a publication, not the site); separators split a
 * source into segments and the segment matching the label is kept ("Radiolab | WNYC Studios").
 */
export function extractName({ page, jsonLd, manifest }: IdentityInput): string | null {
  const index = elementIndex(page.$);
  const metas = index.byTag('meta');
  const titleElement = index.byTag('title')[0];
  const sources = [
    stringValue(findOrganization(jsonLd, page.label)?.['name']),
    firstAttr(metas, SITE_NAME, 'content'),
    firstAttr(metas, APPLICATION_NAME, 'content'),
    manifest?.shortName,
    manifest?.name,
    homeLogoLabel(page),
  ];
  const title = titleElement ? textOf(titleElement) : '';
  // The first source with a matching segment; later sources are not even split.
  let matching: string | null = null;
  for (const source of [...sources, title]) {
    matching = bestSegment(source, page.label);
    if (matching !== null) break;
  }
  if (matching) return matching;
  const first = sources.map(usableName).find((s) => s !== null);
  return first ?? nameFromTitle(title, page.label);
}

/** `meta[property="og:site_name" i], meta[name="og:site_name" i]` */
const SITE_NAME = anyOf(attrEquals('property', 'og:site_name', true), attrEquals('name', 'og:site_name', true));
const APPLICATION_NAME = attrEquals('name', 'application-name', true);

/** The segment of `text` that matches the domain label, as a usable name; null when none does. */
function bestSegment(text: string | null | undefined, label: string): string | null {
  const segments = splitSegments(text);
  const scored = segments.map((s) => ({ s, score: labelSimilarity(s, label) })).filter((x) => x.score > 0);
  const best = scored.sort((a, b) => b.score - a.score)[0];
  return best ? usableName(best.s) : null;
}

function splitSegments(text: string | null | undefined): string[] {
  return cleanText(text)
    .split(TITLE_SEPARATORS)
    .map((s) => s.trim())
    .filter((s) => s && !GENERIC_NAMES.test(s));
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

function usableName(value: string | null | undefined): string | null {
  const name = cleanText(value);
  if (!name || name.length > MAX_NAME_CHARS || GENERIC_NAMES.test(name)) return null;
  return name;
}

/**
 * Homepage titles read "Brand | Tagline" or "Tagline — Brand": the segment closest to the domain label is the
 * name. A title without separators is the name only when it is short; otherwise no name beats a tagline.
 */
export function nameFromTitle(title: string, label: string): string | null {
  const segments = splitSegments(title);
  if (segments.length === 0) return null;
  const matching = bestSegment(title, label);
  if (matching) return matching;
  const only = segments.length === 1 ? segments[0] : null;
  return only && only.split(' ').length <= 4 ? usableName(only) : null;
}

/** 0..1: how well a text matches the domain label (exact or containment, ignoring a leading "the"). */
export function labelSimilarity(text: string, label: string): number {
  const t = compact(text);
  const l = compact(label);
  if (!t || !l) return 0;
  if (t === l) return 1;
  if (t.includes(l) || l.includes(t)) return Math.min(t.length, l.length) / Math.max(t.length, l.length);
  return 0;
}

function compact(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '').replace(/^the(?=.{3})/, '');
}

/**
 * The short description: og:description, meta description, twitter:description, then the page's first lead
 * paragraph; each cleaned of navigation crumbs ("Home | …", "… - Brand"), and rejected when it is cookie or
 * consent text, a bare navigation word, or too short to say anything.
 */
export function extractDescription(page: HtmlPage): string | null {
  const metas = elementIndex(page.$).byTag('meta');
  const candidates = [
    firstAttr(metas, OG_DESCRIPTION, 'content'),
    firstAttr(metas, DESCRIPTION, 'content'),
    firstAttr(metas, TWITTER_DESCRIPTION, 'content'),
    leadParagraph(page),
  ];
  for (const candidate of candidates) {
    const text = cleanDescription(candidate);
    if (text) return truncateAtSentence(text, MAX_DESCRIPTION_CHARS);
  }
  return null;
}

const OG_DESCRIPTION = attrEquals('property', 'og:description', true);
const DESCRIPTION = attrEquals('name', 'description', true);
const TWITTER_DESCRIPTION = attrEquals('name', 'twitter:description', true);

const BOILERPLATE = /(\bcookies?\b.*\b(use|accept|consent|settings|policy)\b|\b(accept|manage) (all )?cookies\b|\bwe use cookies\b|\bjavascript (is )?(disabled|required)\b|\benable javascript\b|\byour browser\b.*\b(not supported|out of date|outdated)\b|^(skip to (main )?content|menu|navigation|search|loading\.*|log ?in|sign ?in)$)/i;
const NAV_PREFIX = /^(home|homepage|start)\s*[|›»>:/–—-]\s*/i;

/** A usable description, or null for boilerplate; leading crumbs like "Home | " are removed. */
export function cleanDescription(value: string | null | undefined): string | null {
  const text = cleanText(value).replace(NAV_PREFIX, '').trim();
  if (text.length < 10 || GENERIC_NAMES.test(text) || BOILERPLATE.test(text)) return null;
  // Mostly link labels glued together ("Home Products Pricing Blog Contact") is navigation, not prose.
  const words = text.split(' ');
  if (words.length >= 4 && !/[.,!?;:]/.test(text) && words.every((w) => /^[A-Z]/.test(w))) return null;
  return text;
}

/** The first substantial paragraph of the main content (outside header, nav, footer and consent banners). */
function leadParagraph(page: HtmlPage): string | null {
  const el = contentParagraphs(page).find((p) => {
    if (closest(p, NOT_LEAD) !== null) return false;
    return elementText(p).length >= 50;
  });
  return el ? elementText(el) : null;
}

const CONTENT_ROOT = tagIs('main', 'article', 'body');
const CHROME = tagIs('header', 'nav', 'footer');
const DIALOG = attrEquals('role', 'dialog');
const COOKIE_CLASS = attrContains('class', 'cookie', true);
const CONSENT_CLASS = attrContains('class', 'consent', true);
/** `header, nav, footer, [role="dialog"], [class*="cookie" i], [id*="cookie" i], [class*="consent" i]` */
const NOT_LEAD = anyOf(CHROME, DIALOG, COOKIE_CLASS, attrContains('id', 'cookie', true), CONSENT_CLASS);
/** `header, nav, footer, [role="dialog"], [class*="cookie" i], [class*="consent" i]` */
const NOT_ABOUT = anyOf(CHROME, DIALOG, COOKIE_CLASS, CONSENT_CLASS);

/** `main p, article p, body p` */
function contentParagraphs(page: HtmlPage): HtmlElement[] {
  return elementIndex(page.$).byTag('p').filter((p) => hasAncestor(p, CONTENT_ROOT));
}

/** Cuts to at most `max` characters at the last sentence end; at a word with an ellipsis when there is none. */
export function truncateAtSentence(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max + 1);
  const sentenceEnd = Math.max(...['. ', '! ', '? '].map((p) => head.lastIndexOf(p)));
  if (sentenceEnd >= max / 3) return head.slice(0, sentenceEnd + 1);
  const wordEnd = head.lastIndexOf(' ', max - 1);
  return `${head.slice(0, wordEnd > 0 ? wordEnd : max - 1).replace(/[\s,;:.-]+$/, '')}…`;
}

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
