/** Palette evidence and built palettes for KyselyPaletteStore (both dialects; migration 0009, ADR 0023). */
import type { Kysely } from 'kysely';
import type { Palette, PaletteEvidence } from '../../domain/palette.js';
import type { StoredPalette } from '../palette-store.js';
import { fromMillis, toMillis } from '../../db/column-codec.js';
import type { PaletteTables } from './palette-tables.js';

export async function savePaletteEvidence(db: Kysely<PaletteTables>, brandId: string, evidence: PaletteEvidence, observedAt: Date): Promise<void> {
  const values = { brand_id: brandId, evidence: JSON.stringify(evidence), observed_at: toMillis(observedAt), palette: null, built_at: null };
  await db
    .insertInto('brand_palettes')
    .values(values)
    .onConflict((oc) => oc.column('brand_id').doUpdateSet({ evidence: values.evidence, observed_at: values.observed_at, palette: null, built_at: null }))
    .execute();
}

export async function getStoredPalette(db: Kysely<PaletteTables>, brandId: string): Promise<StoredPalette | null> {
  const row = await db.selectFrom('brand_palettes').selectAll().where('brand_id', '=', brandId).executeTakeFirst();
  if (!row) return null;
  return {
    brandId: row.brand_id,
    evidence: JSON.parse(row.evidence) as PaletteEvidence,
    observedAt: fromMillis(row.observed_at),
    palette: row.palette === null ? null : (JSON.parse(row.palette) as Palette),
    builtAt: row.built_at === null ? null : fromMillis(row.built_at),
  };
}

export async function savePalette(db: Kysely<PaletteTables>, brandId: string, palette: Palette, observedAt: Date, builtAt: Date): Promise<boolean> {
  const result = await db
    .updateTable('brand_palettes')
    .set({ palette: JSON.stringify(palette), built_at: toMillis(builtAt) })
    .where('brand_id', '=', brandId)
    .where('observed_at', '=', toMillis(observedAt))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function replacePaletteEvidence(db: Kysely<PaletteTables>, brandId: string, evidence: PaletteEvidence, replacing: Date, observedAt: Date): Promise<boolean> {
  // One conditional statement: a re-crawl's savePaletteEvidence either lands before it (nothing matches) or after.
  const result = await db
    .updateTable('brand_palettes')
    .set({ evidence: JSON.stringify(evidence), observed_at: toMillis(observedAt), palette: null, built_at: null })
    .where('brand_id', '=', brandId)
    .where('observed_at', '=', toMillis(replacing))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
