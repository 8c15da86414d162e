/**
 * The colour a mark sits on (extraction notes 1.4, context test): the nearest ancestor whose inline style or a
 * plain stylesheet rule paints a background colour. A dark backdrop means the mark is meant for dark
 * backgrounds (`light`), a light one the opposite. Used only when the file's own pixels are ambiguous (a
 * mid-tone multi-colour mark), and null when no ancestor declares a background (the page default is not
 * assumed: many sites set it on a wrapper we cannot see without rendering).
 */
import { lightness, parseCssColor } from '../../../domain/color-math.js';
import { parentsOf } from '../../page/element-queries.js';
import { matchesSelector } from '../../page/selector-match.js';
import type { HtmlElement, HtmlPage } from '../../page/html-page.js';
import { declaredValue, ruleSelectors, type CssRule } from '../../page/parse-css.js';

const MAX_RULES = 1000;
const MAX_ANCESTORS = 8;
const DARK_BELOW = 0.5;
const LIGHT_ABOVE = 0.8;

export function backdropTheme(page: HtmlPage, el: HtmlElement, rules: CssRule[]): 'dark' | 'light' | null {
  const painted = paintedRules(rules);
  for (const node of parentsOf(el).slice(0, MAX_ANCESTORS)) {
    const color = inlineBackground(node.attribs['style']) ?? ruleBackground(page, node, painted);
    if (!color) continue;
    const l = lightness(color);
    if (l < DARK_BELOW) return 'light';
    return l > LIGHT_ABOVE ? 'dark' : null;
  }
  return null;
}

interface PaintedRule {
  color: string;
  /** Selectors without pseudo-classes: a static match cannot tell :hover from the resting state. */
  selectors: string[];
}

/** Per rule list (one per crawl, shared by its mark candidates): colour parsing of every rule is not per call. */
const paintedCache = new WeakMap<CssRule[], PaintedRule[]>();

/** Plain rules that paint a background colour, the last MAX_RULES of them. */
function paintedRules(rules: CssRule[]): PaintedRule[] {
  let painted = paintedCache.get(rules);
  if (!painted) {
    painted = rules
      .filter((r) => !r.media && backgroundColor(r) !== null)
      .slice(-MAX_RULES)
      .map((r) => ({ color: backgroundColor(r) ?? '', selectors: ruleSelectors(r).filter((s) => !/:|::/.test(s)) }));
    paintedCache.set(rules, painted);
  }
  return painted;
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
function ruleBackground(page: HtmlPage, node: HtmlElement, rules: PaintedRule[]): string | null {
  let found: string | null = null;
  for (const rule of rules) {
    if (rule.selectors.some((s) => matches(page, node, s))) found = rule.color;
  }
  return found;
}

function matches(page: HtmlPage, node: HtmlElement, selector: string): boolean {
  return matchesSelector(page.$, node, selector);
}
