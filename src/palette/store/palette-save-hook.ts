/** The palette's brand save hook (brands/brand-save-hooks.ts). */
import type { Kysely } from 'kysely';
import type { BrandSaveHook } from '../../brands/brand-save-hooks.js';
import { savePaletteEvidence } from './palette-rows.js';
import type { PaletteTables } from './palette-tables.js';

/** The crawl's palette evidence commits with its record: no reader sees the new record with the old evidence. */
export const paletteSaveHook: BrandSaveHook = {
  async onBrandSaved(trx, { next, options }) {
    if (options.paletteEvidence) await savePaletteEvidence(trx as Kysely<PaletteTables>, next.brand.id, options.paletteEvidence, next.crawledAt);
  },
};
