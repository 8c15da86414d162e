/**
 * 0019: the context evidence kept with a brand's latest crawl and the profile built from it lazily (issue 21,
 * ADR 0035), one row per brand, like `brand_palettes` (0009).
 */
import type { Kysely, Migration } from 'kysely';

export const brandContextMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('brand_contexts')
      .addColumn('brand_id', 'text', (c) => c.primaryKey().references('brands.id').onDelete('cascade'))
      .addColumn('evidence', 'text', (c) => c.notNull())
      .addColumn('observed_at', 'bigint', (c) => c.notNull())
      .addColumn('profile', 'text')
      .addColumn('built_at', 'bigint')
      .execute();
  },
};
