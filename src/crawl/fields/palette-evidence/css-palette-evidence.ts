/**
 * Palette evidence from the CSS cascade the crawler already parsed (no Chromium): colour declarations counted per
 * property class, root custom properties holding colours, gradients, rules that declare a background and a text
 * colour together (the site's onColor), the page canvas and body text of the light scheme and, when the sheets
 * declare one that changes them (`@media (prefers-color-scheme: dark)`, applied in source order with the other
 * rules, as the cascade does), of the dark scheme, plus the brand-colour signals of color-evidence.ts. A dark theme
 * behind a class toggle (`.dark`, `[data-theme=dark]`) is not a colour scheme a visitor's preference selects and is
 * not read, the same as a render with `prefers-color-scheme: dark` would not see it. No element usage and no rendered pairs: those need
 * computed styles (spec 2.8 allows their absence).
 */
import { parseCssColor } from '../../../domain/color-math.js';
import { emptyCssCounts, PALETTE_EVIDENCE_VERSION, type CssPropertyClass, type GradientObservation, type PairObservation, type PaletteEvidence, type ThemeObservation } from '../../../domain/palette.js';
import { collectRootVariables, resolveVariables, type CssVariables } from '../../page/css-variables.js';
import type { HtmlPage } from '../../page/html-page.js';
import type { WebManifest } from '../../fetch/manifest.js';
import { declaredValue, ruleSelectors, type CssRule, type ParsedCss } from '../../page/parse-css.js';
import { backgroundColor, cssEvidence, platformHints, tokenColor } from '../colors/color-evidence.js';
import { gradientFunctions } from './gradient-functions.js';

const DARK_MEDIA = /prefers-color-scheme\s*:\s*dark/i;
const IGNORED_MEDIA = /print|forced-colors|prefers-contrast/i;
const LIGHT_MEDIA = /prefers-color-scheme\s*:\s*light/i;
const PAGE_SELECTOR = /^(html|body|:root)$/i;
const PROMINENT = /(hero|banner|cta|btn|button|header|masthead|jumbotron|splash)/i;
const COLOR_TOKEN = /(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color|color-mix|light-dark)\((?:[^()]|\([^()]*\))*\)|#[0-9a-f]{3,8}\b|\b[a-z]{3,20}\b/gi;
const MAX_TOKENS = 200;
const MAX_GRADIENTS = 50;
/** Bounds on what one crawl keeps (a stylesheet can name thousands of colours): the most used are kept. */
const MAX_COLORS = 400;
const MAX_PAIRS = 200;
const TEXT_TOKEN = /^--(?:color-)?(text|foreground|fg|body-color|base-content)$/i;
const BACKGROUND_TOKEN = /^--(?:color-)?(background|bg|surface|canvas|page-bg|body-bg|base-100)$/i;

export interface CssEvidenceInput {
  page: HtmlPage;
  css: ParsedCss[];
  manifest: WebManifest | null;
}

export function cssPaletteEvidence({ page, css, manifest }: CssEvidenceInput): PaletteEvidence {
  const vars = collectRootVariables(css);
  const counts: PaletteEvidence['css'] = {};
  const gradients = new Map<string, GradientObservation>();
  const pairs = new Map<string, PairObservation>();
  for (const sheet of css) {
    for (const rule of sheet.rules) {
      if (rule.media && (DARK_MEDIA.test(rule.media) || IGNORED_MEDIA.test(rule.media))) continue;
      countRule(rule, vars, counts, gradients);
      const pair = rulePair(rule, vars);
      if (pair) {
        const key = `${pair.element}|${pair.background}|${pair.text}`;
        const seen = pairs.get(key);
        if (seen) seen.count += 1;
        else pairs.set(key, pair);
      }
    }
  }
  const light = lightTheme(css, vars);
  const dark = light ? darkTheme(css, vars, light) : null;
  return {
    version: PALETTE_EVIDENCE_VERSION,
    source: 'css',
    css: mostUsed(counts),
    elements: [],
    tokens: colorTokens(vars),
    gradients: [...gradients.values()].slice(0, MAX_GRADIENTS),
    pairs: [...pairs.values()].sort((a, b) => b.count - a.count).slice(0, MAX_PAIRS),
    themes: { ...(light ? { light } : {}), ...(dark ? { dark } : {}) },
    signals: [...platformHints(page, manifest), ...cssEvidence(css)].map((o) => ({ hex: o.hex, weight: o.weight, source: o.source })),
  };
}

function mostUsed(counts: PaletteEvidence['css']): PaletteEvidence['css'] {
  const entries = Object.entries(counts);
  if (entries.length <= MAX_COLORS) return counts;
  const total = (c: Record<CssPropertyClass, number>): number => c.background + c.text + c.border + c.other;
  return Object.fromEntries(entries.sort((a, b) => total(b[1]) - total(a[1])).slice(0, MAX_COLORS));
}

function propertyClass(property: string): CssPropertyClass {
  if (property.startsWith('background')) return 'background';
  if (property === 'color') return 'text';
  if (property.startsWith('border') || property.startsWith('outline')) return 'border';
  return 'other';
}

function countRule(rule: CssRule, vars: CssVariables, counts: PaletteEvidence['css'], gradients: Map<string, GradientObservation>): void {
  for (const d of rule.declarations) {
    if (d.property.startsWith('--')) continue;
    const value = resolveVariables(d.value, vars);
    if (d.property.startsWith('background')) {
      for (const g of gradientFunctions(value)) {
        const seen = gradients.get(g);
        if (seen) seen.count += 1;
        else gradients.set(g, { css: g, count: 1, prominent: ruleSelectors(rule).some((s) => PROMINENT.test(s)) });
      }
    }
    const cls = propertyClass(d.property);
    for (const hex of colorsIn(value)) {
      const entry = (counts[hex] ??= emptyCssCounts());
      entry[cls] += 1;
    }
  }
}

/** Every colour written in a declaration value (one per distinct colour). */
export function colorsIn(value: string): string[] {
  if (!/[#(]|[a-z]/i.test(value)) return [];
  const out = new Set<string>();
  for (const token of value.match(COLOR_TOKEN) ?? []) {
    if (/^(linear|radial|conic|repeating|to|at|deg|solid|dashed|dotted|none|inherit|initial|unset|auto|url|var)$/i.test(token)) continue;
    const hex = parseCssColor(token);
    if (hex) out.add(hex);
  }
  return [...out];
}

/** A rule that sets both a background colour and a text colour: the site's own text-on-colour choice. */
function rulePair(rule: CssRule, vars: CssVariables): PairObservation | null {
  const bg = declaredValue(rule, 'background-color') ?? declaredValue(rule, 'background');
  const fg = declaredValue(rule, 'color');
  if (!bg || !fg) return null;
  const background = backgroundColor(resolveVariables(bg, vars));
  const text = parseCssColor(resolveVariables(fg, vars));
  if (!background || !text || background === text) return null;
  return { element: elementOf(ruleSelectors(rule)), theme: 'light', background, text, count: 1 };
}

function elementOf(selectors: readonly string[]): string {
  const s = selectors.join(' ');
  if (/(button|btn|cta|type=["']?submit)/i.test(s)) return 'button';
  if (/(^|[\s>,])a($|[.:[\s])|\.link\b/i.test(s)) return 'link';
  if (/(^|[\s>,])h[1-6]\b/i.test(s)) return 'heading';
  if (/\bnav\b|navbar/i.test(s)) return 'nav';
  if (/header|masthead/i.test(s)) return 'header';
  if (/footer/i.test(s)) return 'footer';
  if (/^(html|:root)$/i.test(s)) return 'html';
  if (/^body$/i.test(s)) return 'body';
  return 'other';
}

function colorTokens(vars: CssVariables): { name: string; hex: string }[] {
  const out: { name: string; hex: string }[] = [];
  for (const [name, raw] of vars) {
    if (out.length >= MAX_TOKENS) break;
    // Names are untrusted site text: kept only when they are plain and short.
    if (!/^--[\w-]{1,100}$/.test(name)) continue;
    const hex = tokenColor(resolveVariables(raw, vars));
    if (hex) out.push({ name, hex });
  }
  return out;
}

interface Canvas {
  background: string | null;
  text: string | null;
}

/** The last html/body/:root background and colour of the rules `accept` lets through, resolved with `vars`. */
function canvasOf(css: ParsedCss[], vars: CssVariables, accept: (rule: CssRule) => boolean): Canvas {
  const canvas: Canvas = { background: null, text: null };
  for (const sheet of css) {
    for (const rule of sheet.rules) {
      if (!accept(rule)) continue;
      const bg = declaredValue(rule, 'background-color') ?? declaredValue(rule, 'background');
      const fg = declaredValue(rule, 'color');
      const background = bg ? backgroundColor(resolveVariables(bg, vars)) : null;
      const text = fg ? parseCssColor(resolveVariables(fg, vars)) : null;
      if (background) canvas.background = background;
      if (text) canvas.text = text;
    }
  }
  return canvas;
}

function tokenOf(vars: CssVariables, pattern: RegExp): string | null {
  for (const [name, raw] of vars) if (pattern.test(name)) return tokenColor(resolveVariables(raw, vars));
  return null;
}

const isLightRule = (rule: CssRule): boolean => (!rule.media || LIGHT_MEDIA.test(rule.media)) && ruleSelectors(rule).some((s) => PAGE_SELECTOR.test(s));

/** Observed when the sheets set the page's background or text (the other defaults to the white canvas / black). */
function lightTheme(css: ParsedCss[], vars: CssVariables): ThemeObservation | null {
  const canvas = canvasOf(css, vars, isLightRule);
  const background = canvas.background ?? tokenOf(vars, BACKGROUND_TOKEN);
  const text = canvas.text ?? tokenOf(vars, TEXT_TOKEN);
  if (!background && !text) return null;
  return { background: background ?? '#ffffff', text: text ?? '#000000' };
}

const isDarkRule = (rule: CssRule): boolean => rule.media !== null && DARK_MEDIA.test(rule.media) && ruleSelectors(rule).some((s) => PAGE_SELECTOR.test(s));

/** Root custom properties as the dark scheme redefines them. */
function darkVariables(css: ParsedCss[], light: CssVariables): CssVariables {
  const vars = new Map(light);
  for (const sheet of css) {
    for (const rule of sheet.rules) {
      if (!(rule.media && DARK_MEDIA.test(rule.media)) || !ruleSelectors(rule).some((s) => PAGE_SELECTOR.test(s))) continue;
      for (const d of rule.declarations) if (d.property.startsWith('--')) vars.set(d.property, d.value);
    }
  }
  return vars;
}

/**
 * The dark scheme, when the sheets declare one that changes the page: the root rules of both schemes in source
 * order (a later unconditional rule overrides an earlier dark one, as in the cascade), with the variables the
 * dark scheme redefines. Absent when neither the canvas nor the body text changes.
 */
function darkTheme(css: ParsedCss[], lightVars: CssVariables, light: ThemeObservation): ThemeObservation | null {
  const vars = darkVariables(css, lightVars);
  const dark = canvasOf(css, vars, (rule) => (!rule.media && ruleSelectors(rule).some((x) => PAGE_SELECTOR.test(x))) || isDarkRule(rule));
  const background = dark.background ?? tokenOf(vars, BACKGROUND_TOKEN) ?? light.background;
  const text = dark.text ?? tokenOf(vars, TEXT_TOKEN) ?? light.text;
  if (background === light.background && text === light.text) return null;
  return { background, text };
}
