/**
 * Builds a brand's palette (spec 2.8) from the evidence its last crawl kept, the brand record and the colours of
 * its logo files. Pure and synchronous: the service (palette-service.ts) reads the inputs within the time budget.
 * The brand's `colors` are read, never changed. docs/palette.md describes every field and rule.
 */
import type { Brand } from '../domain/brand.js';
import { brightness, isNeutral } from '../domain/color-math.js';
import {
  emptyCssCounts,
  PALETTE_LIMITS,
  type Palette,
  type PaletteColor,
  type PaletteContext,
  type PaletteElementUsage,
  type PaletteEvidence,
  type PaletteGradient,
  type PaletteLogo,
  type PaletteOnPair,
  type PaletteRole,
  type PaletteTheme,
  type PaletteThemeName,
  type ThemeObservation,
} from '../domain/palette.js';
import { legibleText, roundedContrast, wcagLevel } from '../domain/wcag.js';
import { colorName } from './color-names.js';
import { parseGradient } from './gradient-parse.js';
import { clusterFacts, clusterOf, collectFacts, type Cluster } from './palette-clusters.js';
import { assignRoles, isChromatic, ROLE_ORDER } from './palette-roles.js';

export interface PaletteInput {
  brand: Pick<Brand, 'colors'>;
  evidence: PaletteEvidence;
  logos: PaletteLogo[];
}

/** Ranked entries beyond this are left out (members referenced by other parts are still listed). */
const MAX_RANKED = 24;
const MAX_ON_PAIRS = 40;
const BRAND_TOKEN = /brand/i;

export function buildPalette(input: PaletteInput): Palette {
  const { evidence } = input;
  const { light, dark } = evidence.themes;
  const preferred = [input.brand.colors.find((c) => c.type === 'accent')?.hex, light?.background, light?.text, dark?.background, dark?.text];
  const all = clusterFacts(collectFacts(input), evidence, preferred.filter((h): h is string => h !== undefined));
  const roles = assignRoles(all, input.brand, evidence, input.logos);
  const ranked = all
    .filter((c) => c.mass > 0)
    .sort((a, b) => ROLE_ORDER[roles.get(a) ?? 'other'] - ROLE_ORDER[roles.get(b) ?? 'other'] || b.mass - a.mass)
    .slice(0, MAX_RANKED);
  const members = new Members(ranked);
  const onPairs = evidence.source === 'rendered' ? pairsOf(evidence, members) : [];
  const gradients = gradientsOf(evidence, members, ranked);
  const themes = themesOf(evidence, members, ranked, roles);
  const logos = input.logos.map((logo) => ({ ...logo, colors: mergeCoverage(logo.colors.map((c) => ({ hex: members.hexOf(c.hex, 'identity'), coverage: c.coverage }))) }));
  const totalMass = ranked.reduce((sum, c) => sum + c.mass, 0);
  const colors: PaletteColor[] = [
    ...ranked.map((c, i) => rankedColor(c, i + 1, roles.get(c) ?? 'other', totalMass, evidence)),
    ...members.extra.map((m) => memberColor(m.hex, m.context, evidence)),
  ];
  return { colors, logos, onPairs, gradients, themes };
}

/**
 * Colours referenced by themes, pairs, gradients or logos: the ranked entry that lists the exact HEX (as itself or a
 * variant), else a member entry of its own, so a theme or stop is never moved to a merely similar colour.
 */
class Members {
  readonly extra: { hex: string; context: PaletteContext }[] = [];
  constructor(private readonly ranked: Cluster[]) {}

  hexOf(hex: string, context: PaletteContext): string {
    const entry = this.ranked.find((c) => c.members.some((m) => m.hex === hex));
    if (entry) return entry.hex;
    const member = this.extra.find((m) => m.hex === hex);
    if (member) {
      if (member.context !== context) member.context = 'both';
      return member.hex;
    }
    this.extra.push({ hex, context });
    return hex;
  }
}

function rankedColor(c: Cluster, rank: number, role: PaletteRole, totalMass: number, evidence: PaletteEvidence): PaletteColor {
  const onColor = onColorOf(c.hex, c, evidence);
  return {
    hex: c.hex,
    name: colorName(c.hex),
    role,
    context: c.identity && c.interface ? 'both' : c.identity ? 'identity' : 'interface',
    rank,
    ...legibility(c.hex),
    onColor,
    onColorContrast: onColor ? roundedContrast(c.hex, onColor) : null,
    brightness: brightness(c.hex),
    prevalence: totalMass > 0 ? Math.round((c.mass / totalMass) * 10_000) / 10_000 : null,
    usage: { elements: elementUsage(c, evidence), css: { ...c.css } },
    tokens: tokensOf(c, evidence),
    variants: c.members.slice(1, 1 + PALETTE_LIMITS.variants).map((m) => m.hex),
  };
}

function memberColor(hex: string, context: PaletteContext, evidence: PaletteEvidence): PaletteColor {
  const onColor = onColorOf(hex, null, evidence);
  return {
    hex,
    name: colorName(hex),
    role: 'other',
    context,
    rank: null,
    member: true,
    ...legibility(hex),
    onColor,
    onColorContrast: onColor ? roundedContrast(hex, onColor) : null,
    brightness: brightness(hex),
    prevalence: null,
    usage: { elements: [], css: { ...(evidence.css[hex] ?? emptyCssCounts()) } },
    tokens: [],
    variants: [],
  };
}

function legibility(hex: string): Pick<PaletteColor, 'legibleText' | 'legibleTextContrast'> {
  const legible = legibleText(hex);
  return { legibleText: legible, legibleTextContrast: roundedContrast(hex, legible) };
}

/** The text colour the site most often puts on this colour (rendered pairs, else rules that declare both). */
function onColorOf(hex: string, c: Cluster | null, evidence: PaletteEvidence): string | null {
  const holds = (h: string): boolean => h === hex || (c !== null && c.members.some((m) => m.hex === h));
  const counts = new Map<string, number>();
  for (const p of evidence.pairs) if (p.theme === 'light' && holds(p.background) && !holds(p.text)) counts.set(p.text, (counts.get(p.text) ?? 0) + p.count);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? null;
}

function elementUsage(c: Cluster, evidence: PaletteEvidence): PaletteElementUsage[] {
  const byKey = new Map<string, PaletteElementUsage>();
  for (const e of evidence.elements) {
    if (e.theme !== 'light' || !c.members.some((m) => m.hex === e.hex)) continue;
    const key = `${e.element}|${e.property}`;
    const entry = byKey.get(key) ?? { element: e.element, property: e.property, count: 0, examples: [] };
    entry.count += e.count;
    for (const x of e.examples) if (entry.examples.length < PALETTE_LIMITS.examples && !entry.examples.includes(x)) entry.examples.push(x);
    byKey.set(key, entry);
  }
  return [...byKey.values()].sort((a, b) => b.count - a.count);
}

function tokensOf(c: Cluster, evidence: PaletteEvidence): string[] {
  const names = [...new Set(evidence.tokens.filter((t) => c.members.some((m) => m.hex === t.hex)).map((t) => t.name))];
  return names.sort((a, b) => Number(BRAND_TOKEN.test(b)) - Number(BRAND_TOKEN.test(a))).slice(0, PALETTE_LIMITS.tokens);
}

function pairsOf(evidence: PaletteEvidence, members: Members): PaletteOnPair[] {
  const byKey = new Map<string, PaletteOnPair>();
  for (const p of evidence.pairs) {
    const background = members.hexOf(p.background, 'interface');
    const text = members.hexOf(p.text, 'interface');
    if (background === text) continue;
    const key = `${p.element}|${p.theme}|${background}|${text}`;
    const seen = byKey.get(key);
    if (seen) seen.count += p.count;
    else {
      const contrast = roundedContrast(background, text);
      byKey.set(key, { element: p.element, theme: p.theme, background, text, contrast, wcag: wcagLevel(contrast), count: p.count });
    }
  }
  return [...byKey.values()].sort((a, b) => b.count - a.count).slice(0, MAX_ON_PAIRS);
}

/** Gradients that use a brand colour (a chromatic ranked entry), prominent ones first, then by use; at most 4. */
function gradientsOf(evidence: PaletteEvidence, members: Members, ranked: Cluster[]): PaletteGradient[] {
  const candidates = evidence.gradients
    .map((g) => ({ g, parsed: parseGradient(g.css) }))
    .filter(({ parsed }) => parsed !== null && parsed.stops.some((s) => isChromatic(s.hex) && clusterOf(ranked, s.hex) !== null))
    .sort((a, b) => Number(b.g.prominent) - Number(a.g.prominent) || b.g.count - a.g.count)
    .slice(0, PALETTE_LIMITS.gradients);
  return candidates.map(({ g, parsed }, i) => ({
    rank: i + 1,
    type: parsed?.type ?? 'linear',
    angle: parsed?.angle ?? null,
    stops: (parsed?.stops ?? []).map((s) => ({ hex: members.hexOf(s.hex, 'interface'), position: s.position })),
    css: g.css,
  }));
}

function themesOf(evidence: PaletteEvidence, members: Members, ranked: Cluster[], roles: Map<Cluster, PaletteRole>): Palette['themes'] {
  const out: Palette['themes'] = {};
  for (const name of ['light', 'dark'] as const) {
    const observed = evidence.themes[name];
    if (observed) out[name] = themeOf(name, observed, evidence, members, ranked, roles);
  }
  return out;
}

function themeOf(name: PaletteThemeName, observed: ThemeObservation, evidence: PaletteEvidence, members: Members, ranked: Cluster[], roles: Map<Cluster, PaletteRole>): PaletteTheme {
  const background = members.hexOf(observed.background, 'interface');
  const text = members.hexOf(observed.text, 'interface');
  const roleHex = (role: PaletteRole): string | null => ranked.find((c) => roles.get(c) === role)?.hex ?? null;
  const used = (property: 'background' | 'text' | 'border', pick: (hex: string) => boolean): string | null => {
    const counts = new Map<string, number>();
    for (const e of evidence.elements) if (e.theme === name && e.property === property && pick(e.hex)) counts.set(e.hex, (counts.get(e.hex) ?? 0) + e.count);
    const top = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0];
    return top ? members.hexOf(top, 'interface') : null;
  };
  const differs = (hex: string): boolean => hex !== observed.background && hex !== observed.text && clusterOf(ranked, hex)?.hex !== background && clusterOf(ranked, hex)?.hex !== text;
  // The light scheme falls back on the roles the whole page's evidence defends; the dark one only on what was seen in it.
  const fallback = (role: PaletteRole): string | null => (name === 'light' ? roleHex(role) : null);
  const accent = used('background', (h) => isChromatic(h) && differs(h)) ?? (name === 'light' ? (roleHex('primary') ?? roleHex('accent')) : null);
  return {
    background,
    surface: used('background', (h) => isNeutral(h) && differs(h)) ?? fallback('surface'),
    text,
    muted: used('text', (h) => isNeutral(h) && differs(h)) ?? fallback('muted'),
    border: used('border', differs) ?? fallback('border'),
    accent,
    contrast: roundedContrast(background, text),
  };
}

function mergeCoverage(colors: { hex: string; coverage: number }[]): { hex: string; coverage: number }[] {
  const byHex = new Map<string, number>();
  for (const c of colors) byHex.set(c.hex, (byHex.get(c.hex) ?? 0) + c.coverage);
  return [...byHex].map(([hex, coverage]) => ({ hex, coverage: Math.min(1, Math.round(coverage * 10_000) / 10_000) })).sort((a, b) => b.coverage - a.coverage);
}
