/**
 * Turns an inline <svg> of the page into a standalone SVG file: namespaces added, `<use href="#id">` targets
 * defined elsewhere in the page copied in, and `currentColor` baked into the colour the page gives the element
 * (its own or an ancestor's `color`, from attributes, inline styles or simple CSS rules), else #000000, which is
 * what a browser would paint with no colour set. SVGs that embed rasters or foreign content are refused: they
 * are sprites or illustrations, not marks.
 */
import { elementIndex, isElement } from '../../page/element-index.js';
import { findIn, parentsOf, tagIs, type ElementTest } from '../../page/element-queries.js';
import { cleanText, type HtmlElement, type HtmlPage } from '../../page/html-page.js';
import { parseCssColor } from '../../../domain/color-math.js';
import type { CssRule } from '../../page/parse-css.js';
import { declaredValue, ruleSelectors } from '../../page/parse-css.js';
import { matchesSelector } from '../../page/selector-match.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';
const MAX_SVG_CHARS = 512 * 1024;

export function serializeInlineSvg(page: HtmlPage, el: HtmlElement, rules: CssRule[] = []): string | null {
  const { $ } = page;
  const clone = $(el).clone();
  // The HTML parser keeps SVG's camel-case element names (<foreignObject>), so names are compared lower-cased.
  if (findIn(rootOf(clone), EMBEDDED).length > 0) return null;
  inlineLoneSymbol(page, clone);
  inlineUseTargets(page, clone);
  if (!clone.attr('xmlns')) clone.attr('xmlns', SVG_NS);
  let markup = $.html(clone);
  if (/xlink:/i.test(markup) && !/xmlns:xlink/i.test(markup)) markup = markup.replace(/^<svg/i, `<svg xmlns:xlink="${XLINK_NS}"`);
  if (markup.length > MAX_SVG_CHARS || !/<(path|rect|circle|ellipse|polygon|polyline|line|text|use)\b/i.test(markup)) return null;
  const color = currentColorOf(page, el, rules) ?? '#000000';
  // HTML serialisation may emit named entities XML does not know.
  return markup.replace(/currentcolor/gi, color).replace(/&nbsp;/g, '&#160;');
}

/**
 * The icon-sprite pattern `<svg width=…><use href="#logo"/></svg>` with `<symbol id="logo" viewBox=…>` elsewhere
 * in the page: a browser scales the symbol into the outer box, but a standalone file with a bare <use> of a
 * symbol renders empty in most rasterizers. The symbol's drawing and viewBox are moved into the root instead.
 */
function inlineLoneSymbol(page: HtmlPage, clone: ReturnType<HtmlPage['$']>): void {
  const { $ } = page;
  const drawn = clone.children().filter((_, child) => !/^(title|desc)$/i.test(child.tagName));
  if (drawn.length !== 1 || drawn[0]?.tagName.toLowerCase() !== 'use') return;
  const use = drawn.first();
  const href = (use.attr('href') ?? use.attr('xlink:href') ?? '').trim();
  // `$('symbol[id="…"]').first()`
  const symbolElement = href.startsWith('#') ? elementIndex($).byTag('symbol').find(idIs(href.slice(1))) : undefined;
  if (!symbolElement) return;
  const symbol = $(symbolElement);
  const viewBox = symbol.attr('viewBox') ?? symbol.attr('viewbox');
  if (viewBox && !clone.attr('viewBox') && !clone.attr('viewbox')) clone.attr('viewBox', viewBox);
  for (const side of ['width', 'height']) if (!clone.attr(side) && use.attr(side)) clone.attr(side, use.attr(side) ?? '');
  use.replaceWith(symbol.html() ?? '');
}

function inlineUseTargets(page: HtmlPage, clone: ReturnType<HtmlPage['$']>): void {
  const { $ } = page;
  const root = rootOf(clone);
  const missing = findIn(root, USE)
    .map((use) => (use.attribs['href'] ?? use.attribs['xlink:href'] ?? '').trim())
    .filter((href) => href.startsWith('#') && findIn(root, idIs(href.slice(1))).length === 0);
  // `$('[id="…"]').first()` for each
  const all = elementIndex($).all;
  const defs = [...new Set(missing)]
    .map((href) => all.find(idIs(href.slice(1))))
    .filter((target): target is HtmlElement => target !== undefined)
    .map((target) => $.html($(target)))
    .join('');
  if (defs) clone.prepend(`<defs>${defs}</defs>`);
}

const EMBEDDED: ElementTest = (el) => el.name === 'image' || el.name.toLowerCase() === 'foreignobject';
const USE = tagIs('use');

/** `[id="…"]`: a case-sensitive comparison of the whole id. */
function idIs(id: string): ElementTest {
  return (el) => el.attribs['id'] === id;
}

/** The cloned <svg> element itself (a clone of one element is one detached element). */
function rootOf(clone: ReturnType<HtmlPage['$']>): HtmlElement {
  const root = clone[0];
  if (!root || !isElement(root)) throw new Error('the clone of an element is an element');
  return root;
}

/** The `color` in effect on the element: nearest declaration on it or its ancestors wins. */
export function currentColorOf(page: HtmlPage, el: HtmlElement, rules: CssRule[]): string | null {
  const colorRules = colorRulesOf(rules);
  const chain = [el, ...parentsOf(el)];
  for (const node of chain) {
    const inline = /(?:^|;)\s*color\s*:\s*([^;]+)/i.exec(node.attribs['style'] ?? '')?.[1];
    const declared = inline ?? node.attribs['color'] ?? ruleColor(page, node, colorRules);
    const hex = declared ? parseCssColor(cleanText(declared).replace(/\s*!important$/i, '')) : null;
    if (hex) return hex;
  }
  return null;
}

const colorRulesCache = new WeakMap<CssRule[], CssRule[]>();

/**
 * Only plain (non-media) rules that set `color`, and at most the last 2000: bounded work on hostile CSS. Once per
 * rule list (one per crawl, shared by the page's inline SVGs).
 */
function colorRulesOf(rules: CssRule[]): CssRule[] {
  let colorRules = colorRulesCache.get(rules);
  if (!colorRules) {
    colorRules = rules.filter((r) => !r.media && declaredValue(r, 'color') !== null).slice(-2000);
    colorRulesCache.set(rules, colorRules);
  }
  return colorRules;
}

/** Last matching rule with a `color` wins (a cascade approximation that ignores specificity). */
function ruleColor(page: HtmlPage, node: HtmlElement, rules: CssRule[]): string | null {
  let found: string | null = null;
  for (const rule of rules) {
    const color = declaredValue(rule, 'color');
    if (!color) continue;
    const selectors = ruleSelectors(rule).filter((s) => !/:|::/.test(s));
    if (selectors.some((s) => safeIs(page, node, s))) found = color;
  }
  return found;
}

function safeIs(page: HtmlPage, node: HtmlElement, selector: string): boolean {
  return matchesSelector(page.$, node, selector);
}
