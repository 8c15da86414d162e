/**
 * Title and body fonts (spec 2.5). Loaded families come from Google Fonts URLs (<link> or @import, css2 and
 * legacy syntax) and @font-face rules; which family plays which role comes from a static approximation of the
 * cascade: the last rule setting font-family on h1–h3/.title/.heading is the title font, on html/body/p the
 * body font (headings inherit the body font when no heading rule exists).
 *
 * Origin policy: a family served from Google (fonts.googleapis.com, fonts.gstatic.com, or its mirror
 * fonts.bunny.net) is `google`; a self-hosted @font-face family that is a known Google family (next/font,
 * @fontsource) is also `google` with the Google family name as originId, because a client can load the same
 * font from Google by that id; any other @font-face family is `custom`; a family used but never seen loaded is
 * `system` when it ships with the operating systems, else `google`/`custom` by name. Icon fonts are skipped.
 * Adobe Fonts (Typekit) kit families are `custom` (licensed per site, not loadable by name): their @font-face
 * rules arrive with the kit CSS (stylesheets.ts); a kit whose CSS could not be read still yields its families
 * as `custom` through the cascade. A family stack that starts with a system font (`-apple-system`,
 * `system-ui`, `Segoe UI`...) is reported as `system-ui` with origin `system`.
 * Weights (spec: "objects, fields not shown"): `{ weight, style }`, weight the CSS numeric weight (100–900; a
 * variable range is listed by its two ends), style `normal`/`italic` where the source says, null when only the
 * cascade's font-weight was seen. Sorted by weight, normal before italic.
 * Not done yet: rendering-based usage counts, reading names from WOFF2 files.
 */
import type { Font, FontOrigin, FontType, FontWeight } from '../../../domain/brand.js';
import { collectRootVariables, resolveVariables, type CssVariables } from '../../page/css-variables.js';
import { googleFamily } from './google-font-families.js';
import { elementIndex } from '../../page/element-index.js';
import { resolveUrl, type HtmlPage } from '../../page/html-page.js';
import { declaredValue, ruleSelectors, type ParsedCss } from '../../page/parse-css.js';

interface LoadedFamily {
  name: string;
  origin: FontOrigin;
  originId: string | null;
  weights: FontWeight[];
}

const GOOGLE_CSS_HOST = /^(fonts\.googleapis\.com|fonts\.bunny\.net)$/i;
const GENERIC_FAMILIES = new Set(['serif', 'sans-serif', 'monospace', 'cursive', 'fantasy', 'emoji', 'math', 'fangsong', 'inherit', 'initial', 'unset', 'revert']);
const SYSTEM_UI_ALIASES = new Set(['system-ui', '-apple-system', 'blinkmacsystemfont', 'ui-sans-serif', 'ui-serif', 'ui-monospace', 'ui-rounded']);
/** Fonts that ship with the major operating systems: used without being loaded, they are `system`. */
const SYSTEM_FONTS = /^(segoe ui.*|roboto|helvetica.*|arial.*|ubuntu|cantarell|oxygen|noto sans|georgia|times( new roman)?|courier( new)?|verdana|tahoma|trebuchet ms|menlo|monaco|consolas|sf (pro|mono).*|san francisco|apple color emoji|lucida (grande|sans.*)|palatino.*|book antiqua|impact|comic sans ms|avenir.*|optima|gill sans.*|futura|baskerville|didot|hoefler text|american typewriter)$/i;
/** Icon fonts draw pictograms, not text: never a brand's title or body font. */
const ICON_FONTS = /(icon|awesome|glyph|symbols?$|dashicons|fontello|icomoon|feather|remixicon|ionicons|material (icons|symbols))/i;
const ICON_FONT_FILE = /url\(\s*["']?[^"')]*(\/icons?\/|icon|glyph|fontello|icomoon|awesome|dashicons|symbols?\.)/i;
const TITLE_SELECTOR = /(^|[\s>+~])(h[1-3]|\.(title|heading|headline|display)[\w-]*|\[class\*=["']?(title|heading|display)["']?\])$/i;
const BODY_SELECTOR = /(^|[\s>+~])(html|body|p|:root)$/i;

export interface FontsInput {
  page: HtmlPage;
  css: ParsedCss[];
}

export function extractFonts({ page, css }: FontsInput): Font[] {
  const loaded = loadedFamilies(page, css);
  const vars = collectRootVariables(css);
  const usage = roleFamilies(css, vars);
  const bodyStack = usage.body ?? [];
  const titleStack = usage.title ?? bodyStack;
  const body = pickFamily(bodyStack, loaded, usage.bodyWeights) ?? fallbackFamily(loaded, 0);
  const title = pickFamily(titleStack, loaded, usage.titleWeights) ?? (usage.title || usage.body ? null : fallbackFamily(loaded, 1)) ?? body;
  const fonts: Font[] = [];
  if (title) fonts.push(toFont(title, 'title'));
  if (body) fonts.push(toFont(body, 'body'));
  return fonts;
}

function toFont(family: LoadedFamily, type: FontType): Font {
  return { name: family.name, type, origin: family.origin, originId: family.originId, weights: family.weights };
}

/** Without usable CSS rules, the first loaded family is assumed to be the body font and the second the title font. */
function fallbackFamily(loaded: Map<string, LoadedFamily>, index: number): LoadedFamily | null {
  return [...loaded.values()].filter((f) => !ICON_FONTS.test(f.name))[index] ?? null;
}

// ---------------------------------------------------------------- loaded families

function loadedFamilies(page: HtmlPage, css: ParsedCss[]): Map<string, LoadedFamily> {
  const families = new Map<string, LoadedFamily>();
  const add = (family: LoadedFamily): void => {
    const key = family.name.toLowerCase();
    const existing = families.get(key);
    if (existing) existing.weights = mergeWeights(existing.weights, family.weights);
    else families.set(key, { ...family, weights: mergeWeights([], family.weights) });
  };
  for (const url of googleFontUrls(page, css)) for (const family of parseGoogleFontsUrl(url)) add(family);
  for (const sheet of css) for (const face of sheet.fontFaces) {
    const family = parseFontFace(face, sheet.url ?? page.baseUrl);
    if (family) add(family);
  }
  return families;
}

function googleFontUrls(page: HtmlPage, css: ParsedCss[]): string[] {
  const hrefs = elementIndex(page.$).byTag('link').flatMap((el) => (el.attribs['href'] === undefined ? [] : [el.attribs['href']]));
  const imports = css.flatMap((sheet) => sheet.imports);
  return [...hrefs, ...imports]
    .map((href) => resolveUrl(href, page.baseUrl))
    .filter((url): url is string => url !== null && GOOGLE_CSS_HOST.test(new URL(url).hostname));
}

/**
 * Families of a Google Fonts CSS URL. css2: `family=Inter:wght@400;700&family=Roboto+Mono:ital,wght@0,400;1,700`
 * (one `family` parameter per family, axis tuples). Legacy css: `family=Open+Sans:400,700italic|Roboto`.
 */
export function parseGoogleFontsUrl(url: string): LoadedFamily[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const legacy = !parsed.pathname.startsWith('/css2');
  return parsed.searchParams
    .getAll('family')
    .flatMap((value) => (legacy ? value.split('|') : [value]))
    .map((spec) => {
      const [rawName = '', axes = ''] = spec.split(':');
      const name = rawName.replace(/\+/g, ' ').trim();
      const weights = legacy ? legacyWeights(axes) : css2Weights(axes);
      return { name, origin: 'google' as const, originId: name, weights };
    })
    .filter((f) => f.name.length > 0);
}

function css2Weights(axes: string): FontWeight[] {
  const [names = '', tuples = ''] = axes.split('@');
  if (!names) return [{ weight: 400, style: 'normal' }];
  const axisNames = names.split(',');
  const ital = axisNames.indexOf('ital');
  const wght = axisNames.indexOf('wght');
  return tuples.split(';').flatMap((tuple) => {
    const values = tuple.split(',');
    const style = ital >= 0 && values[ital] === '1' ? 'italic' : 'normal';
    const weightText = wght >= 0 ? (values[wght] ?? '400') : '400';
    // A variable range "100..900" is listed by its two ends.
    return weightText.split('..').map((w) => ({ weight: Number(w) || 400, style }) as FontWeight);
  });
}

function legacyWeights(spec: string): FontWeight[] {
  if (!spec) return [{ weight: 400, style: 'normal' }];
  return spec.split(',').map((token) => {
    const t = token.trim().toLowerCase();
    const italic = /i(talic)?$/.test(t);
    const number = /^\d+/.exec(t)?.[0];
    const weight = number ? Number(number) : t.startsWith('bold') ? 700 : 400;
    return { weight, style: italic ? 'italic' : 'normal' };
  });
}

function parseFontFace(declarations: ParsedCss['fontFaces'][number], base: string): LoadedFamily | null {
  const rule = { selector: '@font-face', declarations, media: null };
  const rawFamily = declaredValue(rule, 'font-family');
  const name = rawFamily ? cleanFamilyName(unquote(rawFamily)) : null;
  if (!name) return null;
  const src = declaredValue(rule, 'src') ?? '';
  // Icon fonts live in icon folders or files (WordPress themes ship `/images/icons/newspaper.woff`).
  if (ICON_FONT_FILE.test(src)) return null;
  const google = googleFamily(name);
  const fromGoogle = /fonts\.gstatic\.com|fonts\.bunny\.net/i.test(src) || (resolveUrl(firstUrl(src), base) ?? '').includes('fonts.gstatic.com');
  const origin: FontOrigin = fromGoogle || google ? 'google' : 'custom';
  return {
    name: google ?? name,
    origin,
    originId: origin === 'google' ? (google ?? name) : null,
    weights: faceWeights(declaredValue(rule, 'font-weight'), declaredValue(rule, 'font-style')),
  };
}

function faceWeights(weight: string | null, style: string | null): FontWeight[] {
  const s: FontWeight['style'] = /italic|oblique/i.test(style ?? '') ? 'italic' : 'normal';
  const values = (weight ?? '400').split(/\s+/).map(namedWeight).filter((w): w is number => w !== null);
  return (values.length ? values : [400]).map((w) => ({ weight: w, style: s }));
}

function namedWeight(token: string): number | null {
  if (/^\d+$/.test(token)) return Number(token);
  if (/^bold$/i.test(token)) return 700;
  if (/^normal$/i.test(token)) return 400;
  return null;
}

function firstUrl(src: string): string | null {
  return /url\(\s*["']?([^"')]+)/i.exec(src)?.[1] ?? null;
}

/** Next.js next/font names: `__Inter_a1b2c3` → Inter, `__Playfair_Display_9f8e7d` → Playfair Display; fallbacks dropped. */
export function cleanFamilyName(family: string): string | null {
  const name = family.trim();
  const next = /^__(.+?)(_Fallback)?_[0-9a-f]{6}$/i.exec(name);
  if (next) return next[2] ? null : (next[1] ?? '').replace(/_/g, ' ');
  return name || null;
}

function unquote(text: string): string {
  return text.trim().replace(/^["']|["']$/g, '');
}

function mergeWeights(a: FontWeight[], b: FontWeight[]): FontWeight[] {
  const seen = new Map<string, FontWeight>();
  for (const w of [...a, ...b]) seen.set(`${w.weight}${w.style}`, w);
  const styleOrder = (w: FontWeight): number => (w.style === 'italic' ? 1 : 0);
  return [...seen.values()].sort((x, y) => x.weight - y.weight || styleOrder(x) - styleOrder(y));
}

// ---------------------------------------------------------------- roles from the cascade

interface RoleUsage {
  title: string[] | null;
  body: string[] | null;
  titleWeights: number[];
  bodyWeights: number[];
}

/**
 * How directly a selector addresses a role (0: not at all). Body: `html`/`body`/`:root` 3, a bare `p` 2, a
 * descendant paragraph (`.footer p`) 1. Title: bare `h1`–`h3` 3, a bare title/heading class 2, a heading inside
 * a component (`.card h2`) 1. A higher rank wins; within a rank the later rule wins, as in the cascade. This
 * keeps widget, footer and card rules from overriding the site-wide typography.
 */
export function roleRank(selector: string, role: 'title' | 'body'): number {
  const s = selector.trim();
  if (role === 'body') {
    if (/^(html|body|:root)$/i.test(s)) return 3;
    if (/^p$/i.test(s)) return 2;
    return BODY_SELECTOR.test(s) ? 1 : 0;
  }
  if (/^h[1-3]$/i.test(s)) return 3;
  if (/^(\.(title|heading|headline|display)[\w-]*|\[class\*=["']?(title|heading|display)["']?\])$/i.test(s)) return 2;
  return TITLE_SELECTOR.test(s) ? 1 : 0;
}

function roleFamilies(css: ParsedCss[], vars: CssVariables): RoleUsage {
  const usage: RoleUsage = { title: null, body: null, titleWeights: [], bodyWeights: [] };
  const best = { title: 0, body: 0 };
  for (const sheet of css) for (const rule of sheet.rules) {
    if (rule.media && /prefers-color-scheme|print/i.test(rule.media)) continue;
    const selectors = ruleSelectors(rule);
    const titleRank = Math.max(0, ...selectors.map((sel) => roleRank(sel, 'title')));
    const bodyRank = Math.max(0, ...selectors.map((sel) => roleRank(sel, 'body')));
    if (titleRank === 0 && bodyRank === 0) continue;
    const stack = familyStack(rule, vars);
    const weight = namedWeight(resolveVariables(declaredValue(rule, 'font-weight') ?? '', vars));
    if (stack && titleRank >= best.title && titleRank > 0) [usage.title, best.title] = [stack, titleRank];
    if (stack && bodyRank >= best.body && bodyRank > 0) [usage.body, best.body] = [stack, bodyRank];
    if (titleRank > 0 && weight) usage.titleWeights.push(weight);
    if (bodyRank > 0 && weight) usage.bodyWeights.push(weight);
  }
  return usage;
}

function familyStack(rule: ParsedCss['rules'][number], vars: CssVariables): string[] | null {
  const family = declaredValue(rule, 'font-family');
  const shorthand = declaredValue(rule, 'font');
  const value = family ? resolveVariables(family, vars) : shorthand ? shorthandFamily(resolveVariables(shorthand, vars)) : null;
  if (!value) return null;
  const stack = value.split(',').map(unquote).map((f) => f.trim()).filter(Boolean);
  // `inherit` and friends say "whatever the parent uses": no evidence about this role.
  if (stack.length === 0 || /^(inherit|initial|unset|revert|revert-layer)$/i.test(stack[0] ?? '')) return null;
  return stack;
}

/** The family list of a `font` shorthand: everything after the size (and optional /line-height). */
function shorthandFamily(value: string): string | null {
  const m = /(?:^|\s)(?:[\d.]+(?:px|r?em|%|pt|vw|vh|ch|ex)|xx-small|x-small|small|medium|large|x-large|xx-large|smaller|larger)(?:\s*\/\s*[\w.%-]+)?\s+(.+)$/i.exec(value);
  return m?.[1] ?? null;
}

/**
 * The first family of a stack that the page loads, else the first non-generic one as a local (system) font.
 * next/font hashed names are cleaned before lookup.
 */
function pickFamily(stack: string[], loaded: Map<string, LoadedFamily>, usedWeights: number[]): LoadedFamily | null {
  for (const raw of stack) {
    const name = cleanFamilyName(raw);
    if (!name) continue;
    const hit = loaded.get(name.toLowerCase());
    if (hit) return hit;
  }
  const local = stack
    .map(cleanFamilyName)
    .find((f): f is string => f !== null && !GENERIC_FAMILIES.has(f.toLowerCase()) && !ICON_FONTS.test(f));
  if (!local) return null;
  const weights = [...new Set(usedWeights)].sort((a, b) => a - b).map((weight) => ({ weight, style: null }));
  return { ...unloadedFamily(local), weights };
}

/**
 * A family the CSS uses but no loaded stylesheet declares: an OS font is `system`; a Google family is `google`
 * (loaded by a script such as webfontloader); anything else was loaded from somewhere we did not see: `custom`.
 */
function unloadedFamily(name: string): Omit<LoadedFamily, 'weights'> {
  if (SYSTEM_UI_ALIASES.has(name.toLowerCase())) return { name: 'system-ui', origin: 'system', originId: null };
  if (SYSTEM_FONTS.test(name)) return { name, origin: 'system', originId: null };
  const google = googleFamily(name);
  return google ? { name: google, origin: 'google', originId: google } : { name, origin: 'custom', originId: null };
}
