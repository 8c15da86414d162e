/**
 * The colour a mark sits on (extraction notes 1.4, context test): the nearest ancestor whose inline style, a
 * plain stylesheet rule or a legacy `bgcolor` attribute paints a background colour, up to the root. A dark
 * backdrop means the mark is meant for dark backgrounds (`light`), a light one the opposite. It decides the
 * theme of a mark on transparency when the mark stands out from it (logos.ts, media/logo-theme.ts), and is null
 * when no ancestor declares a background (the page default is not assumed: many sites set it on a wrapper we
 * cannot see without rendering).
 */
import { lightness, parseCssColor } from '../../../domain/color-math.js';
import { parentsOf } from '../../page/element-queries.js';
import { matchesSelector } from '../../page/selector-match.js';
import type { HtmlElement, HtmlPage } from '../../page/html-page.js';
import { declaredValue, ruleSelectors, type CssRule } from '../../page/parse-css.js';
import { resolveVariables, type CssVariables } from '../../page/css-variables.js';

const MAX_RULES = 1000;
/** Every ancestor up to the root of any real page; bounded because a hostile page can nest without end. */
const MAX_ANCESTORS = 40;
const DARK_BELOW = 0.5;
const LIGHT_ABOVE = 0.8;

export function backdropTheme(page: HtmlPage, el: HtmlElement, rules: CssRule[], vars: CssVariables = NO_VARIABLES): 'dark' | 'light' | null {
  const color = backdropColor(page, el, rules, vars);
  if (!color) return null;
  const l = lightness(color);
  if (l < DARK_BELOW) return 'light';
  return l > LIGHT_ABOVE ? 'dark' : null;
}

const NO_VARIABLES: CssVariables = new Map();

/**
 * The nearest painted background behind `el` as #rrggbb, or null when none is declared. `vars`: the page's root
 * custom properties (css-variables.ts), for backgrounds painted with a token (`background: var(--surface)`).
 */
export function backdropColor(page: HtmlPage, el: HtmlElement, rules: CssRule[], vars: CssVariables = NO_VARIABLES): string | null {
  const painted = paintedRules(rules, vars);
  for (const node of parentsOf(el).slice(0, MAX_ANCESTORS)) {
    const color = inlineBackground(node.attribs['style'], vars) ?? ruleBackground(page, node, painted) ?? attributeBackground(node.attribs['bgcolor']);
    if (color) return color;
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
function paintedRules(rules: CssRule[], vars: CssVariables): PaintedRule[] {
  let painted = paintedCache.get(rules);
  if (!painted) {
    painted = rules
      .filter((r) => !r.media && backgroundColor(r, vars) !== null)
      .slice(-MAX_RULES)
      .map((r) => ({ color: backgroundColor(r, vars) ?? '', selectors: ruleSelectors(r).filter((s) => !/:|::/.test(s)) }));
    paintedCache.set(rules, painted);
  }
  return painted;
}

function inlineBackground(style: string | undefined, vars: CssVariables): string | null {
  const value = /(?:^|;)\s*background(?:-color)?\s*:\s*([^;]+)/i.exec(style ?? '')?.[1];
  return value ? firstColor(resolveVariables(value, vars)) : null;
}

function attributeBackground(value: string | undefined): string | null {
  return value ? parseCssColor(value) : null;
}

function backgroundColor(rule: CssRule, vars: CssVariables): string | null {
  const value = declaredValue(rule, 'background-color') ?? declaredValue(rule, 'background');
  return value ? firstColor(resolveVariables(value, vars)) : null;
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
