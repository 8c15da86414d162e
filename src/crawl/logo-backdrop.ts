/**
 * The colour a mark sits on (extraction notes 1.4, context test): the nearest ancestor whose inline style or a
 * plain stylesheet rule paints a background colour. A dark backdrop means the mark is meant for dark
 * backgrounds (`light`), a light one the opposite. Used only when the file's own pixels are ambiguous (a
 * mid-tone multi-colour mark), and null when no ancestor declares a background (the page default is not
 * assumed: many sites set it on a wrapper we cannot see without rendering).
 */
import { lightness, parseCssColor } from '../domain/color-math.js';
import type { HtmlElement, HtmlPage } from './html-page.js';
import { declaredValue, splitSelectors, type CssRule } from './parse-css.js';

const MAX_RULES = 1000;
const MAX_ANCESTORS = 8;
const DARK_BELOW = 0.5;
const LIGHT_ABOVE = 0.8;

export function backdropTheme(page: HtmlPage, el: HtmlElement, rules: CssRule[]): 'dark' | 'light' | null {
  const painted = rules.filter((r) => !r.media && backgroundColor(r) !== null).slice(-MAX_RULES);
  for (const node of page.$(el).parents().toArray().slice(0, MAX_ANCESTORS)) {
    const color = inlineBackground(page.$(node).attr('style')) ?? ruleBackground(page, node, painted);
    if (!color) continue;
    const l = lightness(color);
    if (l < DARK_BELOW) return 'light';
    return l > LIGHT_ABOVE ? 'dark' : null;
  }
  return null;
}

function inlineBackground(style: string | undefined): string | null {
  const value = /(?:^|;)\s*background(?:-color)?\s*:\s*([^;]+)/i.exec(style ?? '')?.[1];
  return value ? firstColor(value) : null;
}

function backgroundColor(rule: CssRule): string | null {
  const value = declaredValue(rule, 'background-color') ?? declaredValue(rule, 'background');
  return value ? firstColor(value) : null;
}

/** The colour token of a `background` shorthand (`#111 url(x) no-repeat` → #111111). */
function firstColor(value: string): string | null {
  const whole = parseCssColor(value.replace(/\s*!important$/i, ''));
  if (whole) return whole;
  for (const token of value.replace(/url\([^)]*\)/gi, ' ').match(/#[0-9a-f]{3,8}\b|(?:rgb|hsl|oklch|oklab|lab|lch|hwb)a?\([^)]*\)|\b[a-z]+\b/gi) ?? []) {
    const color = parseCssColor(token);
    if (color) return color;
  }
  return null;
}

/** Last matching rule wins (a cascade approximation that ignores specificity, like inline-svg.ts). */
function ruleBackground(page: HtmlPage, node: HtmlElement, rules: CssRule[]): string | null {
  let found: string | null = null;
  for (const rule of rules) {
    const selectors = splitSelectors(rule.selector).filter((s) => !/:|::/.test(s));
    if (selectors.some((s) => matches(page, node, s))) found = backgroundColor(rule);
  }
  return found;
}

function matches(page: HtmlPage, node: HtmlElement, selector: string): boolean {
  try {
    return page.$(node).is(selector);
  } catch {
    return false;
  }
}
