/**
 * Context evidence (ADR 0035): the bounded text of the pages a crawl read (home, about/contact, product, pricing),
 * kept with the brand so its context profile can be built later without fetching again, the way palette evidence
 * is kept (ADR 0023). Only what a profile can quote is kept: title, meta description and keywords, headings,
 * paragraphs and list items of the page's content (navigation, footers, forms and cookie banners left out), and the
 * text fields of the JSON-LD nodes that describe the organization or its offers. Everything is cut to fixed bounds,
 * so a hostile page cannot make the row large.
 */
import type { CheerioAPI } from 'cheerio';
import { CONTEXT_EVIDENCE_VERSION, type ContextBlock, type ContextEvidence, type ContextJsonLd, type ContextPage, type ContextPageKind } from '../../domain/brand-context.js';
import { cleanText, type HtmlPage } from '../page/html-page.js';
import { nodeTypes, nodeValue, readJsonLd, stringList, stringValue, type JsonLdNode } from '../page/json-ld.js';

export const CONTEXT_LIMITS = {
  pages: 6,
  headingsPerPage: 40,
  blocksPerPage: 80,
  /** Characters of one heading, block or JSON-LD string. */
  textChars: 600,
  /** Characters of all blocks of one page. */
  pageChars: 16_000,
  jsonLdPerPage: 12,
  keywords: 20,
} as const;

/** JSON-LD types whose text describes the brand or what it offers. */
const DESCRIBING_TYPES = /^(Organization|Corporation|LocalBusiness|OnlineBusiness|OnlineStore|NGO|EducationalOrganization|WebSite|Brand|Product|Service|SoftwareApplication|WebApplication|MobileApplication|Offer|FinancialProduct|Course|Store|Restaurant|AboutPage)$/;
/** Content that is not the page's own statement: menus, footers, forms, consent banners, dialogs. */
const SKIPPED_TAGS = new Set(['nav', 'footer', 'form', 'script', 'style', 'noscript', 'template', 'svg', 'button', 'select', 'dialog']);
const BANNER = /cookie|consent|gdpr|newsletter|modal|popup/i;

export interface EvidencePage {
  page: HtmlPage;
  kind: ContextPageKind;
}

/** The evidence of a crawl's pages, the home page first; pages of another domain are left out. */
export function contextEvidence(pages: readonly EvidencePage[]): ContextEvidence {
  const home = pages[0]?.page.domain;
  const seen = new Set<string>();
  const kept: ContextPage[] = [];
  for (const { page, kind } of pages) {
    if (page.domain !== home) continue;
    const path = pathOf(page.url);
    if (seen.has(path) || kept.length >= CONTEXT_LIMITS.pages) continue;
    seen.add(path);
    kept.push(pageEvidence(page, kind, path));
  }
  return { version: CONTEXT_EVIDENCE_VERSION, pages: kept };
}

function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    // The path alone: a query string may carry a visitor's or a campaign's tokens.
    return parsed.pathname.slice(0, 200) || '/';
  } catch {
    return '/';
  }
}

function cut(text: string | null | undefined): string | null {
  const clean = cleanText(text);
  if (!clean) return null;
  return clean.length > CONTEXT_LIMITS.textChars ? clean.slice(0, CONTEXT_LIMITS.textChars) : clean;
}

function pageEvidence(page: HtmlPage, kind: ContextPageKind, path: string): ContextPage {
  const { $ } = page;
  const meta = (selector: string): string | null => cut($(selector).first().attr('content'));
  const keywords = (meta('meta[name="keywords" i]') ?? '')
    .split(',')
    .map((k) => cleanText(k))
    .filter((k) => k.length > 1 && k.length <= 60)
    .slice(0, CONTEXT_LIMITS.keywords);
  const { headings, blocks } = contentText($);
  return {
    path,
    kind,
    title: cut($('title').first().text()),
    metaDescription: meta('meta[name="description" i]') ?? meta('meta[property="og:description" i]'),
    keywords,
    headings,
    blocks,
    jsonLd: jsonLdEvidence(readJsonLd($)),
  };
}

/** Headings and leaf paragraphs / list items in document order, each with the heading above it. */
function contentText($: CheerioAPI): Pick<ContextPage, 'headings' | 'blocks'> {
  const headings: ContextPage['headings'] = [];
  const blocks: ContextBlock[] = [];
  let current: string | null = null;
  let chars = 0;
  $('h1, h2, h3, h4, p, li, blockquote').each((_, el) => {
    if (skipped($, el)) return;
    const tag = el.tagName.toLowerCase();
    const text = cut($(el).text());
    if (!text) return;
    if (/^h[1-4]$/.test(tag)) {
      current = text;
      if (headings.length < CONTEXT_LIMITS.headingsPerPage) headings.push({ level: Number(tag[1]), text });
      return;
    }
    // Leaves only: a list item that wraps paragraphs is read through them; a link-only item is a menu entry.
    if ($(el).find('p, li').length > 0 || isLinkOnly($, el)) return;
    if (blocks.length >= CONTEXT_LIMITS.blocksPerPage || chars + text.length > CONTEXT_LIMITS.pageChars) return;
    chars += text.length;
    blocks.push({ heading: current, text });
  });
  return { headings, blocks };
}

type Element = Parameters<CheerioAPI>[0] & { tagName: string };

function skipped($: CheerioAPI, el: Element): boolean {
  for (let node = $(el).parent(); node.length > 0; node = node.parent()) {
    const first = node.get(0) as { tagName?: string } | undefined;
    const tag = first?.tagName?.toLowerCase();
    if (!tag || tag === 'body' || tag === 'html') return false;
    if (SKIPPED_TAGS.has(tag)) return true;
    if (BANNER.test(`${node.attr('class') ?? ''} ${node.attr('id') ?? ''}`)) return true;
    if (node.attr('aria-hidden') === 'true' || node.attr('hidden') !== undefined) return true;
  }
  return false;
}

function isLinkOnly($: CheerioAPI, el: Element): boolean {
  const links = $(el).find('a');
  return links.length > 0 && cleanText(links.text()) === cleanText($(el).text());
}

function jsonLdEvidence(nodes: readonly JsonLdNode[]): ContextJsonLd[] {
  const kept: ContextJsonLd[] = [];
  for (const node of nodes) {
    const type = nodeTypes(node).find((t) => DESCRIBING_TYPES.test(t));
    if (!type) continue;
    const entry: ContextJsonLd = {
      type,
      name: cut(stringValue(node['name'])),
      description: cut(stringValue(node['description'])),
      slogan: cut(stringValue(node['slogan'])),
      keywords: keywordList(node).slice(0, CONTEXT_LIMITS.keywords),
      audience: audienceOf(node),
    };
    if (entry.name || entry.description || entry.slogan || entry.keywords.length > 0) kept.push(entry);
    if (kept.length >= CONTEXT_LIMITS.jsonLdPerPage) break;
  }
  return kept;
}

function keywordList(node: JsonLdNode): string[] {
  const raw = [node['keywords'], node['knowsAbout']].flatMap((value) => (typeof value === 'string' ? value.split(',') : stringList(value)));
  return [...new Set(raw.map((k) => cleanText(k)).filter((k) => k.length > 1 && k.length <= 60 && !/^https?:/i.test(k)))];
}

function audienceOf(node: JsonLdNode): string | null {
  const audience = nodeValue(node['audience']);
  return audience ? cut(stringValue(audience['audienceType']) ?? stringValue(audience['name'])) : null;
}
