/**
 * Where a page's elements sit, for judging logo and picture candidates, without a selector query (`closest`,
 * `find`) per candidate, each answer worked out once per page on first use:
 *   excluded  the element or an ancestor is a consent/cookie banner, a dialog, a modal or a button;
 *   header    the element or an ancestor is the header or navigation;
 *   marks     how many marks sit below an element: <img> and <svg> not inside another <svg> (logo walls);
 *   images    whether any <img> or <svg> sits below an element.
 */
import type { CheerioAPI } from 'cheerio';
import { elementIndex, isElement, type HtmlElement, type HtmlNode } from './element-index.js';
import { anyOf, attrContainsAny, attrEquals, attrHasAnyWord, closest, findIn, tagIs, type ElementTest } from './element-queries.js';

export interface PageZones {
  /** `new Set($(EXCLUDED).find('*').addBack()).has(el)` */
  isExcluded(el: HtmlElement): boolean;
  /** `new Set($(HEADER).find('*').addBack()).has(el)` */
  inHeader(el: HtmlElement): boolean;
  /** `$(el).find('img, svg').filter((_, m) => $(m).parents('svg').length === 0).length` */
  marksBelow(el: HtmlElement): number;
  /** `$(el).find('img, svg').length > 0` */
  hasImageBelow(el: HtmlElement): boolean;
}

/**
 * `[class*="cookie" i], [id*="cookie" i], [class*="consent" i], [id*="consent" i], [class*="gdpr" i],
 * [role="dialog"], [aria-modal="true"], dialog, [class*="modal" i], [id*="onetrust" i], button`
 */
const EXCLUDED = anyOf(
  tagIs('dialog', 'button'),
  attrEquals('role', 'dialog'),
  attrEquals('aria-modal', 'true'),
  attrContainsAny('class', ['cookie', 'consent', 'gdpr', 'modal'], true),
  attrContainsAny('id', ['cookie', 'consent', 'onetrust'], true),
);
/** `header, [role="banner"], .header, #header, .site-header, .navbar, nav` */
const HEADER = anyOf(
  tagIs('header', 'nav'),
  attrEquals('role', 'banner'),
  attrHasAnyWord('class', ['header', 'site-header', 'navbar']),
  attrEquals('id', 'header'),
);
const IMAGE = tagIs('img', 'svg');

const cache = new WeakMap<CheerioAPI, PageZones>();

export function pageZones($: CheerioAPI): PageZones {
  let zones = cache.get($);
  if (!zones) {
    const { all } = elementIndex($);
    const marks = once(() => belowCounts(all, markCounter(all)));
    const images = once(() => belowCounts(all, IMAGE));
    zones = {
      isExcluded: zoneTest($, EXCLUDED),
      inHeader: zoneTest($, HEADER),
      marksBelow: (el) => marks()(el),
      hasImageBelow: (el) => images()(el) > 0,
    };
    cache.set($, zones);
  }
  return zones;
}

function once<T>(compute: () => T): () => T {
  let value: { v: T } | null = null;
  return () => (value ??= { v: compute() }).v;
}

/**
 * Membership in `new Set($(selector).find('*').addBack())`. css-select scopes that find to the matches when
 * every match has an element parent: then an element belongs exactly when it or an element ancestor (up to a
 * template fragment) matches, which is `closest`. Only the root element and a template fragment's top elements
 * have no element parent; when one of them matches, the find is unscoped and the members are collected once.
 */
function zoneTest($: CheerioAPI, test: ElementTest): (el: HtmlElement) => boolean {
  const { all } = elementIndex($);
  let scoped: boolean | null = null;
  let members: Set<HtmlElement> | null = null;
  return (el) => {
    scoped ??= !all.some((e) => !isElement(e.parent) && test(e));
    if (scoped) return closest(el, test) !== null;
    members ??= unscopedMembers($._root.children, new Set(all.filter(test)));
    return members.has(el);
  };
}

/** Everything below a match's child elements, through template content fragments too, plus the matches. */
function unscopedMembers(roots: readonly HtmlNode[], matched: ReadonlySet<HtmlElement>): Set<HtmlElement> {
  const members = new Set<HtmlElement>();
  const stack = roots.map((node) => ({ node, inside: false })).reverse();
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    const { node, inside } = frame;
    if (!('children' in node)) continue;
    const self = isElement(node) && matched.has(node);
    if (isElement(node) && (self || inside)) members.add(node);
    for (let i = node.children.length - 1; i >= 0; i -= 1) {
      const child = node.children[i];
      // A match's own template fragment is not below its child elements.
      if (child) stack.push({ node: child, inside: inside || (self && isElement(child)) });
    }
  }
  return members;
}

/** Marks for isInLogoWall: <img> and <svg> that are not inside an <svg> (`parents('svg')`, up to a fragment). */
function markCounter(all: readonly HtmlElement[]): ElementTest {
  const inSvg = new Set<HtmlElement>();
  // Document order visits a parent element before its children.
  for (const el of all) {
    if (isElement(el.parent) && (el.parent.name === 'svg' || inSvg.has(el.parent))) inSvg.add(el);
  }
  return (el) => IMAGE(el) && !inSvg.has(el);
}

/**
 * How many elements passing `counts` `$(el).find(...)` reaches from each element. Below an element with an
 * element parent that is its element descendants (findIn), summed for all elements in one pass in reverse
 * document order; below the root element or a fragment's top element the find also enters template content,
 * and those few are counted on demand.
 */
function belowCounts(all: readonly HtmlElement[], counts: ElementTest): (el: HtmlElement) => number {
  const linked = new Map<HtmlElement, number>();
  for (let i = all.length - 1; i >= 0; i -= 1) {
    const el = all[i];
    if (!el || !isElement(el.parent)) continue;
    const total = (linked.get(el) ?? 0) + (counts(el) ? 1 : 0);
    if (total > 0) linked.set(el.parent, (linked.get(el.parent) ?? 0) + total);
  }
  return (el) => (isElement(el.parent) ? (linked.get(el) ?? 0) : findIn(el, counts).length);
}
