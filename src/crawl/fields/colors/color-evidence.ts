/**
 * Colour observations from the page, each weighted by how much it says about the brand (extraction notes 1.2
 * and 1.6). Sources and weights:
 *   platform  mask-icon colour 4, theme-color 3 (light scheme), manifest theme_color 3, TileColor/navbutton 2;
 *             a neutral platform hint (the very common white theme-color) only describes browser chrome and
 *             counts as a surface (1).
 *   token     root custom properties with brand names: brand/primary/cta 4, accent/secondary/theme/... 2;
 *             framework palettes (--blue-500), utilities (--tw-*) and status names are skipped.
 *   cta       backgrounds of call-to-action rules: primary/cta/sign-up 3, other buttons 2, secondary/ghost/
 *             outline 0.5; state (:hover) rules are skipped.
 *   gradient  chromatic gradient stops: in hero/CTA/header rules 1.5, elsewhere 0.5.
 *   chrome    a chromatic header/nav/top-bar background 1.5 (a coloured header is a brand decision; neutral
 *             ones are surfaces).
 *   link      link text colour (all link rules of a sheet together at most 1.5); heading colour 0.5.
 *   surface   html/body backgrounds 2, header/nav/footer backgrounds 1, manifest background_color 1, the
 *             dark-scheme theme-color 1.
 *   logo      the chosen logo's dominant pixels, 3 × their share (colors.ts).
 * Rules for status messages (error, warning, sale, badge...), third-party widgets (chat launchers, cookie and
 * consent banners), CMS palette utilities (WordPress `.has-vivid-red-background-color`), dark-scheme and print
 * media never count.
 */
import { parseCssColor } from '../../../domain/color-math.js';
import { isNeutral } from '../../../domain/color-math.js';
import { collectRootVariables, resolveVariables, type CssVariables } from '../../page/css-variables.js';
import { elementIndex } from '../../page/element-index.js';
import { attrEquals, attrHasWord, firstAttr, type ElementTest } from '../../page/element-queries.js';
import type { HtmlPage } from '../../page/html-page.js';
import type { WebManifest } from '../../fetch/manifest.js';
import { declaredValue, ruleSelectors, type CssRule, type ParsedCss } from '../../page/parse-css.js';

export type ColorSource = 'platform' | 'token' | 'cta' | 'gradient' | 'chrome' | 'link' | 'logo' | 'surface';

export interface ColorObservation {
  hex: string;
  weight: number;
  source: ColorSource;
  /** A brand-named token (`--brand-*`, `--primary`): monochrome brands declare their black this way. */
  brandToken?: boolean;
}

const STRONG_TOKEN = /(brand|primary|cta)/i;
const BRAND_TOKEN = /(brand|primary|accent|secondary|tertiary|cta|highlight|theme|main|key)/i;
const NOT_BRAND_TOKEN = /(^--tw-|error|danger|destructive|warning|success|info|alert|disabled|placeholder|skeleton|overlay|backdrop|tooltip|shadow|border|ring|divide|gutter|focus|hover|active|muted|text|foreground|fg\b|contrast|font|radius|size|spacing|width|height|duration|ease|z-index)/i;
const SHADE_SUFFIX = /-(\d{2,3})$/;
/** UI-framework variables: customised they are evidence, left at their defaults they are the framework's. */
const FRAMEWORK_TOKEN = /^--(bs|mdc|mat|chakra|mantine|ion|wp--preset--color|joy|md-sys-color|p)-/i;
const FRAMEWORK_DEFAULTS = new Set([
  // Bootstrap 4/5, Material, Ionic, Mantine, Chakra defaults.
  '#0d6efd', '#007bff', '#6c757d', '#198754', '#28a745', '#dc3545', '#ffc107', '#0dcaf0', '#17a2b8', '#212529', '#f8f9fa',
  '#6200ee', '#3880ff', '#228be6', '#3182ce',
  // The WordPress core palette (present on every block theme).
  '#abb8c3', '#f78da7', '#cf2e2e', '#ff6900', '#fcb900', '#7bdcb5', '#00d084', '#8ed1fc', '#0693e3', '#9b51e0',
]);
const SURFACE_TOKEN = /^--(?:color-)?(background|bg|surface|canvas|page-bg|body-bg|base-100)$/i;
const CTA_SELECTOR = /(button|btn|cta|\.primary|type=["']?submit|\.action|get-started|signup|sign-up)/i;
const STRONG_CTA = /(primary|cta|get-started|signup|sign-up|type=["']?submit|btn-brand|button--brand)/i;
const WEAK_CTA = /(secondary|tertiary|ghost|outline|link|light|white|plain|text-button|btn-text|close|cancel|menu|toggle)/i;
const STATE_SELECTOR = /:(hover|focus|focus-visible|focus-within|active|disabled|visited)|\.(disabled|is-disabled|is-active)|\[disabled\]|::(selection|placeholder)/i;
const STATUS_SELECTOR = /(error|danger|destructive|warning|warn\b|success|alert|sale|discount|toast|notice|badge|tag-|invalid|valid\b)/i;
const WIDGET_SELECTOR = /(chat|intercom|drift|zendesk|crisp|tawk|livechat|launcher|cookie|consent|gdpr|onetrust|cky-|cc-|didomi|usercentrics|recaptcha|\.has-[\w-]+-(background-)?colou?r\b|\.has-[\w-]+-gradient-background\b)/i;
const TOP_CHROME_SELECTOR = /(^|[\s>.#-])(header|nav|navbar|topbar|top-bar|masthead|site-header|main-nav)([\s.#:[-]|$)/i;
const PAGE_SURFACE_SELECTOR = /^(html|body|:root)$/i;
const CHROME_SURFACE_SELECTOR = /(^|[\s>.#-])(header|footer|nav|navbar|topbar|site-header|site-footer)([\s.#:[-]|$)/i;
const HERO_SELECTOR = /(hero|banner|cta|btn|button|header|masthead|jumbotron|splash)/i;
const LINK_SELECTOR = /(^|[\s>,])a$|^a:link$|\.link$/i;
const HEADING_SELECTOR = /(^|[\s>])h[1-2]$/i;
const DISCARDED_MEDIA = /prefers-color-scheme\s*:\s*dark|print|forced-colors|prefers-contrast/i;
const MAX_LINK_WEIGHT_PER_SHEET = 1.5;

const MASK_ICON_REL = attrHasWord('rel', 'mask-icon', true);
/** `link[rel~="mask-icon" i][color]` */
const MASK_ICON: ElementTest = (el) => MASK_ICON_REL(el) && el.attribs['color'] !== undefined;
const THEME_COLOR = attrEquals('name', 'theme-color', true);
const TILE_COLOR = attrEquals('name', 'msapplication-TileColor', true);
const NAVBUTTON_COLOR = attrEquals('name', 'msapplication-navbutton-color', true);

export function platformHints(page: HtmlPage, manifest: WebManifest | null): ColorObservation[] {
  const index = elementIndex(page.$);
  const metas = index.byTag('meta');
  const out: ColorObservation[] = [];
  const add = (value: string | null | undefined, weight: number, darkScheme = false): void => {
    const hex = value ? parseCssColor(value) : null;
    if (!hex) return;
    // The dark-scheme theme colour and neutral browser-chrome colours are surfaces, not brand colours.
    if (darkScheme || isNeutral(hex)) out.push({ hex, weight: 1, source: 'surface' });
    else out.push({ hex, weight, source: 'platform' });
  };
  add(firstAttr(index.byTag('link'), MASK_ICON, 'color'), 4);
  for (const el of metas.filter(THEME_COLOR)) add(el.attribs['content'], 3, /dark/i.test(el.attribs['media'] ?? ''));
  add(firstAttr(metas, TILE_COLOR, 'content'), 2);
  add(firstAttr(metas, NAVBUTTON_COLOR, 'content'), 2);
  add(manifest?.themeColor, 3);
  const background = manifest?.backgroundColor ? parseCssColor(manifest.backgroundColor) : null;
  if (background) out.push({ hex: background, weight: 1, source: 'surface' });
  return out;
}

export function cssEvidence(css: ParsedCss[]): ColorObservation[] {
  const vars = collectRootVariables(css);
  const out: ColorObservation[] = [...tokenColors(vars)];
  for (const sheet of css) {
    let linkWeight = 0;
    for (const rule of sheet.rules) {
      if (rule.media && DISCARDED_MEDIA.test(rule.media)) continue;
      for (const o of ruleColors(rule, vars)) {
        if (o.source === 'link') {
          if (linkWeight >= MAX_LINK_WEIGHT_PER_SHEET) continue;
          linkWeight += o.weight;
        }
        out.push(o);
      }
    }
  }
  return out;
}

export function tokenColors(vars: CssVariables): ColorObservation[] {
  const out: ColorObservation[] = [];
  for (const [name, raw] of vars) {
    const surface = SURFACE_TOKEN.test(name);
    if (!surface && (!BRAND_TOKEN.test(name) || NOT_BRAND_TOKEN.test(name))) continue;
    const hex = tokenColor(resolveVariables(raw, vars));
    if (!hex) continue;
    if (FRAMEWORK_TOKEN.test(name) && FRAMEWORK_DEFAULTS.has(hex)) continue;
    if (surface) out.push({ hex, weight: 2, source: 'surface' });
    else out.push({ hex, weight: tokenWeight(name), source: 'token', brandToken: STRONG_TOKEN.test(name) });
  }
  return out;
}

/** Brand/primary tokens weigh most; a shade scale (`--primary-50` … `--primary-900`) counts its 500/600 steps. */
function tokenWeight(name: string): number {
  const shade = SHADE_SUFFIX.exec(name)?.[1];
  const base = FRAMEWORK_TOKEN.test(name) ? 1 : STRONG_TOKEN.test(name) ? 4 : 2;
  if (!shade) return base;
  return shade === '500' || shade === '600' ? base / 2 : 0.25;
}

/** A token value; bare HSL channel triples (`222 47% 11%`, the shadcn convention) are read as hsl(). */
export function tokenColor(value: string): string | null {
  const v = value.trim();
  if (/^[\d.]+(deg)?\s+[\d.]+%\s+[\d.]+%$/.test(v)) return parseCssColor(`hsl(${v})`);
  return parseCssColor(v);
}

export function ruleColors(rule: CssRule, vars: CssVariables): ColorObservation[] {
  const selectors = ruleSelectors(rule).filter((s) => !STATE_SELECTOR.test(s) && !STATUS_SELECTOR.test(s) && !WIDGET_SELECTOR.test(s));
  if (selectors.length === 0) return [];
  const background = declaredValue(rule, 'background-color') ?? declaredValue(rule, 'background');
  const image = declaredValue(rule, 'background-image');
  const out: ColorObservation[] = [];
  for (const value of [background, image]) {
    if (value) out.push(...backgroundObservations(selectors, resolveVariables(value, vars)));
  }
  const text = declaredValue(rule, 'color');
  const textHex = text ? parseCssColor(resolveVariables(text, vars)) : null;
  if (textHex && !isNeutral(textHex)) {
    if (selectors.some((s) => LINK_SELECTOR.test(s))) out.push({ hex: textHex, weight: 1, source: 'link' });
    else if (selectors.some((s) => HEADING_SELECTOR.test(s))) out.push({ hex: textHex, weight: 0.5, source: 'link' });
  }
  return out;
}

function backgroundObservations(selectors: string[], value: string): ColorObservation[] {
  const stops = gradientStops(value);
  if (stops.length > 0) {
    const weight = selectors.some((s) => HERO_SELECTOR.test(s)) ? 1.5 : 0.5;
    return stops.filter((hex) => !isNeutral(hex)).map((hex) => ({ hex, weight, source: 'gradient' as const }));
  }
  const hex = backgroundColor(value);
  if (!hex) return [];
  if (selectors.some((s) => PAGE_SURFACE_SELECTOR.test(s))) return [{ hex, weight: 2, source: 'surface' }];
  const cta = selectors.filter((s) => CTA_SELECTOR.test(s));
  if (cta.length > 0) return [{ hex, weight: ctaWeight(cta), source: 'cta' }];
  if (!isNeutral(hex) && selectors.some((s) => TOP_CHROME_SELECTOR.test(s))) return [{ hex, weight: 1.5, source: 'chrome' }];
  if (selectors.some((s) => CHROME_SURFACE_SELECTOR.test(s))) return [{ hex, weight: 1, source: 'surface' }];
  return [];
}

function ctaWeight(selectors: string[]): number {
  if (selectors.some((s) => STRONG_CTA.test(s))) return 3;
  if (selectors.every((s) => WEAK_CTA.test(s))) return 0.5;
  return 2;
}

/** The colour layer of a `background` value (gradients and images are skipped). */
export function backgroundColor(value: string): string | null {
  if (/gradient\(|url\(/i.test(value)) return null;
  for (const token of value.match(/[a-z-]+\((?:[^()]|\([^()]*\))*\)|#[0-9a-f]{3,8}\b|[a-z]+/gi) ?? []) {
    const hex = parseCssColor(token);
    if (hex) return hex;
  }
  return null;
}

/** Colour stops of every gradient in a background value (linear, radial, conic and their repeating forms). */
export function gradientStops(value: string): string[] {
  if (!/gradient\(/i.test(value)) return [];
  const tokens = value.match(/(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color|color-mix)\((?:[^()]|\([^()]*\))*\)|#[0-9a-f]{3,8}\b|\b[a-z]{3,20}\b/gi) ?? [];
  const stops: string[] = [];
  for (const token of tokens) {
    if (/^(linear|radial|conic|repeating|to|at|deg|turn|circle|ellipse|closest|farthest|side|corner|left|right|top|bottom|center|in|srgb|oklab|oklch|shorter|longer|hue|increasing|decreasing)$/i.test(token)) continue;
    const hex = parseCssColor(token);
    if (hex && !stops.includes(hex)) stops.push(hex);
  }
  return stops;
}
