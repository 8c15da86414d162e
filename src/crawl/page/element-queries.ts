/**
 * Element tests and traversals over the parsed DOM, written to give exactly what the equivalent cheerio calls
 * give (css-select attribute semantics, cheerio's `closest`/`parents`/`text`), without a selector to parse and
 * compile per call and without a cheerio wrapper per element. Hot extractors use these; a selector string is
 * still fine where a call runs once per page.
 *
 * Attribute tests follow css-select 5: `[a="v" i]` compares lengths and lower-cased values; `[a*="v" i]` tests a
 * case-insensitive regex of the escaped value; `.c` and `#i` are case-sensitive (cheerio never sets quirks mode).
 */
import { isElement, pushChildren, type HtmlElement, type HtmlNode } from './element-index.js';

export type ElementTest = (el: HtmlElement) => boolean;

/** `tag`: names as the parser keeps them (HTML lower case; SVG camel case such as `foreignObject` stays). */
export function tagIs(...names: string[]): ElementTest {
  if (names.length === 1) {
    const [name] = names;
    return (el) => el.name === name;
  }
  const set = new Set(names);
  return (el) => set.has(el.name);
}

/** `a[href]`: a link. */
export const LINK: ElementTest = (el) => el.name === 'a' && el.attribs['href'] !== undefined;

/** `[name="value"]`, or `[name="value" i]` with `ignoreCase`. */
export function attrEquals(name: string, value: string, ignoreCase = false): ElementTest {
  if (!ignoreCase) return (el) => el.attribs[name] === value;
  const lower = value.toLowerCase();
  return (el) => {
    const attr = el.attribs[name];
    return attr !== undefined && attr.length === lower.length && attr.toLowerCase() === lower;
  };
}

/** `[name*="value"]`, or `[name*="value" i]` with `ignoreCase`. */
export function attrContains(name: string, value: string, ignoreCase = false): ElementTest {
  if (!ignoreCase) return (el) => el.attribs[name]?.includes(value) ?? false;
  const pattern = new RegExp(escapeRegex(value), 'i');
  return (el) => {
    const attr = el.attribs[name];
    return attr !== undefined && attr.length >= value.length && pattern.test(attr);
  };
}

/**
 * `[name*="a" i], [name*="b" i], ...` as one regex: an attribute contains one of the values exactly when the
 * alternation matches somewhere (each alternative is a literal, so a match is never shorter than its value).
 */
export function attrContainsAny(name: string, values: string[], ignoreCase = false): ElementTest {
  const pattern = new RegExp(values.map(escapeRegex).join('|'), ignoreCase ? 'i' : '');
  return (el) => {
    const attr = el.attribs[name];
    return attr !== undefined && pattern.test(attr);
  };
}

/** `[name^="value" i]` */
export function attrStartsWithIgnoreCase(name: string, value: string): ElementTest {
  const lower = value.toLowerCase();
  return (el) => {
    const attr = el.attribs[name];
    return attr !== undefined && attr.length >= lower.length && attr.substr(0, lower.length).toLowerCase() === lower;
  };
}

/** `[name~="word"]` (also `.word` for name `class`), or `[name~="word" i]` with `ignoreCase`. */
export function attrHasWord(name: string, word: string, ignoreCase = false): ElementTest {
  return attrHasAnyWord(name, [word], ignoreCase);
}

/** `.a, .b, ...` (or `[name~=...]`) as one regex: some whitespace-separated word is one of the words. */
export function attrHasAnyWord(name: string, words: string[], ignoreCase = false): ElementTest {
  // css-select: a word with whitespace in it never matches.
  const usable = words.filter((word) => !/\s/.test(word));
  if (usable.length === 0) return () => false;
  const pattern = new RegExp(`(?:^|\\s)(?:${usable.map(escapeRegex).join('|')})(?:$|\\s)`, ignoreCase ? 'i' : '');
  return (el) => {
    const attr = el.attribs[name];
    return attr !== undefined && pattern.test(attr);
  };
}

/** A selector list: any of the tests. */
export function anyOf(...tests: ElementTest[]): ElementTest {
  return (el) => {
    for (const test of tests) if (test(el)) return true;
    return false;
  };
}

/** css-select's escaping of a value inside its regexes. */
function escapeRegex(value: string): string {
  return value.replace(/[-[\]{}()*+?.,\\^$|#\s]/g, '\\$&');
}

/** The descendant combinator: some ancestor element passes (`ancestor el`); like css-select, up to the document. */
export function hasAncestor(el: HtmlElement, test: ElementTest): boolean {
  for (let node = el.parent; isElement(node); node = node.parent) {
    if (test(node)) return true;
  }
  return false;
}

/** cheerio `closest`: the element itself or its nearest ancestor element that passes. */
export function closest(el: HtmlElement, test: ElementTest): HtmlElement | null {
  for (let node: HtmlElement['parent'] = el; isElement(node); node = node.parent) {
    if (test(node)) return node;
  }
  return null;
}

/** cheerio `parents()`: the ancestors up to (not including) the document, nearest first. */
export function parentsOf(el: HtmlElement): HtmlElement[] {
  const out: HtmlElement[] = [];
  for (let node = el.parent; node && node.type !== 'root'; node = node.parent) {
    if (isElement(node)) out.push(node);
  }
  return out;
}

/** cheerio `parent()` of one element: null for a child of the document. */
export function parentOf(el: HtmlElement): HtmlElement | null {
  return isElement(el.parent) ? el.parent : null;
}

/** cheerio `children()`: the child elements. */
export function childElements(el: HtmlElement): HtmlElement[] {
  return el.children.filter(isElement);
}

/**
 * cheerio `find(selector)` from one element: the descendants that pass, in document order. The search starts
 * from the element's child elements. Whether it enters <template> content depends, as in css-select, on the
 * element: below an element whose parent is an element, a match must be linked to it by element parents (so
 * template content is out); below the root element or a template fragment's top element, anything goes.
 */
export function findIn(el: HtmlElement, test: ElementTest): HtmlElement[] {
  const out: HtmlElement[] = [];
  const throughTemplates = !isElement(el.parent);
  const stack: HtmlNode[] = el.children.filter(isElement).reverse();
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (isElement(node)) {
      if (test(node)) out.push(node);
      pushChildren(stack, node);
    } else if (throughTemplates) pushChildren(stack, node);
  }
  return out;
}

/** cheerio `text()` of one node (domutils textContent: every text node below it, <script> and <style> included). */
export function textOf(node: HtmlNode): string {
  if (node.type === 'text') return node.data;
  if (node.type === 'comment' || !('children' in node)) return '';
  let text = '';
  for (const child of node.children) text += textOf(child);
  return text;
}

/** cheerio `$(selector).attr(name)`: the attribute of the first element that passes (not the first that has it). */
export function firstAttr(elements: readonly HtmlElement[], test: ElementTest, name: string): string | undefined {
  return elements.find(test)?.attribs[name];
}

/** cheerio `.text()` of a selection: the texts of all its elements, concatenated. */
export function textOfAll(elements: readonly HtmlElement[]): string {
  let text = '';
  for (const el of elements) text += textOf(el);
  return text;
}
