/**
 * Firmographic facts stated in a page's running text (homepage, about and contact pages). Only phrasings that
 * state the fact directly count; the footer and copyright lines are removed first, because "© 2009–2026" is the
 * year of the page, not of the company.
 */
import type { CompanyKind } from '../../../domain/brand.js';
import { elementIndex } from '../../page/element-index.js';
import { anyOf, attrContains, attrContainsAny, attrEquals, attrHasAnyWord, childElements, findIn, tagIs, type ElementTest } from '../../page/element-queries.js';
import { elementText } from '../../page/element-text.js';
import type { HtmlElement, HtmlPage } from '../../page/html-page.js';
import { isValidIsin } from '../../../domain/identifiers.js';

export interface TextFacts {
  foundedYear: number | null;
  employees: number | null;
  tickers: string[];
  isins: string[];
  kind: CompanyKind | null;
}

const MAX_TEXT_CHARS = 60_000;
const YEAR = '(1[6-9]\\d{2}|20\\d{2})';
/**
 * Founding statements. "since YYYY" only counts sentence-initially ("Since 1998, Acme has…") or after a verb of
 * doing business ("serving Ohio since 1998"): "available since 2024" is about a feature, not the company.
 */
const FOUNDED_PATTERNS = [
  new RegExp(`\\b(?:founded|established|incorporated|started|formed)\\s+(?:in\\s+(?:the\\s+year\\s+)?|back\\s+in\\s+)?(?:(?:january|february|march|april|may|june|july|august|september|october|november|december)\\s+)?${YEAR}\\b`, 'i'),
  new RegExp(`\\b(?:est\\.?|estd\\.?|founded)\\s+${YEAR}\\b`, 'i'),
  new RegExp(`\\bin\\s+${YEAR},?\\s+(?:\\S+\\s+){0,5}?(?:founded|started|established)\\b`, 'i'),
  new RegExp(`(?:^|[.!?]\\s+|\\n)since\\s+${YEAR},`, 'i'),
  new RegExp(`\\b(?:serving|trading|operating|in business|family[- ]owned|making|brewing|crafting|building|helping|supporting)\\b[^.\\n]{0,50}?\\bsince\\s+${YEAR}\\b`, 'i'),
];
/** Head-count statements about the company itself; "40,000 employees at 300 companies" is about customers. */
const EMPLOYEE_PATTERNS = [
  /\b(?:over|more than|about|around|nearly|almost|some)?\s*(\d{1,3}(?:[,.]\d{3})*|\d+)\s*\+?\s+(?:employees|staff members|team members|colleagues|full-time employees)\b(?!\s+(?:at|from|of|across|in|use|using|rely|trust)\s+(?:\d|more|over|companies|customers|businesses|organi[sz]ations|teams|brands))/i,
  /\bteam of\s+(?:over|more than|about|around)?\s*(\d{1,3}(?:[,.]\d{3})*|\d+)\+?\s+(?:people|employees|experts|engineers|designers|professionals)?/i,
  /\bemploys\s+(?:over|more than|about|around)?\s*(\d{1,3}(?:[,.]\d{3})*|\d+)\+?\s+(?:people|employees|staff)\b/i,
];
const TICKER_PATTERN = /\((?:NYSE|NASDAQ|Nasdaq|LSE|TSX|ASX|XETRA|Euronext|SIX|TSE|HKEX|NYSE American)\s*:\s*([A-Z][A-Z0-9.]{0,6})\)|\b(?:NYSE|NASDAQ|Nasdaq|LSE|TSX|ASX)\s*:\s*([A-Z][A-Z0-9.]{0,6})\b/g;
const ISIN_PATTERN = /\bISIN\s*:?\s*([A-Z]{2}[A-Z0-9]{9}\d)\b/g;
const NON_PROFIT_PATTERN = /\b(501\s*\(c\)\s*\(3\)|registered charity(?: number| no\.?)?|non-profit organi[sz]ation|nonprofit organi[sz]ation|charitable organi[sz]ation|gemeinnützige)/i;

/**
 * `footer, nav, script, style, noscript, template, svg, [role="contentinfo"], [role="navigation"],
 * [class*="cookie" i], [id*="cookie" i], [class*="consent" i]`
 */
const EXCLUDED = anyOf(
  tagIs('footer', 'nav', 'script', 'style', 'noscript', 'template', 'svg'),
  attrEquals('role', 'contentinfo'),
  attrEquals('role', 'navigation'),
  attrContainsAny('class', ['cookie', 'consent'], true),
  attrContains('id', 'cookie', true),
);
/** `h1, h2, h3, h4, p, li, dd, dt, td, blockquote, address, div` */
const BLOCKS = tagIs('h1', 'h2', 'h3', 'h4', 'p', 'li', 'dd', 'dt', 'td', 'blockquote', 'address', 'div');
/** Children that make a `div` a wrapper: `p, div, li, h1, h2, h3, ul, ol, table, section`. */
const NESTED_BLOCKS = tagIs('p', 'div', 'li', 'h1', 'h2', 'h3', 'ul', 'ol', 'table', 'section');
/** `footer, [role="contentinfo"], .footer, #footer, .legal, .imprint, .copyright` */
const LEGAL = anyOf(
  tagIs('footer'),
  attrEquals('role', 'contentinfo'),
  attrHasAnyWord('class', ['footer', 'legal', 'imprint', 'copyright']),
  attrEquals('id', 'footer'),
);
const MAX_BLOCKS = 3000;

/**
 * Visible running text of a page, one block per line, without footer, navigation, scripts, cookie banners and
 * copyright lines. Walks at most MAX_BLOCKS blocks and MAX_TEXT_CHARS characters, so a huge page stays cheap;
 * a `div` counts only when it holds text directly (no nested blocks), so wrappers do not repeat their children.
 */
export function bodyText(page: HtmlPage): string {
  const seen = new Set<string>();
  let size = 0;
  const blocks = elementIndex(page.$).byTag('body').flatMap((body) => findIn(body, BLOCKS));
  for (const el of blocks.slice(0, MAX_BLOCKS)) {
    if (size >= MAX_TEXT_CHARS) break;
    if (el.tagName === 'div' && childElements(el).some(NESTED_BLOCKS)) continue;
    if (insideExcluded(el, EXCLUDED)) continue;
    const text = elementText(el);
    if (!text || seen.has(text) || /©|\bcopyright\b|all rights reserved/i.test(text)) continue;
    seen.add(text);
    size += text.length + 1;
  }
  return [...seen].join('\n').slice(0, MAX_TEXT_CHARS);
}

/** The element or an ancestor is excluded; the walk goes up through plain tags only (not <script>/<style>). */
function insideExcluded(el: HtmlElement, excluded: ElementTest): boolean {
  for (let node: HtmlElement | null = el; node; node = node.parent && node.parent.type === 'tag' ? (node.parent as HtmlElement) : null) {
    if (excluded(node)) return true;
  }
  return false;
}

/** Footer and copyright lines of a page: where sites state their legal entity ("© 2026 Acme Logistics B.V."). */
export function legalNameText(page: HtmlPage): string {
  const lines = elementIndex(page.$).all
    .filter(LEGAL)
    .slice(0, 10)
    .map((el) => elementText(el))
    .filter(Boolean);
  return lines.join('\n').slice(0, MAX_TEXT_CHARS);
}

/**
 * The blocks of a homepage's text that speak about the site's own company: first person ("we", "our") or the
 * brand's name. A homepage, unlike an about page, is full of news and customer stories that mention other
 * companies' founding years and head counts.
 */
export function selfStatements(text: string, names: string[]): string {
  const words = names.map((n) => n.trim().toLowerCase()).filter((n) => n.length >= 2);
  return text
    .split('\n')
    .filter((block) => {
      const lower = block.toLowerCase();
      return /\b(we|our|us|we're|we've)\b/.test(lower) || words.some((w) => lower.includes(w));
    })
    .join('\n');
}

export function textFacts(text: string, now: Date = new Date()): TextFacts {
  const tickers = uniq([...text.matchAll(TICKER_PATTERN)].map((m) => (m[1] ?? m[2] ?? '').toUpperCase()));
  const isins = uniq([...text.matchAll(ISIN_PATTERN)].map((m) => m[1] ?? '').filter(isValidIsin));
  return {
    foundedYear: foundedYearInText(text, now),
    employees: employeesInText(text),
    tickers,
    isins,
    kind: tickers.length || isins.length ? 'PUBLIC_COMPANY' : NON_PROFIT_PATTERN.test(text) ? 'NON_PROFIT' : null,
  };
}

export function foundedYearInText(text: string, now: Date = new Date()): number | null {
  for (const pattern of FOUNDED_PATTERNS) {
    const year = Number(pattern.exec(text)?.[1] ?? NaN);
    if (Number.isFinite(year) && year <= now.getUTCFullYear()) return year;
  }
  return null;
}

export function employeesInText(text: string): number | null {
  for (const pattern of EMPLOYEE_PATTERNS) {
    const digits = pattern.exec(text)?.[1]?.replace(/[,.]/g, '');
    const n = digits ? Number(digits) : NaN;
    // A four-digit number that looks like a year ("2019 employees") is far more likely a misread.
    if (Number.isFinite(n) && n >= 1 && n < 5_000_000) return n;
  }
  return null;
}

/**
 * Legal forms that say how a company is held. Only unambiguous forms count: private limited companies (GmbH,
 * B.V., Ltd, LLC, SARL, Sp. z o.o., ...) are PRIVATELY_HELD, partnerships (LLP, L.P., GbR, OHG, KG) PARTNERSHIP,
 * sole proprietorships SELF_EMPLOYED. "Inc.", "AG", "S.A.", "plc" and "AB" can be listed or not and count for
 * nothing. The form must follow the brand's name or domain label ("Acme Logistics B.V."), so a partner's legal
 * name elsewhere on an imprint page is not read as the brand's.
 */
/** Written as companies write them: case matters, so "5 kg" or "lp" in running text is not a legal form. */
const LEGAL_FORMS: [RegExp, CompanyKind][] = [
  [/^(GmbH|gGmbH|UG|B\.\s?V\.|BV|Ltd\.?|LTD\.?|Limited|LLC|L\.L\.C\.|S\.\s?à\s?r\.\s?l\.|SARL|S\.R\.L\.|S\.r\.l\.|SRL|Sp\.\s?z\s?o\.\s?o\.|ApS|Oy|Pty\.?\s?Ltd\.?|S\.L\.|BVBA|SPRL|Kft\.|s\.r\.o\.|d\.o\.o\.)$/, 'PRIVATELY_HELD'],
  [/^(LLP|L\.L\.P\.|L\.P\.|LP|GbR|OHG|KG)$/, 'PARTNERSHIP'],
  [/^(e\.\s?K\.|Einzelunternehmen)$/, 'SELF_EMPLOYED'],
];
/** After the name: up to 40 characters of further name ("Logistics", ", Partners"), then the form. */
const AFTER_NAME = /^[\p{L}\p{N}\s&'.,-]{0,40}?[\s,](GmbH|gGmbH|UG|B\.\s?V\.|BV|Ltd\.?|LTD\.?|Limited|LLC|L\.L\.C\.|S\.\s?à\s?r\.\s?l\.|SARL|S\.R\.L\.|S\.r\.l\.|SRL|Sp\.\s?z\s?o\.\s?o\.|ApS|Oy|Pty\.?\s?Ltd\.?|S\.L\.|BVBA|SPRL|Kft\.|s\.r\.o\.|d\.o\.o\.|LLP|L\.L\.P\.|L\.P\.|LP|GbR|OHG|KG|e\.\s?K\.|Einzelunternehmen)(?=$|[\s,;.)·|])/u;
const MAX_NAME_HITS = 20;

/** kind from the legal form following one of `names` in `text`; null when none or ambiguous. */
export function legalFormKind(text: string, names: string[]): CompanyKind | null {
  const lower = text.toLowerCase();
  for (const name of names.map((n) => n.trim().toLowerCase()).filter((n) => n.length >= 2)) {
    let at = lower.indexOf(name);
    for (let hits = 0; at >= 0 && hits < MAX_NAME_HITS; hits += 1, at = lower.indexOf(name, at + 1)) {
      if (at > 0 && /[\p{L}\p{N}]/u.test(text[at - 1] ?? '')) continue;
      const form = AFTER_NAME.exec(text.slice(at + name.length, at + name.length + 60))?.[1];
      const kind = form ? LEGAL_FORMS.find(([re]) => re.test(form))?.[1] : undefined;
      if (kind) return kind;
    }
  }
  return null;
}


function uniq(values: string[]): string[] {
  return [...new Set(values.filter(Boolean))];
}
