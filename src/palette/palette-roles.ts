/**
 * One role per palette entry (spec 2.8), each defended by evidence:
 *   primary    the brand's accent colour (brand `colors`, type accent) when the kept evidence itself defends it as
 *              the brand's: a platform hint or brand token (weight ≥ 1), the logo files' pixels (coverage ≥ 5 %),
 *              a call to action (weight ≥ 2) or a coloured header. An accent seen only in a gradient or in links
 *              is not enough. No accent or no defence, no primary: a monochrome brand or a site without colour
 *              evidence has none.
 *   secondary  the next chromatic entry with identity evidence (the record's other brand colours, tokens,
 *              platform hints, logo colours).
 *   background / text   the light scheme's canvas and body text as observed.
 *   accent     the heaviest remaining chromatic entry used by the interface (buttons, links, gradients, header).
 *   surface    the heaviest remaining neutral used as a background; muted: as text; border: as a border.
 *   other      the rest.
 */
import type { Brand } from '../domain/brand.js';
import { deltaE, isNeutral, lightness, SAME_COLOR_DELTA } from '../domain/color-math.js';
import type { PaletteEvidence, PaletteLogo, PaletteRole } from '../domain/palette.js';
import { clusterOf, type Cluster } from './palette-clusters.js';

const DARK_TINT_LIGHTNESS = 0.25;
const INTERFACE_SIGNALS = ['cta', 'link', 'gradient', 'chrome'];
/** Chromium's default link colours: a page that never styled its links did not choose them. */
const USER_AGENT_LINKS = new Set(['#0000ee', '#551a8b']);

export function isChromatic(hex: string): boolean {
  return !isNeutral(hex) && lightness(hex) > DARK_TINT_LIGHTNESS;
}

export function assignRoles(clusters: Cluster[], brand: Pick<Brand, 'colors'>, evidence: PaletteEvidence, logos: readonly PaletteLogo[] = []): Map<Cluster, PaletteRole> {
  const roles = new Map<Cluster, PaletteRole>();
  const free = (c: Cluster | null | undefined): c is Cluster => c !== null && c !== undefined && !roles.has(c);
  const accentHex = brand.colors.find((c) => c.type === 'accent')?.hex;
  const primary = accentHex ? clusters.find((c) => c.members.some((m) => m.hex === accentHex)) ?? clusters.find((c) => deltaE(c.hex, accentHex) < SAME_COLOR_DELTA) : undefined;
  if (primary && isChromatic(primary.hex) && defendsPrimary(primary, logos)) roles.set(primary, 'primary');
  const secondary = clusters.find((c) => free(c) && c.identity && isChromatic(c.hex) && hasIdentityBacking(c, brand));
  if (free(secondary)) roles.set(secondary, 'secondary');
  const light = evidence.themes.light;
  const background = light ? clusterOf(clusters, light.background) : null;
  if (free(background)) roles.set(background, 'background');
  const text = light ? clusterOf(clusters, light.text) : null;
  if (free(text)) roles.set(text, 'text');
  const accent = clusters.find((c) => free(c) && isChromatic(c.hex) && !USER_AGENT_LINKS.has(c.hex) && interfaceUse(c, evidence) > 0);
  if (free(accent)) roles.set(accent, 'accent');
  const byUse = (pick: (c: Cluster) => number): Cluster | undefined =>
    clusters.filter((c) => free(c) && isNeutral(c.hex) && pick(c) > 0).sort((a, b) => pick(b) - pick(a))[0];
  const surface = byUse((c) => c.css.background + elementUse(c, evidence, 'background'));
  if (free(surface)) roles.set(surface, 'surface');
  const muted = byUse((c) => c.css.text + elementUse(c, evidence, 'text'));
  if (free(muted)) roles.set(muted, 'muted');
  const border = clusters.filter((c) => free(c) && c.css.border + elementUse(c, evidence, 'border') > 0).sort((a, b) => b.css.border - a.css.border)[0];
  if (free(border)) roles.set(border, 'border');
  for (const c of clusters) if (free(c)) roles.set(c, 'other');
  return roles;
}

const MIN_LOGO_COVERAGE = 0.05;

/** Evidence that says "this is the brand's colour", not only "something is painted in it" (see the header). */
function defendsPrimary(c: Cluster, logos: readonly PaletteLogo[]): boolean {
  const weight = (source: string): number => c.signals.get(source) ?? 0;
  if (weight('platform') + weight('token') >= 1 || weight('cta') >= 2 || weight('chrome') >= 1.5) return true;
  return logos.some((l) => l.colors.some((lc) => lc.coverage >= MIN_LOGO_COVERAGE && (c.members.some((m) => m.hex === lc.hex) || deltaE(c.hex, lc.hex) < SAME_COLOR_DELTA)));
}

/** A chromatic identity colour the record names as a brand colour, or one backed by more than the logo alone. */
function hasIdentityBacking(c: Cluster, brand: Pick<Brand, 'colors'>): boolean {
  if (brand.colors.some((b) => b.type === 'brand' && c.members.some((m) => m.hex === b.hex))) return true;
  return (c.signals.get('platform') ?? 0) + (c.signals.get('token') ?? 0) >= 1;
}

function interfaceUse(c: Cluster, evidence: PaletteEvidence): number {
  const signals = INTERFACE_SIGNALS.reduce((sum, s) => sum + (c.signals.get(s) ?? 0), 0);
  const rendered = evidence.elements
    .filter((e) => e.theme === 'light' && ((e.element === 'button' && e.property === 'background') || (e.element === 'link' && e.property === 'text')))
    .filter((e) => c.members.some((m) => m.hex === e.hex))
    .reduce((sum, e) => sum + e.count, 0);
  return signals + rendered;
}

function elementUse(c: Cluster, evidence: PaletteEvidence, property: 'background' | 'text' | 'border'): number {
  return evidence.elements
    .filter((e) => e.theme === 'light' && e.property === property && c.members.some((m) => m.hex === e.hex))
    .reduce((sum, e) => sum + e.count, 0);
}

/** Ranked order: the brand's roles first, then the page's structure, then by observed mass. */
export const ROLE_ORDER: Record<PaletteRole, number> = { primary: 0, secondary: 1, accent: 2, background: 3, text: 4, surface: 5, muted: 6, border: 7, other: 8 };
