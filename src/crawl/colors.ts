/**
 * Brand colours (spec 2.5) from static evidence, each observation weighted by how much it says about the brand:
 *   platform hints the brand set on purpose (mask-icon colour, theme-color, manifest theme_color, TileColor),
 *   root custom properties with brand names (tokens), button/CTA backgrounds, the logo's dominant pixels, and
 *   surfaces (html/body/header/footer backgrounds, manifest background_color).
 * Observations closer than ΔE_OK 0.04 merge into one colour (the heaviest observation's hex represents it).
 * Types: `accent` = the heaviest chromatic, not near-black colour backed by non-surface evidence (none on a
 * monochrome site: no accent is invented); `dark`/`light` = surfaces, neutrals and near-black tints by OKLab
 * lightness (< 0.5 dark); `brand` = other chromatic brand colours. At most 6 colours, accent first.
 * brightness: see domain/color-math.ts (the spec formula on 8-bit values, rounded to 2 decimals).
 * Not done yet: gradients, link/heading text colours, usage counts from rendering, dark-theme variants.
 */
import type { Color, ColorType } from '../domain/brand.js';
import { brightness, deltaE, isNeutral, lightness, parseCssColor, SAME_COLOR_DELTA } from '../domain/color-math.js';
import { collectRootVariables, resolveVariables, type CssVariables } from './css-variables.js';
import type { HtmlPage } from './html-page.js';
import type { WebManifest } from './manifest.js';
import { declaredValue, splitSelectors, type CssRule, type ParsedCss } from './parse-css.js';

export type ColorSource = 'platform' | 'token' | 'cta' | 'logo' | 'surface';

export interface ColorObservation {
  hex: string;
  weight: number;
  source: ColorSource;
}

export interface ColorsInput {
  page: HtmlPage;
  css: ParsedCss[];
  manifest: WebManifest | null;
  /** Dominant colours of the chosen logo/symbol, with their share of opaque pixels. */
  logoColors: { hex: string; share: number }[];
}

const MAX_COLORS = 6;
const BRAND_TOKEN = /(brand|primary|accent|secondary|tertiary|cta|highlight|theme|main|key)/i;
const NOT_BRAND_TOKEN = /(^--tw-|error|danger|destructive|warning|success|info|alert|disabled|placeholder|skeleton|overlay|backdrop|tooltip|shadow|border|ring|divide|gutter|focus|hover|active|muted|text|foreground|fg\b|contrast|font|radius|size|spacing|width|height|duration|ease|z-index)/i;
const SURFACE_TOKEN = /^--(?:color-)?(background|bg|surface|canvas|page-bg|body-bg|base-100)$/i;
const CTA_SELECTOR = /(button|btn|cta|\.primary|type=["']?submit|\.action|get-started|signup|sign-up)/i;
const STATE_SELECTOR = /:(hover|focus|active|disabled|visited)|\.(disabled|is-disabled)|\[disabled\]/i;
const PAGE_SURFACE_SELECTOR = /^(html|body|:root)$/i;
const CHROME_SURFACE_SELECTOR = /(^|[\s>.#-])(header|footer|nav|navbar|topbar|site-header|site-footer)([\s.#:[-]|$)/i;

export function extractColors(input: ColorsInput): Color[] {
  const observations = [
    ...platformHints(input.page, input.manifest),
    ...cssEvidence(input.css),
    ...input.logoColors.map((c) => ({ hex: c.hex.toLowerCase(), weight: 3 * c.share, source: 'logo' as const })),
  ];
  return typeColors(clusterObservations(observations));
}

// ---------------------------------------------------------------- evidence

export function platformHints(page: HtmlPage, manifest: WebManifest | null): ColorObservation[] {
  const { $ } = page;
  const out: ColorObservation[] = [];
  const add = (value: string | null | undefined, weight: number, source: ColorSource): void => {
    const hex = value ? parseCssColor(value) : null;
    if (hex) out.push({ hex, weight, source });
  };
  add($('link[rel~="mask-icon" i][color]').attr('color'), 4, 'platform');
  $('meta[name="theme-color" i]').each((_, el) => {
    const media = $(el).attr('media') ?? '';
    // The dark-scheme theme colour is the dark surface, not the brand colour.
    add($(el).attr('content'), /dark/i.test(media) ? 1 : 3, /dark/i.test(media) ? 'surface' : 'platform');
  });
  add($('meta[name="msapplication-TileColor" i]').attr('content'), 2, 'platform');
  add(manifest?.themeColor, 3, 'platform');
  add(manifest?.backgroundColor, 1, 'surface');
  return out;
}

export function cssEvidence(css: ParsedCss[]): ColorObservation[] {
  const vars = collectRootVariables(css);
  const out: ColorObservation[] = [...tokenColors(vars)];
  for (const sheet of css) for (const rule of sheet.rules) {
    if (rule.media && /prefers-color-scheme\s*:\s*dark|print/i.test(rule.media)) continue;
    out.push(...ruleColors(rule, vars));
  }
  return out;
}

function tokenColors(vars: CssVariables): ColorObservation[] {
  const out: ColorObservation[] = [];
  for (const [name, raw] of vars) {
    const surface = SURFACE_TOKEN.test(name);
    if (!surface && (!BRAND_TOKEN.test(name) || NOT_BRAND_TOKEN.test(name))) continue;
    const hex = tokenColor(resolveVariables(raw, vars));
    if (!hex) continue;
    const weight = surface ? 2 : /brand|primary|cta/i.test(name) ? 4 : 2;
    out.push({ hex, weight, source: surface ? 'surface' : 'token' });
  }
  return out;
}

/** A token value; bare HSL channel triples (`222 47% 11%`, the shadcn convention) are read as hsl(). */
function tokenColor(value: string): string | null {
  const v = value.trim();
  if (/^[\d.]+(deg)?\s+[\d.]+%\s+[\d.]+%$/.test(v)) return parseCssColor(`hsl(${v})`);
  return parseCssColor(v);
}

function ruleColors(rule: CssRule, vars: CssVariables): ColorObservation[] {
  const selectors = splitSelectors(rule.selector);
  const background = declaredValue(rule, 'background-color') ?? declaredValue(rule, 'background');
  if (!background) return [];
  const hex = backgroundColor(resolveVariables(background, vars));
  if (!hex) return [];
  if (selectors.some((s) => PAGE_SURFACE_SELECTOR.test(s))) return [{ hex, weight: 2, source: 'surface' }];
  if (selectors.every((s) => STATE_SELECTOR.test(s))) return [];
  if (selectors.some((s) => CTA_SELECTOR.test(s))) return [{ hex, weight: 2, source: 'cta' }];
  if (selectors.some((s) => CHROME_SURFACE_SELECTOR.test(s))) return [{ hex, weight: 1, source: 'surface' }];
  return [];
}

/** The colour layer of a `background` value (gradients and images are skipped). */
export function backgroundColor(value: string): string | null {
  if (/gradient\(|url\(/i.test(value)) return null;
  for (const token of value.match(/[a-z-]+\([^()]*\)|#[0-9a-f]{3,8}\b|[a-z]+/gi) ?? []) {
    const hex = parseCssColor(token);
    if (hex) return hex;
  }
  return null;
}

// ---------------------------------------------------------------- merging and typing

export interface ColorCluster {
  hex: string;
  weight: number;
  sources: Set<ColorSource>;
}

export function clusterObservations(observations: ColorObservation[]): ColorCluster[] {
  const clusters: ColorCluster[] = [];
  for (const o of [...observations].sort((a, b) => b.weight - a.weight)) {
    const near = clusters.find((c) => deltaE(c.hex, o.hex) < SAME_COLOR_DELTA);
    if (near) {
      near.weight += o.weight;
      near.sources.add(o.source);
    } else clusters.push({ hex: o.hex, weight: o.weight, sources: new Set([o.source]) });
  }
  // Agreement between independent sources is the best evidence of a brand colour.
  return clusters.sort((a, b) => score(b) - score(a));
}

function score(c: ColorCluster): number {
  return c.weight * (1 + 0.25 * (c.sources.size - 1));
}

function typeColors(clusters: ColorCluster[]): Color[] {
  const accent = clusters.find((c) => !isNeutral(c.hex) && hasBrandEvidence(c) && lightness(c.hex) > 0.25);
  const typed = clusters.map((c) => ({ c, type: c === accent ? 'accent' : otherType(c) }) as const);
  const order: Record<ColorType, number> = { accent: 0, brand: 1, dark: 2, light: 3 };
  return typed
    .slice(0, MAX_COLORS)
    .sort((a, b) => order[a.type] - order[b.type])
    .map(({ c, type }) => ({ hex: c.hex, type, brightness: brightness(c.hex) }));
}

function hasBrandEvidence(c: ColorCluster): boolean {
  return [...c.sources].some((s) => s !== 'surface');
}

function otherType(c: ColorCluster): ColorType {
  const surfaceOnly = !hasBrandEvidence(c);
  // A chromatic colour with brand evidence stays a brand colour unless it is nearly black (a dark surface tint).
  if (!surfaceOnly && !isNeutral(c.hex) && lightness(c.hex) > 0.25) return 'brand';
  return lightness(c.hex) < 0.5 ? 'dark' : 'light';
}
