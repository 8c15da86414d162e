/**
 * The palette (spec 2.8, beta) and the evidence a crawl keeps so a palette can be built later without a new render
 * (ADR 0023). Field names of `Palette` and its parts are public API. `PaletteEvidence` is stored (JSON, table
 * `palette_evidence`, migration 0009) and read back by the builder: it is versioned, and a version the builder does
 * not know counts as no evidence.
 */

export const PALETTE_ROLES = ['primary', 'secondary', 'accent', 'background', 'surface', 'text', 'muted', 'border', 'other'] as const;
export type PaletteRole = (typeof PALETTE_ROLES)[number];
export type PaletteContext = 'identity' | 'interface' | 'both';
export const PALETTE_ELEMENTS = ['button', 'link', 'heading', 'nav', 'header', 'footer', 'body', 'html'] as const;
export type PaletteElement = (typeof PALETTE_ELEMENTS)[number];
export type PaletteProperty = 'background' | 'text' | 'border';
export type CssPropertyClass = 'background' | 'text' | 'border' | 'other';
export type PaletteThemeName = 'light' | 'dark';
export type WcagLevel = 'AAA' | 'AA' | 'AA-large' | 'fail';
export type GradientType = 'linear' | 'radial' | 'conic';

/** Section 8 limits. */
export const PALETTE_LIMITS = Object.freeze({ tokens: 5, variants: 8, gradients: 4, examples: 2, exampleChars: 40 });

export interface PaletteElementUsage {
  element: PaletteElement;
  property: PaletteProperty;
  count: number;
  /** At most 2 labels of at most 40 characters: untrusted site text, kept as text. */
  examples: string[];
}

export interface PaletteColor {
  hex: string;
  name: string | null;
  role: PaletteRole;
  context: PaletteContext;
  rank: number | null;
  /** Present (true) only on colors listed because something references them. */
  member?: true;
  legibleText: '#ffffff' | '#000000';
  legibleTextContrast: number;
  onColor: string | null;
  onColorContrast: number | null;
  brightness: number | null;
  prevalence: number | null;
  usage: { elements: PaletteElementUsage[]; css: Record<CssPropertyClass, number> };
  tokens: string[];
  variants: string[];
}

export interface PaletteLogo {
  asset: 'logo' | 'icon';
  type: 'icon' | 'logo' | 'symbol' | 'other' | null;
  theme: 'light' | 'dark' | null;
  format: 'svg' | 'png';
  primary: boolean;
  colors: { hex: string; coverage: number }[];
}

export interface PaletteOnPair {
  element: string;
  theme: PaletteThemeName;
  background: string;
  text: string;
  contrast: number;
  wcag: WcagLevel;
  count: number;
}

export interface PaletteGradient {
  rank: number;
  type: GradientType;
  angle: number | null;
  stops: { hex: string; position: number | null }[];
  css: string;
}

export interface PaletteTheme {
  background: string;
  surface: string | null;
  text: string;
  muted: string | null;
  border: string | null;
  accent: string | null;
  contrast: number;
}

export interface Palette {
  colors: PaletteColor[];
  logos: PaletteLogo[];
  onPairs: PaletteOnPair[];
  gradients: PaletteGradient[];
  themes: { light?: PaletteTheme; dark?: PaletteTheme };
}

// ---------------------------------------------------------------- evidence (stored with the crawl)

export const PALETTE_EVIDENCE_VERSION = 1;

/** How a colour was used, aggregated: one entry per (theme, element, property, hex). */
export interface ElementObservation {
  theme: PaletteThemeName;
  element: PaletteElement;
  property: PaletteProperty;
  hex: string;
  count: number;
  examples: string[];
}

/** Text on a background, as rendered (or declared together in one CSS rule: `source` css). */
export interface PairObservation {
  element: string;
  theme: PaletteThemeName;
  background: string;
  text: string;
  count: number;
}

export interface GradientObservation {
  css: string;
  count: number;
  /** Used on a hero, header, banner or call to action. */
  prominent: boolean;
}

/** A brand-colour signal from color-evidence.ts (platform hint, token, CTA, gradient, chrome, link, surface). */
export interface SignalObservation {
  hex: string;
  weight: number;
  source: string;
}

/** What a scheme's page looks like: its canvas and body text, when observed. */
export interface ThemeObservation {
  background: string;
  text: string;
}

export interface PaletteEvidence {
  version: typeof PALETTE_EVIDENCE_VERSION;
  /** `rendered`: computed styles in Chromium (light and dark); `css`: the stylesheets the crawler parsed. */
  source: 'rendered' | 'css';
  /** Declarations per colour and property class (background, text, border, other). */
  css: Record<string, Record<CssPropertyClass, number>>;
  elements: ElementObservation[];
  /** Custom properties holding a colour (light scheme): untrusted names. */
  tokens: { name: string; hex: string }[];
  gradients: GradientObservation[];
  /** Rendered pairs (source `rendered`) or rule-declared pairs (source `css`, used for onColor only). */
  pairs: PairObservation[];
  themes: { light?: ThemeObservation; dark?: ThemeObservation };
  signals: SignalObservation[];
}

export function emptyCssCounts(): Record<CssPropertyClass, number> {
  return { background: 0, text: 0, border: 0, other: 0 };
}

/** A site label cut to the section 8 bound, whitespace condensed; never interpreted. */
export function exampleLabel(text: string): string {
  return [...text.replace(/\s+/g, ' ').trim()].slice(0, PALETTE_LIMITS.exampleChars).join('');
}

// ---------------------------------------------------------------- raw samples from a Chromium render

/** One element's computed colours as Chromium serialises them (any CSS colour syntax; parsed on the Node side). */
export interface RenderedStyleSample {
  element: PaletteElement;
  background: string;
  /** The first non-transparent background among the element and its ancestors (white canvas when none). */
  effectiveBackground: string;
  color: string;
  border: string | null;
  gradient: string | null;
  /** aria-label or text, at most 40 characters: untrusted. */
  label: string;
}

export interface RenderedSchemeSamples {
  samples: RenderedStyleSample[];
  gradients: { css: string; prominent: boolean }[];
  /** Custom properties of the root element, computed (var() substituted). */
  vars: [string, string][];
  canvas: { background: string; color: string };
}

/** What the render saw in the light scheme and with `prefers-color-scheme: dark` emulated. */
export interface RenderedPaletteSamples {
  light: RenderedSchemeSamples;
  dark: RenderedSchemeSamples | null;
}
