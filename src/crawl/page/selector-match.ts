/**
 * `$(el).is(selector)` for selectors taken from stylesheets, matched against one element at a time (logo
 * backgrounds, backdrops, currentColor). cheerio parses and compiles the selector on every call; nearly all
 * stylesheet selectors are plain compounds (type or `*`, classes, ids, attribute tests) joined by descendant or
 * child combinators, and those are compiled here once and cached, with css-select's semantics: the type
 * lower-cased and compared with the element name, `.c` a case-sensitive class word, `#i` a case-sensitive id,
 * attribute names lower-cased and values compared case-insensitively for HTML's case-insensitive attributes,
 * combinators walking up through elements only. Anything else (pseudo-classes, sibling combinators, escapes,
 * flags, empty or spaced values, non-ASCII, other whitespace) goes to cheerio as before.
 */
import type { CheerioAPI } from 'cheerio';
import { isElement, type HtmlElement } from './element-index.js';
import { attrContains, attrEquals, attrHasWord, type ElementTest } from './element-queries.js';

/** True when `el` matches `selector`; false for a selector cheerio cannot parse. */
export function matchesSelector($: CheerioAPI, el: HtmlElement, selector: string): boolean {
  const compiled = compiledSelector(selector);
  if (compiled) return compiled(el);
  try {
    return $(el).is(selector);
  } catch {
    return false;
  }
}

const MAX_CACHED = 20_000;
const cache = new Map<string, ElementTest | null>();

function compiledSelector(selector: string): ElementTest | null {
  let compiled = cache.get(selector);
  if (compiled === undefined) {
    if (cache.size >= MAX_CACHED) cache.clear();
    compiled = compileSimpleSelector(selector);
    cache.set(selector, compiled);
  }
  return compiled;
}

/** Quoted values: printable ASCII without quotes, backslashes, spaces, `>` or brackets (no escapes to undo). */
const QUOTED = String.raw`[\x21\x23-\x26\x28-\x3d\x3f-\x5a\x5e-\x7e]+`;
const ATTRIBUTE = String.raw`\[[\w-]+(?:[~^$*|]?=(?:[\w-]+|"${QUOTED}"|'${QUOTED}'))?\]`;
const COMPOUND = String.raw`(?:[\w-]+|\*)?(?:[.#][\w-]+|${ATTRIBUTE})*`;
/** `compound (combinator compound)*` with ASCII identifiers; spaces only, none leading or trailing. */
const SIMPLE = new RegExp(String.raw`^${COMPOUND}(?:(?: *> *| +)${COMPOUND})*$`);
const PART = new RegExp(String.raw`(\*)|([.#]?)([\w-]+)|\[([\w-]+)(?:([~^$*|]?=)(?:([\w-]+)|"([^"]+)"|'([^']+)'))?\]`, 'g');

/** The matcher for a simple selector, or null when the selector is outside the simple grammar. */
export function compileSimpleSelector(selector: string): ElementTest | null {
  if (!SIMPLE.test(selector)) return null;
  // Compounds and the combinators between them, right to left as css-select evaluates them.
  const tokens = selector.split(/( *> *| +)/);
  const compounds = tokens.filter((_, i) => i % 2 === 0).map(compileCompound);
  const combinators = tokens.filter((_, i) => i % 2 === 1).map((c) => (c.includes('>') ? 'child' : 'descendant'));
  if (compounds.some((c) => c === null)) return null;
  const tests = compounds as ElementTest[];
  return (el) => matchFrom(el, tests, combinators, tests.length - 1);
}

function matchFrom(el: HtmlElement, tests: ElementTest[], combinators: string[], index: number): boolean {
  if (!tests[index]?.(el)) return false;
  if (index === 0) return true;
  if (combinators[index - 1] === 'child') {
    const parent = el.parent;
    return isElement(parent) && matchFrom(parent, tests, combinators, index - 1);
  }
  for (let node = el.parent; isElement(node); node = node.parent) {
    if (matchFrom(node, tests, combinators, index - 1)) return true;
  }
  return false;
}

/** `tag.class#id[attr]`, `*.class`...: at least one part; a type or `*`, when present, first. */
function compileCompound(compound: string): ElementTest | null {
  const tests: ElementTest[] = [];
  let parts = 0;
  for (const [, star, kind, name = '', attribute, operator, ...values] of compound.matchAll(PART)) {
    const first = parts === 0;
    parts += 1;
    if (star) {
      if (!first) return null;
    } else if (attribute) {
      tests.push(attributeTest(attribute, operator, values.find((v) => v !== undefined) ?? ''));
    } else if (kind === '.') tests.push(attrHasWord('class', name));
    else if (kind === '#') tests.push((el) => el.attribs['id'] === name);
    else if (first) {
      const tag = name.toLowerCase();
      tests.push((el) => el.name === tag);
    } else return null;
  }
  if (parts === 0) return null;
  return (el) => tests.every((test) => test(el));
}

/** HTML attributes whose values css-select compares case-insensitively unless the selector says otherwise. */
const CASE_INSENSITIVE_ATTRIBUTES = new Set([
  'accept', 'accept-charset', 'align', 'alink', 'axis', 'bgcolor', 'charset', 'checked', 'clear', 'codetype', 'color',
  'compact', 'declare', 'defer', 'dir', 'direction', 'disabled', 'enctype', 'face', 'frame', 'hreflang', 'http-equiv',
  'lang', 'language', 'link', 'media', 'method', 'multiple', 'nohref', 'noresize', 'noshade', 'nowrap', 'readonly',
  'rel', 'rev', 'rules', 'scope', 'scrolling', 'selected', 'shape', 'target', 'text', 'type', 'valign', 'valuetype',
  'vlink',
]);

/** `[a]`, `[a=v]`, `[a~=v]`, `[a*=v]`, `[a^=v]`, `[a$=v]`, `[a|=v]` as css-select compiles them (no flag given). */
function attributeTest(rawName: string, operator: string | undefined, value: string): ElementTest {
  const name = rawName.toLowerCase();
  if (operator === undefined) return (el) => el.attribs[name] !== undefined;
  const ignoreCase = CASE_INSENSITIVE_ATTRIBUTES.has(name);
  if (operator === '=') return attrEquals(name, value, ignoreCase);
  if (operator === '~=') return attrHasWord(name, value, ignoreCase);
  if (operator === '*=') return attrContains(name, value, ignoreCase);
  const wanted = ignoreCase ? value.toLowerCase() : value;
  const fold = ignoreCase ? (text: string) => text.toLowerCase() : (text: string) => text;
  // css-select measures the value before lower-casing it.
  const length = value.length;
  if (operator === '^=') return (el) => hasValue(el, name, (attr) => attr.length >= length && fold(attr.substr(0, length)) === wanted);
  if (operator === '$=') return (el) => hasValue(el, name, (attr) => fold(attr.substr(-length)) === wanted);
  // `|=`: the value, or the value followed by a hyphen.
  return (el) => hasValue(el, name, (attr) => (attr.length === length || attr.charAt(length) === '-') && fold(attr.substr(0, length)) === wanted);
}

function hasValue(el: HtmlElement, name: string, test: (attr: string) => boolean): boolean {
  const attr = el.attribs[name];
  return attr !== undefined && test(attr);
}
