/**
 * The palette's colour entries before roles: every colour the evidence names, merged into clusters of
 * near-duplicates (ΔE_OK < 0.04, the same bound as the brand's `colors`), each represented by its heaviest
 * exact HEX with the others as `variants`. A colour's mass is what the crawl observed of it: CSS declarations,
 * rendered element uses (light scheme), brand-colour signal weights, logo coverage and the brand record's own colours.
 */
import type { Brand } from '../domain/brand.js';
import { deltaE, SAME_COLOR_DELTA } from '../domain/color-math.js';
import { emptyCssCounts, type CssPropertyClass, type PaletteEvidence, type PaletteLogo } from '../domain/palette.js';

/** Signals that say "this is our colour" rather than "this element is coloured" (color-evidence.ts). */
const IDENTITY_SIGNALS = new Set(['platform', 'token', 'logo']);
const LOGO_MASS = 3;

export interface ColorFacts {
  hex: string;
  mass: number;
  identity: boolean;
  interface: boolean;
}

export interface Cluster {
  hex: string;
  /** Exact HEX codes merged into the entry, heaviest first (the representative included). */
  members: ColorFacts[];
  mass: number;
  identity: boolean;
  interface: boolean;
  css: Record<CssPropertyClass, number>;
  /** Signal weight per source (cta, link, gradient, token, ...). */
  signals: Map<string, number>;
}

export interface ClusterInput {
  brand: Pick<Brand, 'colors'>;
  evidence: PaletteEvidence;
  logos: PaletteLogo[];
}

export function collectFacts({ brand, evidence, logos }: ClusterInput): Map<string, ColorFacts> {
  const facts = new Map<string, ColorFacts>();
  const add = (hex: string, mass: number, identity: boolean): void => {
    const f = facts.get(hex) ?? { hex, mass: 0, identity: false, interface: false };
    f.mass += mass;
    if (identity) f.identity = true;
    else f.interface = true;
    facts.set(hex, f);
  };
  for (const [hex, counts] of Object.entries(evidence.css)) add(hex, counts.background + counts.text + counts.border + counts.other, false);
  for (const e of evidence.elements) if (e.theme === 'light') add(e.hex, e.count, false);
  for (const s of evidence.signals) add(s.hex, s.weight, IDENTITY_SIGNALS.has(s.source));
  for (const logo of logos) for (const c of logo.colors) add(c.hex, (logo.primary ? LOGO_MASS : 1) * c.coverage, true);
  for (const c of brand.colors) add(c.hex, 1, c.type === 'accent' || c.type === 'brand');
  return facts;
}

/**
 * `preferred` HEX codes (the brand's accent, the observed theme colours) represent the entry that holds them, so
 * the palette names the exact colour the record and the page use rather than a heavier near-duplicate.
 */
export function clusterFacts(facts: Map<string, ColorFacts>, evidence: PaletteEvidence, preferred: readonly string[] = []): Cluster[] {
  const clusters: Cluster[] = [];
  for (const f of [...facts.values()].sort((a, b) => b.mass - a.mass || a.hex.localeCompare(b.hex))) {
    const near = clusters.find((c) => deltaE(c.hex, f.hex) < SAME_COLOR_DELTA);
    if (near) {
      near.members.push(f);
      near.mass += f.mass;
      near.identity ||= f.identity;
      near.interface ||= f.interface;
    } else clusters.push({ hex: f.hex, members: [f], mass: f.mass, identity: f.identity, interface: f.interface, css: emptyCssCounts(), signals: new Map() });
  }
  for (const c of clusters) {
    const lead = preferred.map((hex) => c.members.find((m) => m.hex === hex)).find((m) => m !== undefined);
    if (lead && lead !== c.members[0]) {
      c.members = [lead, ...c.members.filter((m) => m !== lead)];
      c.hex = lead.hex;
    }
  }
  const byHex = new Map<string, Cluster>();
  for (const c of clusters) for (const m of c.members) byHex.set(m.hex, c);
  for (const [hex, counts] of Object.entries(evidence.css)) {
    const c = byHex.get(hex);
    if (!c) continue;
    for (const k of Object.keys(counts) as CssPropertyClass[]) c.css[k] += counts[k];
  }
  for (const s of evidence.signals) {
    const c = byHex.get(s.hex);
    if (c) c.signals.set(s.source, (c.signals.get(s.source) ?? 0) + s.weight);
  }
  return clusters;
}

/** Maps any HEX to the entry that holds it (exactly or within ΔE_OK 0.04), or null. */
export function clusterOf(clusters: readonly Cluster[], hex: string): Cluster | null {
  for (const c of clusters) if (c.members.some((m) => m.hex === hex)) return c;
  return clusters.find((c) => deltaE(c.hex, hex) < SAME_COLOR_DELTA) ?? null;
}
