/**
 * The palette evidence a crawl keeps with the stored brand (ADR 0023): from the computed styles of the render
 * when the crawl rendered the page in Chromium, else from the parsed CSS cascade.
 */
import type { PaletteEvidence } from '../../../domain/palette.js';
import { cssPaletteEvidence, type CssEvidenceInput } from './css-palette-evidence.js';
import { renderedPaletteEvidence } from './rendered-palette-evidence.js';

export function paletteEvidence(input: CssEvidenceInput): PaletteEvidence {
  const fromCss = cssPaletteEvidence(input);
  const samples = input.page.paletteSamples;
  return samples ? renderedPaletteEvidence(samples, fromCss) : fromCss;
}
