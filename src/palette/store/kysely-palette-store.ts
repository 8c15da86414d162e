/** The palette's store over the kernel's Database (SQLite or PostgreSQL; palette-rows.ts). */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { PaletteStore } from '../palette-store.js';
import * as palettes from './palette-rows.js';
import type { PaletteTables } from './palette-tables.js';

export class KyselyPaletteStore implements PaletteStore {
  private readonly db: Kysely<PaletteTables>;

  constructor(database: Database) {
    this.db = database.tables<PaletteTables>();
  }

  savePaletteEvidence: PaletteStore['savePaletteEvidence'] = (brandId, evidence, observedAt) => palettes.savePaletteEvidence(this.db, brandId, evidence, observedAt);
  getStoredPalette: PaletteStore['getStoredPalette'] = (brandId) => palettes.getStoredPalette(this.db, brandId);
  savePalette: PaletteStore['savePalette'] = (brandId, palette, observedAt, builtAt) => palettes.savePalette(this.db, brandId, palette, observedAt, builtAt);
  replacePaletteEvidence: PaletteStore['replacePaletteEvidence'] = (brandId, evidence, replacing, observedAt) =>
    palettes.replacePaletteEvidence(this.db, brandId, evidence, replacing, observedAt);
}
