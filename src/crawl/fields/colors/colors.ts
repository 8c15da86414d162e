/**
 * Brand colours (spec 2.5) fused from the evidence in color-evidence.ts plus the logo's dominant pixels.
 * Observations closer than ΔE_OK 0.04 (SAME_COLOR_DELTA) merge into one colour represented by its heaviest
 * observation; agreement between independent sources multiplies a colour's score (+25 % per extra source).
 *
 * Types (spec 2.5):
 *   accent  the main colour, used for calls to action: the best-scoring chromatic colour (OKLCH chroma ≥ 0.04,
 *           OKLab L > 0.25) backed by identity evidence (platform hint, brand token, logo, primary CTA, hero
 *           gradient or a coloured header). A monochrome brand has none: a chromatic colour seen only in links, headings or a
 *           secondary button never becomes the accent, so no accent is invented.
 *   brand   other chromatic colours with non-surface evidence of weight ≥ 1 (the rest of the scheme).
 *   dark    surfaces and neutrals (and near-black tints) with OKLab L < 0.5; `light` the others.
 * At most 6 colours: the accent first, then the others by score (evidence weight × source agreement).
 * brightness: domain/color-math.ts (0.2126 R + 0.7152 G + 0.0722 B on 8-bit values, exactly the spec formula).
 */
import type { Color, ColorType } from '../../../domain/brand.js';
import { brightness, deltaE, isNeutral, lightness, SAME_COLOR_DELTA } from '../../../domain/color-math.js';
import { cssEvidence, platformHints, type ColorObservation, type ColorSource } from './color-evidence.js';
import type { HtmlPage } from '../../page/html-page.js';
import type { WebManifest } from '../../fetch/manifest.js';
import type { ParsedCss } from '../../page/parse-css.js';

export { backgroundColor } from './color-evidence.js';

export interface ColorsInput {
  page: HtmlPage;
  css: ParsedCss[];
  manifest: WebManifest | null;
  /** Dominant colours of the chosen logo/symbol, with their share of opaque pixels. */
  logoColors: { hex: string; share: number }[];
}

const MAX_COLORS = 6;
const LOGO_WEIGHT = 3;
/** Chromatic colours with less evidence than this are decoration, not part of the brand's scheme. */
const MIN_BRAND_WEIGHT = 1;
/** Sources that say "this is our colour" rather than "this element happens to be coloured". */
const IDENTITY_SOURCES = new Set<ColorSource>(['platform', 'token', 'logo']);
const ACCENT_CTA_WEIGHT = 2;
const ACCENT_GRADIENT_WEIGHT = 1.5;
const ACCENT_CHROME_WEIGHT = 1.5;
const DARK_TINT_LIGHTNESS = 0.25;

export function extractColors(input: ColorsInput): Color[] {
  const observations = [
    ...platformHints(input.page, input.manifest),
    ...cssEvidence(input.css),
    ...input.logoColors.map((c) => ({ hex: c.hex.toLowerCase(), weight: LOGO_WEIGHT * c.share, source: 'logo' as const })),
  ];
  return typeColors(clusterObservations(observations));
}

export interface ColorCluster {
  hex: string;
  weight: number;
  sources: Set<ColorSource>;
  /** Weight per source, so the accent rule can ask "was this a primary CTA?" */
  bySource: Map<ColorSource, number>;
}

export function clusterObservations(observations: ColorObservation[]): ColorCluster[] {
  const clusters: ColorCluster[] = [];
  for (const o of [...observations].sort((a, b) => b.weight - a.weight)) {
    let near = clusters.find((c) => deltaE(c.hex, o.hex) < SAME_COLOR_DELTA);
    if (!near) {
      near = { hex: o.hex, weight: 0, sources: new Set(), bySource: new Map() };
      clusters.push(near);
    }
    near.weight += o.weight;
    near.sources.add(o.source);
    near.bySource.set(o.source, (near.bySource.get(o.source) ?? 0) + o.weight);
  }
  return clusters.sort((a, b) => score(b) - score(a));
}

export function score(c: ColorCluster): number {
  return c.weight * (1 + 0.25 * (c.sources.size - 1));
}

function isChromatic(hex: string): boolean {
  return !isNeutral(hex) && lightness(hex) > DARK_TINT_LIGHTNESS;
}

/** Identity evidence a chromatic colour needs to be the accent (see the header). */
export function canBeAccent(c: ColorCluster): boolean {
  if (!isChromatic(c.hex)) return false;
  if ([...c.sources].some((s) => IDENTITY_SOURCES.has(s))) return true;
  return (
    (c.bySource.get('cta') ?? 0) >= ACCENT_CTA_WEIGHT ||
    (c.bySource.get('gradient') ?? 0) >= ACCENT_GRADIENT_WEIGHT ||
    (c.bySource.get('chrome') ?? 0) >= ACCENT_CHROME_WEIGHT
  );
}

function typeColors(clusters: ColorCluster[]): Color[] {
  const accent = clusters.find(canBeAccent);
  const typed = clusters
    .map((c) => ({ c, type: c === accent ? ('accent' as const) : otherType(c) }))
    .filter((t): t is { c: ColorCluster; type: ColorType } => t.type !== null);
  // The accent leads; the rest keep their score order, so a monochrome brand's black comes before a link blue.
  return typed
    .slice(0, MAX_COLORS)
    .sort((a, b) => Number(b.type === 'accent') - Number(a.type === 'accent'))
    .map(({ c, type }) => ({ hex: c.hex, type, brightness: brightness(c.hex) }));
}

/** brand, dark or light; null for a weakly evidenced chromatic colour (decoration). */
function otherType(c: ColorCluster): ColorType | null {
  const surfaceOnly = [...c.sources].every((s) => s === 'surface');
  if (isChromatic(c.hex) && !surfaceOnly) return c.weight >= MIN_BRAND_WEIGHT ? 'brand' : null;
  return lightness(c.hex) < 0.5 ? 'dark' : 'light';
}
