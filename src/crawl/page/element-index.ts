/**
 * One walk over a parsed page's elements, shared by every extractor: the elements in document order, exactly
 * the ones a `$(selector)` query scans (domutils' findAll, which also descends into a <template>'s content
 * fragment), and the elements per tag name. Every `$(selector)` call parses and compiles its
 * selector and walks the whole tree again; dozens of them per page were most of the extraction time.
 * The page's DOM is never modified after parsing (extractors that edit markup work on clones), so the index is
 * built once per document and cached.
 */
import type { CheerioAPI } from 'cheerio';

/**
 * Only here to name the element type cheerio selections hold, so extractors need not import domhandler (a tag
 * selector types the selection as elements; `*` would type it as any node).
 */
const _firstElement = ($: CheerioAPI) => $('a').get(0);
export type HtmlElement = NonNullable<ReturnType<typeof _firstElement>>;
/** Any node of the tree: element, text, comment, document... */
export type HtmlNode = HtmlElement['children'][number];

export interface ElementIndex {
  /** Every element in document order. */
  all: readonly HtmlElement[];
  /** The elements with this (lower-case) tag name, in document order. */
  byTag(name: string): readonly HtmlElement[];
}

const NONE: readonly HtmlElement[] = [];
const cache = new WeakMap<CheerioAPI, ElementIndex>();

export function elementIndex($: CheerioAPI): ElementIndex {
  let index = cache.get($);
  if (!index) {
    // `_root` is the loaded document (typed on CheerioAPI); `$.root()` would build a cheerio wrapper first.
    index = buildIndex($._root.children);
    cache.set($, index);
  }
  return index;
}

/** domhandler's isTag: <script> and <style> are elements with their own node types. */
export function isElement(node: HtmlNode | HtmlElement['parent']): node is HtmlElement {
  return node !== null && (node.type === 'tag' || node.type === 'script' || node.type === 'style');
}

/** Pre-order, with an explicit stack: real pages can nest deeper than the call stack allows. */
function buildIndex(roots: readonly HtmlNode[]): ElementIndex {
  const all: HtmlElement[] = [];
  const tags = new Map<string, HtmlElement[]>();
  const stack: HtmlNode[] = [...roots].reverse();
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (isElement(node)) {
      all.push(node);
      const list = tags.get(node.name);
      if (list) list.push(node);
      else tags.set(node.name, [node]);
    }
    pushChildren(stack, node);
  }
  return { all, byTag: (name) => tags.get(name) ?? NONE };
}

/** Pushes a node's children (any node that has them: elements and template content fragments) in reverse. */
export function pushChildren(stack: HtmlNode[], node: HtmlNode): void {
  if (!('children' in node)) return;
  for (let i = node.children.length - 1; i >= 0; i -= 1) {
    const child = node.children[i];
    if (child) stack.push(child);
  }
}
