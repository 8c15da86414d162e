/** The palette's migrations (issue 30): the same names and bodies as when they shipped, append-only. */
import type { Kysely } from 'kysely';
import type { MigrationPart, ProductMigrations } from '../../db/migrations.js';

/** The palette evidence kept with a brand's latest crawl and the palette built from it lazily (ADR 0023). */
const brandPalettes: MigrationPart = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('brand_palettes')
      .addColumn('brand_id', 'text', (c) => c.primaryKey().references('brands.id').onDelete('cascade'))
      .addColumn('evidence', 'text', (c) => c.notNull())
      .addColumn('observed_at', 'bigint', (c) => c.notNull())
      .addColumn('palette', 'text')
      .addColumn('built_at', 'bigint')
      .execute();
  },
};

export const paletteMigrations: ProductMigrations = {
  '0009_brand_palettes': brandPalettes,
};
