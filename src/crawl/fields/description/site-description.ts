/**
 * The short description (spec 2.1 `description`): what the site says about itself. On a home page that is its
 * og:description, meta description or twitter:description, then the site-level statements below, then a lead
 * paragraph that speaks about the brand. On a content page (page-kind.ts: an article, a video, a product) the
 * page's own description is its lede and is never used: only site-level statements count — the JSON-LD WebSite
 * or Organization description, the manifest's, a footer line that says what the brand is ("Acme is a …"), the
 * about page's description. No description beats someone else's words.
 */
import { elementIndex } from '../../page/element-index.js';
import { anyOf, attrContains, attrEquals, closest, firstAttr, hasAncestor, tagIs } from '../../page/element-queries.js';
import { elementText } from '../../page/element-text.js';
import type { HtmlElement, HtmlPage } from '../../page/html-page.js';
import { findOrganization, nodeTypes, stringValue, type JsonLdNode } from '../../page/json-ld.js';
import type { WebManifest } from '../../fetch/manifest.js';
import { compactKey } from '../names/clean-name.js';
import { cleanDescription } from './description-text.js';
import { pageKind } from './page-kind.js';

export interface DescriptionContext {
  jsonLd?: JsonLdNode[];
  manifest?: WebManifest | null;
  aboutPages?: HtmlPage[];
  /** The brand name chosen for the record: a footer line or lead paragraph must be about it. */
  name?: string | null;
}

export const MAX_DESCRIPTION_CHARS = 300;

const OG_DESCRIPTION = attrEquals('property', 'og:description', true);
const DESCRIPTION = attrEquals('name', 'description', true);
const TWITTER_DESCRIPTION = attrEquals('name', 'twitter:description', true);

export function extractDescription(page: HtmlPage, context: DescriptionContext = {}): string | null {
  const jsonLd = context.jsonLd ?? [];
  const names = [context.name, page.label].filter((n): n is string => Boolean(n));
  const siteLevel = (): (string | null | undefined)[] => [
    ...siteNodeDescriptions(page, jsonLd, names),
    context.manifest?.description,
    footerSelfStatement(page, names),
    ...(context.aboutPages ?? []).map(pageOwnDescription),
  ];
  const home = pageKind(page, jsonLd) === 'home';
  const candidates = home ? homeCandidates(page, names, siteLevel) : siteLevel();
  for (const candidate of candidates) {
    // Metadata is written as a description; only page text can be navigation glued together.
    const text = cleanDescription(candidate, { metadata: true });
    if (text) return truncateAtSentence(text, MAX_DESCRIPTION_CHARS);
  }
  const lead = home ? cleanDescription(leadParagraph(page, names)) : null;
  return lead ? truncateAtSentence(lead, MAX_DESCRIPTION_CHARS) : null;
}

/**
 * A home page's own description first, unless it names neither the brand nor "we" while a footer line says
 * plainly what the brand is: then that line (a home page's meta description can be a quote or a teaser).
 */
function homeCandidates(page: HtmlPage, names: string[], siteLevel: () => (string | null | undefined)[]): (string | null | undefined)[] {
  const own = pageOwnDescription(page);
  const statement = footerSelfStatement(page, names);
  if (own && statement && !speaksOfBrand(own, names)) return [statement, own, ...siteLevel()];
  return [own, ...siteLevel()];
}

function speaksOfBrand(text: string, names: string[]): boolean {
  const lower = text.toLowerCase();
  return FIRST_PERSON.test(text) || names.some((n) => n.length >= 2 && lower.includes(n.toLowerCase()));
}

/** The page's own og:description, meta description or twitter:description, the first usable one. */
export function pageOwnDescription(page: HtmlPage): string | null {
  const metas = elementIndex(page.$).byTag('meta');
  for (const test of [OG_DESCRIPTION, DESCRIPTION, TWITTER_DESCRIPTION]) {
    const text = cleanDescription(firstAttr(metas, test, 'content'));
    if (text) return text;
  }
  return null;
}

/** WebSite descriptions, then the site organization's (by name or domain), never an article's or a person's. */
function siteNodeDescriptions(page: HtmlPage, jsonLd: JsonLdNode[], names: string[]): (string | null)[] {
  const sites = jsonLd.filter((n) => nodeTypes(n).includes('WebSite')).map((n) => stringValue(n['description']));
  const org = findOrganization(jsonLd, page.label);
  const orgName = compactKey(stringValue(org?.['name']) ?? '');
  const ours = org && orgName && names.some((n) => compactKey(n) === orgName || orgName.includes(compactKey(n)));
  return [...sites, ours ? stringValue(org['description']) : null];
}

/** `footer, [role="contentinfo"], aside, .footer, .about, #about, .site-description, .tagline` */
const SITE_BLURB = anyOf(
  tagIs('footer', 'aside'),
  attrEquals('role', 'contentinfo'),
  attrContains('class', 'footer', true),
  attrContains('class', 'about', true),
  attrEquals('id', 'about'),
  attrContains('class', 'site-description', true),
  attrContains('class', 'tagline', true),
);
const SELF_VERB = /^(?:®|™)?\s*(?:is|are|was|has|have|helps|brings|offers|provides|builds|makes|gives|connects|delivers|exists|serves|separates|has been|is the|is an?)\b/i;
const MAX_BLURBS = 400;

/**
 * A footer or about-box line that says what the brand is: it opens with the brand's name and a verb ("Ars
 * Technica has been separating …", "Acme is a …") or with "We are". Only the first two sentences are kept.
 */
export function footerSelfStatement(page: HtmlPage, names: string[]): string | null {
  const keys = names.map(compactKey).filter((k) => k.length >= 2);
  if (keys.length === 0) return null;
  const blocks = elementIndex(page.$).all.filter((el) => (el.name === 'p' || el.name === 'div' || el.name === 'span') && hasAncestor(el, SITE_BLURB)).slice(0, MAX_BLURBS);
  for (const el of blocks) {
    if (el.name !== 'p' && el.children.some((c) => c.type === 'tag' && ['p', 'div'].includes((c as HtmlElement).name))) continue;
    const text = elementText(el);
    if (text.length < 40 || text.length > 1200) continue;
    if (opensWithBrand(text, keys)) return firstSentences(text, 2);
  }
  return null;
}

function opensWithBrand(text: string, keys: string[]): boolean {
  if (/^we(?:'re| are)\b/i.test(text)) return true;
  const words = text.split(/\s+/);
  for (let n = 1; n <= Math.min(5, words.length - 1); n += 1) {
    const head = compactKey(words.slice(0, n).join(' '));
    if (keys.includes(head)) return SELF_VERB.test(words.slice(n).join(' ').replace(/^[®™]/, ''));
  }
  return false;
}

function firstSentences(text: string, count: number): string {
  const sentences = text.match(/[^.!?]+(?:[.!?]+|$)/g) ?? [text];
  return sentences.slice(0, count).join('').trim();
}

const CONTENT_ROOT = tagIs('main', 'article', 'body');
/** `header, nav, footer, [role="dialog"], [class*="cookie" i], [id*="cookie" i], [class*="consent" i]` */
const NOT_LEAD = anyOf(tagIs('header', 'nav', 'footer'), attrEquals('role', 'dialog'), attrContains('class', 'cookie', true), attrContains('id', 'cookie', true), attrContains('class', 'consent', true));
const FIRST_PERSON = /\b(we|our|us|we're|we've)\b/i;

/**
 * The first substantial paragraph of a home page's content (outside header, nav, footer and consent banners),
 * only when it speaks about the brand: it names it, or says "we"/"our". A paragraph about anything else is a
 * teaser of some other content.
 */
function leadParagraph(page: HtmlPage, names: string[]): string | null {
  const keys = names.map((n) => n.toLowerCase()).filter((n) => n.length >= 2);
  const el = elementIndex(page.$).byTag('p').find((p) => {
    if (!hasAncestor(p, CONTENT_ROOT) || closest(p, NOT_LEAD) !== null) return false;
    return elementText(p).length >= 50;
  });
  if (!el) return null;
  const text = elementText(el);
  const lower = text.toLowerCase();
  return FIRST_PERSON.test(text) || keys.some((k) => lower.includes(k)) ? text : null;
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
