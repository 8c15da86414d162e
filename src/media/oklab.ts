/**
 * sRGB (8-bit) to OKLab and WCAG relative luminance. Hand-rolled with a lookup table because the pixel loops
 * run over thousands of pixels per image and a colour library would allocate an object per pixel.
 */

export interface Lab {
  l: number;
  a: number;
  b: number;
}

/** sRGB transfer function inverse, shared by OKLab and WCAG luminance (both use linear light). */
const LINEAR = Float64Array.from({ length: 256 }, (_, i) => {
  const c = i / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});
/**
 * Conversions by packed 0xRRGGBB. Every ingested image converts each of its distinct colours for clustering
 * and again for its theme, and brands repeat colours across images; three cube roots a colour add up.
 * Bounded: cleared when full, so a stream of photos cannot grow it without limit.
 */
const CACHE_LIMIT = 1 << 16;
const cache = new Map<number, Lab>();

function linear(channel: number): number {
  return LINEAR[channel] ?? 0;
}

export function rgbToOklab(r: number, g: number, b: number): Lab {
  const lr = linear(r);
  const lg = linear(g);
  const lb = linear(b);
  const l = Math.cbrt(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb);
  const m = Math.cbrt(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb);
  const s = Math.cbrt(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb);
  return {
    l: 0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    a: 1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    b: 0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  };
}

/** `rgbToOklab` of a packed 0xRRGGBB colour, remembered. The result is shared: treat it as read-only. */
export function oklabOf(rgb: number): Lab {
  let lab = cache.get(rgb);
  if (!lab) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    lab = rgbToOklab(rgb >> 16, (rgb >> 8) & 255, rgb & 255);
    cache.set(rgb, lab);
  }
  return lab;
}

/** Euclidean distance in OKLab (ΔE_OK); 1.0 is black to white. */
export function deltaEOk(x: Lab, y: Lab): number {
  return Math.hypot(x.l - y.l, x.a - y.a, x.b - y.b);
}

/** WCAG 2 relative luminance of an 8-bit sRGB colour, 0 (black) to 1 (white). */
export function relativeLuminance(r: number, g: number, b: number): number {
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

export function rgbHex(r: number, g: number, b: number): string {
  return `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}
