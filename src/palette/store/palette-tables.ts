/** The palette's tables (issue 30): timestamps are epoch milliseconds, documents JSON text (src/db/column-codec.ts). */
import type { Millis } from '../../db/column-codec.js';

/** 0009: the palette evidence of a brand's latest crawl and the palette built from it (ADR 0023). */
export interface BrandPalettesTable {
  brand_id: string;
  /** PaletteEvidence as JSON text. */
  evidence: string;
  /** When the evidence was observed: the crawl, or the background render that replaced its CSS evidence (ADR 0023). */
  observed_at: Millis;
  /** Palette as JSON text, null until the first palette request builds it. */
  palette: string | null;
  built_at: Millis | null;
}

export interface PaletteTables {
  brand_palettes: BrandPalettesTable;
}
