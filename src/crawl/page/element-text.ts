/**
 * An element's visible text, whitespace condensed (`cleanText($(el).text())`), computed once per element: the
 * description, about text, industry text, company text and legal-name extractors read the same paragraphs and
 * blocks of the same pages.
 */
import type { HtmlElement } from './element-index.js';
import { textOf } from './element-queries.js';
import { cleanText } from './html-page.js';

const cache = new WeakMap<HtmlElement, string>();

export function elementText(el: HtmlElement): string {
  let text = cache.get(el);
  if (text === undefined) {
    text = cleanText(textOf(el));
    cache.set(el, text);
  }
  return text;
}
