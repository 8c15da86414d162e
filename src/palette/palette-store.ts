/**
 * The palette's storage port (issue 30): the evidence kept with a brand's latest crawl and the palette built from it
 * (migration 0009, ADR 0023). Implemented over the kernel's Database in store/kysely-palette-store.ts.
 */
import type { Palette, PaletteEvidence } from '../domain/palette.js';

/** A brand's palette evidence (from its latest crawl) and the palette built from it, if any (ADR 0023). */
export interface StoredPalette {
  brandId: string;
  /** As stored: a PaletteEvidence of some version (the builder checks `version`). */
  evidence: PaletteEvidence;
  observedAt: Date;
  palette: Palette | null;
  builtAt: Date | null;
}

/** Palette evidence and built palettes (spec 2.8's lazy rule). */
export interface PaletteStore {
  /** Keeps the evidence of the brand's latest crawl and forgets a palette built from older evidence. */
  savePaletteEvidence(brandId: string, evidence: PaletteEvidence, observedAt: Date): Promise<void>;
  getStoredPalette(brandId: string): Promise<StoredPalette | null>;
  /**
   * Stores the palette built from the evidence observed at `observedAt`. Returns false and writes nothing when that
   * evidence was replaced meanwhile (a re-crawl), so a slow build never overwrites a newer crawl's state.
   */
  savePalette(brandId: string, palette: Palette, observedAt: Date, builtAt: Date): Promise<boolean>;
  /**
   * Replaces the evidence observed at `replacing` with evidence observed later, at `observedAt` (the palette's
   * background render of a brand whose crawl did not render), and forgets the palette built from the old one. Returns
   * false and writes nothing when the stored evidence is no longer the one observed at `replacing` (a re-crawl came
   * first), so a stale render never overwrites a newer crawl's evidence. The new `observedAt` also makes a build of
   * the old evidence still running fail its `savePalette`.
   */
  replacePaletteEvidence(brandId: string, evidence: PaletteEvidence, replacing: Date, observedAt: Date): Promise<boolean>;
}
