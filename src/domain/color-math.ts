/**
 * Colour arithmetic shared by the crawler and the palette builder. Pure functions over `#rrggbb` strings.
 * Parsing of arbitrary CSS colour syntax lives here too (culori), so every caller normalises the same way.
 */
import { clampRgb, converter, formatHex, interpolate, parse, type Color } from 'culori';

const toOklab = converter('oklab');
const toOklch = converter('oklch');

export interface Oklab {
  l: number;
  a: number;
  b: number;
}

/** Below this OKLCH chroma a colour reads as grey/black/white (dembrandt's "is-grayish" cut is 0.02). */
export const NEUTRAL_CHROMA = 0.04;
/** ΔE_OK under which two colours count as the same brand colour (extraction notes 1.6). */
export const SAME_COLOR_DELTA = 0.04;

/**
 * Parses any CSS Color 4/5 value into `#rrggbb` (lower case, gamut-clamped): hex 3/4/6/8, rgb()/rgba() in comma
 * and space syntax, hsl(), hwb(), lab()/lch(), oklab()/oklch(), color() (display-p3, srgb-linear, ...), named
 * colours, plus color-mix() and light-dark() (light branch), which culori does not parse itself. Returns null
 * for keywords without a fixed value (`currentColor`, `inherit`, `var(...)`) and for colours mostly transparent
 * (alpha < 0.5), because a see-through colour is not the colour a visitor perceives; alpha ≥ 0.5 is ignored
 * (a brand token at 90 % opacity is still the brand colour).
 */
export function parseCssColor(value: string): string | null {
  const color = parseColor(value.trim(), 0);
  if (!color) return null;
  if (color.alpha !== undefined && color.alpha < 0.5) return null;
  return formatHex(clampRgb({ ...color, alpha: undefined })).toLowerCase();
}

function parseColor(text: string, depth: number): Color | undefined {
  if (text === '' || depth > 3 || /^(currentcolor|inherit|initial|unset|revert|revert-layer|none|auto)$/i.test(text) || /var\(/i.test(text)) return undefined;
  const fn = /^([a-z-]+)\((.*)\)$/is.exec(text);
  if (fn?.[1]?.toLowerCase() === 'light-dark') return parseColor(splitArgs(fn[2] ?? '')[0] ?? '', depth + 1);
  if (fn?.[1]?.toLowerCase() === 'color-mix') return colorMix(fn[2] ?? '', depth);
  return parse(text);
}

/** color-mix(in <space>, <color> [p%], <color> [p%]) with the CSS percentage normalisation. */
function colorMix(args: string, depth: number): Color | undefined {
  const [space = '', first = '', second = ''] = splitArgs(args);
  const mode = /^in\s+(srgb|oklab|oklch|lab|lch|hsl|hwb|srgb-linear|xyz)/i.exec(space)?.[1]?.toLowerCase() ?? 'srgb';
  const a = mixStop(first, depth);
  const b = mixStop(second, depth);
  if (!a || !b) return undefined;
  const pa = a.p ?? (b.p !== null ? 100 - b.p : 50);
  const pb = b.p ?? 100 - pa;
  const total = pa + pb;
  if (total <= 0) return undefined;
  const culoriMode = mode === 'srgb' ? 'rgb' : mode === 'srgb-linear' ? 'lrgb' : mode === 'xyz' ? 'xyz65' : mode;
  const mixed = interpolate([a.color, b.color], culoriMode as 'rgb')(pb / total);
  return total < 100 ? { ...mixed, alpha: (mixed.alpha ?? 1) * (total / 100) } : mixed;
}

function mixStop(text: string, depth: number): { color: Color; p: number | null } | null {
  const m = /^(.*?)(?:\s+(\d+(?:\.\d+)?)%)?$/s.exec(text.trim());
  const lead = /^(\d+(?:\.\d+)?)%\s+(.*)$/s.exec(text.trim());
  const colorText = lead ? (lead[2] ?? '') : (m?.[1] ?? '');
  const percent = lead ? lead[1] : m?.[2];
  const color = parseColor(colorText.trim(), depth + 1);
  return color ? { color, p: percent !== undefined ? Number(percent) : null } : null;
}

/** Splits function arguments (or a gradient's stop list) on top-level commas. */
export function splitArgs(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth += 1;
    if (ch === ')') depth -= 1;
    if (ch === ',' && depth === 0) {
      out.push(current.trim());
      current = '';
    } else current += ch;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

/** `#rrggbb` to its 8-bit channels. */
export function hexToRgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1, 7), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/**
 * The spec's brightness: 0.2126 R + 0.7152 G + 0.0722 B on the 8-bit gamma-encoded channels (0–255), not WCAG
 * linear luminance. Rounded to 2 decimals only to drop IEEE noise (e.g. 93.30000000000001); the formula is
 * otherwise exact, so a client recomputing it gets the same value to within 0.005.
 */
export function brightness(hex: string): number {
  const [r, g, b] = hexToRgb(hex);
  return Math.round((0.2126 * r + 0.7152 * g + 0.0722 * b) * 100) / 100;
}

export function oklab(hex: string): Oklab {
  const c = toOklab(hex);
  return { l: c?.l ?? 0, a: c?.a ?? 0, b: c?.b ?? 0 };
}

/** Euclidean distance in OKLab (ΔE_OK); about 0.02 is just noticeable. */
export function deltaE(hexA: string, hexB: string): number {
  const x = oklab(hexA);
  const y = oklab(hexB);
  return Math.hypot(x.l - y.l, x.a - y.a, x.b - y.b);
}

/** OKLCH chroma: 0 for greys, about 0.3 for the most saturated sRGB colours. */
export function chroma(hex: string): number {
  return toOklch(hex)?.c ?? 0;
}

/** OKLab lightness, 0 (black) to 1 (white). */
export function lightness(hex: string): number {
  return oklab(hex).l;
}

export function isNeutral(hex: string): boolean {
  return chroma(hex) < NEUTRAL_CHROMA;
}
