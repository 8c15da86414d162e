/**
 * WCAG 2.x contrast (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio): relative luminance from the sRGB channels
 * (linearised with the 0.04045 threshold), ratio (L1 + 0.05) / (L2 + 0.05). Ratios are rounded to 2 decimals
 * for the API; `contrastRatio` itself is exact so tests can recompute it.
 */
import { hexToRgb } from './color-math.js';
import type { WcagLevel } from './palette.js';

function channel(v: number): number {
  const s = v / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

export function relativeLuminance(hex: string): number {
  const [r, g, b] = hexToRgb(hex);
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrastRatio(a: string, b: string): number {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** The ratio as answered: 2 decimals. */
export function roundedContrast(a: string, b: string): number {
  return Math.round(contrastRatio(a, b) * 100) / 100;
}

/** Normal-size text levels: AAA ≥ 7, AA ≥ 4.5, AA-large ≥ 3 (large text only), else fail. */
export function wcagLevel(ratio: number): WcagLevel {
  if (ratio >= 7) return 'AAA';
  if (ratio >= 4.5) return 'AA';
  if (ratio >= 3) return 'AA-large';
  return 'fail';
}

/** `#ffffff` or `#000000`, whichever contrasts more with `hex` (white on a tie). */
export function legibleText(hex: string): '#ffffff' | '#000000' {
  return contrastRatio(hex, '#ffffff') >= contrastRatio(hex, '#000000') ? '#ffffff' : '#000000';
}
