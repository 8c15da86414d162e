/**
 * CSS reduced to what the extractors read: style rules (selector, declarations, enclosing @media), @font-face
 * blocks and @import URLs. css-tree parses tolerantly (a broken rule becomes a Raw node, the rest survives);
 * values stay raw text because the extractors parse colours and font stacks themselves.
 *
 * A site chooses how much CSS it serves, so parsing is bounded (issue 13; docs/security.md): a sheet is cut into
 * pieces at top-level rule boundaries (found with css-tree's own tokenizer, so a piece ends exactly where the
 * parser would be back at the top level) and parsed piece by piece, in document order, while the crawl's
 * `CssAllowance` lasts: bytes, style rules and parse time. What is past a bound is left out: the crawl keeps the
 * rules before it. `parseCssInTurns` yields to the event loop between pieces.
 */
import { generate, parse, tokenize, tokenTypes, type CssNode } from 'css-tree';

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

export interface CssLimits {
  /** Bytes of one sheet: a linked sheet's download cap; an inline <style> block is parsed up to it. */
  maxSheetBytes: number;
  /** Bytes of CSS parsed per crawl (inline blocks, then linked sheets, then their @imports, in document order). */
  maxTotalBytes: number;
  /** Style rules kept per crawl. */
  maxRules: number;
  /** Time spent parsing CSS per crawl, in milliseconds (checked between pieces of about 64 KB). */
  parseTimeMs: number;
}

/**
 * Real sites' CSS is a few hundred KB per page and parses in well under 100 ms per MB of ordinary rules; 1 MB of
 * hostile CSS (malformed tokens) takes about 0.6 s, so without a time bound 20 such sheets held a crawl for
 * seconds.
 */
export const DEFAULT_CSS_LIMITS: Readonly<CssLimits> = Object.freeze({
  maxSheetBytes: 1024 * 1024,
  maxTotalBytes: 4 * 1024 * 1024,
  maxRules: 50_000,
  parseTimeMs: 1_000,
});

/** Which bound left CSS out. */
export type CssBound = 'bytes' | 'rules' | 'time';

/** What is left of one crawl's CSS limits; every sheet of the crawl is parsed against the same allowance. */
export class CssAllowance {
  bytesLeft: number;
  rulesLeft: number;
  /** Milliseconds spent parsing so far (downloads and turns given to the event loop do not count). */
  spentMs = 0;
  /** The first bound that left CSS out, or null while everything fitted. */
  exhaustedBy: CssBound | null = null;

  constructor(readonly limits: Readonly<CssLimits> = DEFAULT_CSS_LIMITS, private readonly now: () => number = () => performance.now()) {
    this.bytesLeft = limits.maxTotalBytes;
    this.rulesLeft = limits.maxRules;
  }

  /** False once a bound has left CSS out: nothing more is parsed in this crawl. */
  open(): boolean {
    if (!this.exhaustedBy && this.spentMs >= this.limits.parseTimeMs) this.exhaustedBy = 'time';
    return this.exhaustedBy === null;
  }

  /** Runs `parse` on a piece of `bytes` and counts its time; false, without running it, past the byte or time bound. */
  parse(bytes: number, parse: () => void): boolean {
    if (!this.open()) return false;
    if (bytes > this.bytesLeft) this.exhaustedBy = 'bytes';
    if (this.exhaustedBy) return false;
    this.bytesLeft -= bytes;
    const start = this.now();
    parse();
    this.spentMs += this.now() - start;
    return true;
  }

  /** Counts one rule; false past the rule bound. */
  takeRule(): boolean {
    if (this.rulesLeft <= 0) {
      this.exhaustedBy ??= 'rules';
      return false;
    }
    this.rulesLeft -= 1;
    return true;
  }
}

/** Pieces are cut at the first top-level boundary past this many characters. */
const PIECE_CHARS = 64 * 1024;
/** Conditional at-rules nest a few levels in real CSS; deeper ones are not walked (nor do they blow the stack). */
const MAX_NESTING = 32;
const CONDITIONAL_AT_RULES = new Set(['media', 'supports', 'layer', 'container', 'document', '-moz-document']);

/** The sheet parsed within `allowance` (a fresh one with the default limits unless given). */
export function parseCss(text: string, url: string | null, allowance = new CssAllowance()): ParsedCss {
  const steps = parsePieces(text, url, allowance);
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}

/** `parseCss`, giving the event loop a turn between pieces. */
export async function parseCssInTurns(text: string, url: string | null, allowance: CssAllowance): Promise<ParsedCss> {
  const steps = parsePieces(text, url, allowance);
  let step = steps.next();
  while (!step.done) {
    await new Promise((resolve) => setImmediate(resolve));
    step = steps.next();
  }
  return step.value;
}

function* parsePieces(text: string, url: string | null, allowance: CssAllowance): Generator<void, ParsedCss> {
  const out: ParsedCss = { url, rules: [], fontFaces: [], imports: [] };
  if (!allowance.open()) return out;
  let sheetBytes = 0;
  let start = 0;
  // A character is at least one byte: no piece past this many characters could be parsed.
  for (const end of pieceEnds(text, Math.min(allowance.limits.maxSheetBytes, allowance.bytesLeft))) {
    const piece = text.slice(start, end);
    const bytes = Buffer.byteLength(piece);
    sheetBytes += bytes;
    if (sheetBytes > allowance.limits.maxSheetBytes) break;
    if (start > 0) yield;
    if (!allowance.parse(bytes, () => parsePiece(piece, out, allowance)) || allowance.exhaustedBy === 'rules') break;
    start = end;
  }
  // What is left did not fit in the crawl's bytes (a sheet's own bound leaves the crawl's allowance open).
  if (start < text.length && allowance.exhaustedBy === null && allowance.bytesLeft < allowance.limits.maxSheetBytes) allowance.exhaustedBy = 'bytes';
  return out;
}

function parsePiece(text: string, out: ParsedCss, allowance: CssAllowance): void {
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
    return;
  }
  visit(ast, null, out, allowance, 0);
}

/**
 * Offsets where the sheet can be cut, each the end of a top-level rule or statement at least PIECE_CHARS past the
 * previous one, then the end of the text. Brackets are matched as CSS Syntax consumes blocks: a closer that does
 * not match the innermost open bracket is an ordinary token, so an unbalanced sheet is simply not cut again.
 * Only the first `maxChars` are read (tokens end at the same places in a prefix): past them nothing is parsed.
 */
function pieceEnds(text: string, maxChars: number): number[] {
  if (text.length <= PIECE_CHARS) return [text.length];
  const scanned = text.length <= maxChars ? text : text.slice(0, maxChars);
  const ends: number[] = [];
  const open: number[] = [];
  let pieceStart = 0;
  tokenize(scanned, (type, _start, end) => {
    if (type === tokenTypes.LeftCurlyBracket || type === tokenTypes.LeftParenthesis || type === tokenTypes.Function || type === tokenTypes.LeftSquareBracket) {
      open.push(type === tokenTypes.Function ? tokenTypes.LeftParenthesis : type);
      return;
    }
    if (type === tokenTypes.RightCurlyBracket || type === tokenTypes.RightParenthesis || type === tokenTypes.RightSquareBracket) {
      if (open.at(-1) === OPENER_OF[type]) open.pop();
      else return;
    } else if (type !== tokenTypes.Semicolon) {
      return;
    }
    if (open.length === 0 && (type === tokenTypes.RightCurlyBracket || type === tokenTypes.Semicolon) && end - pieceStart >= PIECE_CHARS) {
      ends.push(end);
      pieceStart = end;
    }
  });
  if (scanned === text && pieceStart < text.length) ends.push(text.length);
  return ends;
}

const OPENER_OF: Record<number, number> = {
  [tokenTypes.RightCurlyBracket]: tokenTypes.LeftCurlyBracket,
  [tokenTypes.RightParenthesis]: tokenTypes.LeftParenthesis,
  [tokenTypes.RightSquareBracket]: tokenTypes.LeftSquareBracket,
};

function visit(node: CssNode, media: string | null, out: ParsedCss, allowance: CssAllowance, depth: number): void {
  if (depth > MAX_NESTING || allowance.exhaustedBy === 'rules') return;
  if (node.type === 'StyleSheet' || node.type === 'Block') {
    node.children.forEach((child) => visit(child, media, out, allowance, depth));
  } else if (node.type === 'Rule') {
    if (allowance.takeRule()) out.rules.push({ selector: text(node.prelude), declarations: declarations(node.block), media });
  } else if (node.type === 'Atrule') {
    visitAtrule(node, media, out, allowance, depth);
  }
}

function visitAtrule(node: Extract<CssNode, { type: 'Atrule' }>, media: string | null, out: ParsedCss, allowance: CssAllowance, depth: number): void {
  const name = node.name.toLowerCase();
  const prelude = node.prelude ? text(node.prelude) : '';
  if (name === 'import') {
    const target = /url\(\s*["']?([^"')]+)["']?\s*\)|["']([^"']+)["']/i.exec(prelude);
    const href = target?.[1] ?? target?.[2];
    if (href) out.imports.push(href.trim());
  } else if (name === 'font-face' && node.block) {
    out.fontFaces.push(declarations(node.block));
  } else if (CONDITIONAL_AT_RULES.has(name) && node.block) {
    visit(node.block, name === 'media' ? prelude : media, out, allowance, depth + 1);
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
