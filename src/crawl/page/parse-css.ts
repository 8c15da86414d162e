/**
 * CSS reduced to what the extractors read: style rules (selector, declarations, enclosing @media), @font-face
 * blocks and @import URLs. css-tree parses tolerantly (a broken rule becomes a Raw node, the rest survives);
 * values stay raw text because the extractors parse colours and font stacks themselves.
 */
import { generate, parse, type CssNode } from 'css-tree';

export interface CssDeclaration {
  property: string;
  value: string;
  important: boolean;
}

export interface CssRule {
  selector: string;
  declarations: CssDeclaration[];
  /** Prelude of the enclosing conditional at-rule (`@media (prefers-color-scheme: dark)`), else null. */
  media: string | null;
}

export interface ParsedCss {
  /** Stylesheet URL, for resolving url(); null for inline <style>. */
  url: string | null;
  rules: CssRule[];
  fontFaces: CssDeclaration[][];
  /** Raw @import targets (unresolved). */
  imports: string[];
}

/** A hostile stylesheet cannot make the extractors walk more than this many rules. */
const MAX_RULES = 20_000;
const CONDITIONAL_AT_RULES = new Set(['media', 'supports', 'layer', 'container', 'document', '-moz-document']);

export function parseCss(text: string, url: string | null): ParsedCss {
  const out: ParsedCss = { url, rules: [], fontFaces: [], imports: [] };
  let ast: CssNode;
  try {
    ast = parse(text, {
      parseValue: false,
      parseRulePrelude: false,
      parseAtrulePrelude: false,
      parseCustomProperty: false,
      onParseError: () => undefined,
    });
  } catch {
    return out;
  }
  visit(ast, null, out);
  return out;
}

function visit(node: CssNode, media: string | null, out: ParsedCss): void {
  if (out.rules.length >= MAX_RULES) return;
  if (node.type === 'StyleSheet' || node.type === 'Block') {
    node.children.forEach((child) => visit(child, media, out));
  } else if (node.type === 'Rule') {
    out.rules.push({ selector: text(node.prelude), declarations: declarations(node.block), media });
  } else if (node.type === 'Atrule') {
    visitAtrule(node, media, out);
  }
}

function visitAtrule(node: Extract<CssNode, { type: 'Atrule' }>, media: string | null, out: ParsedCss): void {
  const name = node.name.toLowerCase();
  const prelude = node.prelude ? text(node.prelude) : '';
  if (name === 'import') {
    const target = /url\(\s*["']?([^"')]+)["']?\s*\)|["']([^"']+)["']/i.exec(prelude);
    const href = target?.[1] ?? target?.[2];
    if (href) out.imports.push(href.trim());
  } else if (name === 'font-face' && node.block) {
    out.fontFaces.push(declarations(node.block));
  } else if (CONDITIONAL_AT_RULES.has(name) && node.block) {
    visit(node.block, name === 'media' ? prelude : media, out);
  }
}

function declarations(block: CssNode): CssDeclaration[] {
  if (block.type !== 'Block') return [];
  const list: CssDeclaration[] = [];
  block.children.forEach((child) => {
    if (child.type !== 'Declaration') return;
    list.push({ property: child.property.toLowerCase(), value: text(child.value).trim(), important: Boolean(child.important) });
  });
  return list;
}

function text(node: CssNode): string {
  return node.type === 'Raw' ? node.value : generate(node);
}

/** The value of `property` in a rule (last declaration wins, !important wins over normal). */
export function declaredValue(rule: CssRule, property: string): string | null {
  let found: CssDeclaration | null = null;
  for (const d of rule.declarations) {
    if (d.property === property && (!found || d.important || !found.important)) found = d;
  }
  return found?.value ?? null;
}

const selectorsCache = new WeakMap<CssRule, readonly string[]>();

/** splitSelectors of a rule's selector, once per rule: fonts, colours, variables and logo matching all read them. */
export function ruleSelectors(rule: CssRule): readonly string[] {
  let selectors = selectorsCache.get(rule);
  if (!selectors) {
    selectors = splitSelectors(rule.selector);
    selectorsCache.set(rule, selectors);
  }
  return selectors;
}

/** Splits a selector list on top-level commas (not inside :is(...) or [attr="a,b"]). */
export function splitSelectors(selector: string): string[] {
  // Without brackets or quotes every comma is a top-level one: the same parts as the scan below.
  if (!/[()[\]"']/.test(selector)) {
    const segments = selector.split(',');
    const last = (segments.pop() ?? '').trim();
    const parts = segments.map((s) => s.trim());
    return last ? [...parts, last] : parts;
  }
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let current = '';
  for (const ch of selector) {
    if (quote) quote = ch === quote ? '' : quote;
    else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '(' || ch === '[') depth += 1;
    else if (ch === ')' || ch === ']') depth -= 1;
    else if (ch === ',' && depth === 0) {
      parts.push(current.trim());
      current = '';
      continue;
    }
    current += ch;
  }
  if (current.trim()) parts.push(current.trim());
  return parts;
}
