/**
 * Logos painted with CSS (`background-image` on a header link or a logo-named element, often with the text
 * hidden by text-indent), from inline styles and from simple stylesheet rules. When the rule also places the
 * image with pixel offsets and a pixel box (`background-position: -40px 0; width: 120px; height: 32px`), the
 * file is a sprite sheet and only that box is the logo, so a crop is carried with the candidate.
 * Rules scoped to a dark scheme (`@media (prefers-color-scheme: dark)`, `.dark …`, `[data-theme=dark] …`)
 * give the dark-scheme variant: a light logo.
 */
import type { CheerioAPI } from 'cheerio';
import type { HtmlElement, HtmlPage } from '../../page/html-page.js';
import { resolveUrl } from '../../page/html-page.js';
import { declaredValue, ruleSelectors, type CssRule, type ParsedCss } from '../../page/parse-css.js';
import { matchesSelector } from '../../page/selector-match.js';

export interface SpriteCrop {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface BackgroundLogo {
  url: string;
  crop: SpriteCrop | null;
  /** 'dark' when the rule only applies in a dark colour scheme. */
  scheme: 'dark' | null;
}

const CSS_URL = /url\(\s*['"]?([^'")]+)['"]?\s*\)/i;
const DARK_SCOPE = /(^|[\s,])(\.dark|\.theme-dark|\[data-theme=["']?dark["']?\]|\[data-mode=["']?dark["']?\])\s/i;
/** `url(…) 0 -64px no-repeat`: the two lengths after the url are the position. */
const SHORTHAND_POSITION = /\)\s*(-?\d+(?:\.\d+)?(?:px)?)\s+(-?\d+(?:\.\d+)?(?:px)?)/;
/** Bounded work on hostile CSS: only rules with a background and at most this many of them are matched. */
const MAX_RULES = 2000;

export function backgroundLogos(page: HtmlPage, el: HtmlElement, sheets: ParsedCss[]): BackgroundLogo[] {
  const out: BackgroundLogo[] = [];
  const inline = el.attribs['style'] ?? '';
  const inlineUrl = CSS_URL.exec(/background(-image)?\s*:[^;]*/i.exec(inline)?.[0] ?? '')?.[1];
  const resolvedInline = resolveUrl(inlineUrl, page.baseUrl);
  if (resolvedInline) out.push({ url: resolvedInline, crop: cropFromDeclarations(inline), scheme: null });
  for (const { rule, base } of backgroundRules(sheets, page.baseUrl)) {
    const selectors = ruleSelectors(rule);
    const dark = /prefers-color-scheme\s*:\s*dark/i.test(rule.media ?? '');
    for (const selector of selectors) {
      const darkScope = DARK_SCOPE.exec(`${selector} `);
      const bare = darkScope ? selector.slice(darkScope[0].length).trim() : selector;
      if (!bare || /:(hover|focus|active|before|after)/i.test(bare) || !matches(page.$, el, bare)) continue;
      const url = resolveUrl(CSS_URL.exec(background(rule))?.[1], base);
      if (url) out.push({ url, crop: cropOf(rule), scheme: dark || darkScope ? 'dark' : null });
      break;
    }
  }
  return out;
}

function backgroundRules(sheets: ParsedCss[], pageBase: string): { rule: CssRule; base: string }[] {
  return sheets
    .flatMap((sheet) => sheet.rules.map((rule) => ({ rule, base: sheet.url ?? pageBase })))
    .filter(({ rule }) => CSS_URL.test(background(rule)))
    .slice(0, MAX_RULES);
}

function background(rule: CssRule): string {
  return declaredValue(rule, 'background-image') ?? declaredValue(rule, 'background') ?? '';
}

function matches($: CheerioAPI, el: HtmlElement, selector: string): boolean {
  return matchesSelector($, el, selector);
}

/** A sprite box: pixel width and height plus a pixel background-position (negative offsets into the sheet). */
export function cropOf(rule: CssRule): SpriteCrop | null {
  const position = declaredValue(rule, 'background-position') ?? SHORTHAND_POSITION.exec(background(rule))?.slice(1).join(' ') ?? null;
  return spriteCrop(position, declaredValue(rule, 'width'), declaredValue(rule, 'height'));
}

function cropFromDeclarations(style: string): SpriteCrop | null {
  const value = (name: string) => new RegExp(`(?:^|;)\\s*${name}\\s*:\\s*([^;]+)`, 'i').exec(style)?.[1] ?? null;
  return spriteCrop(value('background-position'), value('width'), value('height'));
}

function spriteCrop(position: string | null, width: string | null, height: string | null): SpriteCrop | null {
  const px = (v: string | undefined | null) => (v && /^-?\d+(\.\d+)?(px)?$/.test(v.trim()) ? Number.parseFloat(v) : null);
  const [x, y] = (position ?? '').trim().split(/\s+/);
  const left = px(x);
  const top = px(y ?? '0');
  const w = px(width);
  const h = px(height);
  if (left === null || top === null || w === null || h === null || (left === 0 && top === 0) || w <= 0 || h <= 0) return null;
  return { left: Math.max(0, Math.round(-left)), top: Math.max(0, Math.round(-top)), width: Math.round(w), height: Math.round(h) };
}
