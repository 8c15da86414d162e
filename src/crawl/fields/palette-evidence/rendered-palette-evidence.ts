/**
 * Palette evidence from a Chromium render (render/palette-samples.ts): the computed styles of buttons, links,
 * headings, nav, header, footer, body and html counted per colour and property with up to two example labels,
 * the text-on-background pairs as painted, root custom properties, gradients from `background-image`, and the
 * canvas of the light scheme and of the `prefers-color-scheme: dark` rendering. The dark scheme counts as
 * observed only when its canvas or body text differ from the light one. CSS declaration counts and brand-colour
 * signals come from the parsed stylesheets as without Chromium (css-palette-evidence.ts).
 */
import { parseCssColor } from '../../../domain/color-math.js';
import {
  exampleLabel,
  PALETTE_LIMITS,
  type ElementObservation,
  type GradientObservation,
  type PairObservation,
  type PaletteEvidence,
  type PaletteProperty,
  type PaletteThemeName,
  type RenderedPaletteSamples,
  type RenderedSchemeSamples,
  type ThemeObservation,
} from '../../../domain/palette.js';
import { tokenColor } from '../colors/color-evidence.js';
import { gradientFunctions } from './gradient-functions.js';

const MAX_TOKENS = 200;
const MAX_GRADIENTS = 50;
/** Per scheme: the most used entries are kept. */
const MAX_ELEMENTS = 400;
const MAX_PAIRS = 200;

export function renderedPaletteEvidence(samples: RenderedPaletteSamples, fromCss: PaletteEvidence): PaletteEvidence {
  const light = canvasOf(samples.light);
  const darkCanvas = samples.dark ? canvasOf(samples.dark) : null;
  const dark = light && darkCanvas && (darkCanvas.background !== light.background || darkCanvas.text !== light.text) ? darkCanvas : null;
  const schemes: [PaletteThemeName, RenderedSchemeSamples][] = [['light', samples.light]];
  if (dark && samples.dark) schemes.push(['dark', samples.dark]);
  return {
    ...fromCss,
    source: 'rendered',
    elements: schemes.flatMap(([theme, s]) => elementObservations(theme, s)),
    tokens: renderedTokens(samples.light),
    gradients: renderedGradients(samples.light),
    pairs: schemes.flatMap(([theme, s]) => pairObservations(theme, s)),
    themes: { ...(light ? { light } : {}), ...(dark ? { dark } : {}) },
  };
}

function canvasOf(s: RenderedSchemeSamples): ThemeObservation | null {
  const background = parseCssColor(s.canvas.background);
  const text = parseCssColor(s.canvas.color);
  return background && text ? { background, text } : null;
}

function elementObservations(theme: PaletteThemeName, s: RenderedSchemeSamples): ElementObservation[] {
  const byKey = new Map<string, ElementObservation>();
  const add = (element: ElementObservation['element'], property: PaletteProperty, value: string | null, label: string): void => {
    const hex = value ? parseCssColor(value) : null;
    if (!hex) return;
    const key = `${element}|${property}|${hex}`;
    let entry = byKey.get(key);
    if (!entry) {
      entry = { theme, element, property, hex, count: 0, examples: [] };
      byKey.set(key, entry);
    }
    entry.count += 1;
    const example = exampleLabel(label);
    if (example && entry.examples.length < PALETTE_LIMITS.examples && !entry.examples.includes(example)) entry.examples.push(example);
  };
  for (const sample of s.samples) {
    add(sample.element, 'background', sample.background, sample.label);
    add(sample.element, 'text', sample.color, sample.label);
    add(sample.element, 'border', sample.border, sample.label);
  }
  return [...byKey.values()].sort((a, b) => b.count - a.count).slice(0, MAX_ELEMENTS);
}

function pairObservations(theme: PaletteThemeName, s: RenderedSchemeSamples): PairObservation[] {
  const byKey = new Map<string, PairObservation>();
  for (const sample of s.samples) {
    if (sample.element === 'html') continue;
    const background = parseCssColor(sample.effectiveBackground);
    const text = parseCssColor(sample.color);
    if (!background || !text || background === text) continue;
    const key = `${sample.element}|${background}|${text}`;
    const seen = byKey.get(key);
    if (seen) seen.count += 1;
    else byKey.set(key, { element: sample.element, theme, background, text, count: 1 });
  }
  return [...byKey.values()].sort((a, b) => b.count - a.count).slice(0, MAX_PAIRS);
}

function renderedTokens(s: RenderedSchemeSamples): { name: string; hex: string }[] {
  const out: { name: string; hex: string }[] = [];
  for (const [name, value] of s.vars) {
    if (out.length >= MAX_TOKENS) break;
    if (!/^--[\w-]{1,100}$/.test(name)) continue;
    const hex = tokenColor(value);
    if (hex) out.push({ name, hex });
  }
  return out;
}

function renderedGradients(s: RenderedSchemeSamples): GradientObservation[] {
  const byCss = new Map<string, GradientObservation>();
  const add = (css: string, prominent: boolean): void => {
    for (const g of gradientFunctions(css)) {
      const seen = byCss.get(g);
      if (seen) {
        seen.count += 1;
        seen.prominent ||= prominent;
      } else if (byCss.size < MAX_GRADIENTS) byCss.set(g, { css: g, count: 1, prominent });
    }
  };
  for (const g of s.gradients) add(g.css, g.prominent);
  for (const sample of s.samples) if (sample.gradient) add(sample.gradient, sample.element === 'button' || sample.element === 'header');
  return [...byCss.values()];
}
