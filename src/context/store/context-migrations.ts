/**
 * 0019: the context evidence kept with a brand's latest crawl and the profile built from it lazily (issue 21,
 * ADR 0035), one row per brand, like `brand_palettes` (0009).
 */
import type { Kysely } from 'kysely';
import type { MigrationPart, ProductMigrations } from '../../db/migrations.js';

const brandContextMigration: MigrationPart = {
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

/** The context's migrations (issue 30): the same names and bodies as when they shipped, append-only. */
export const contextMigrations: ProductMigrations = {
  '0019_brand_context': brandContextMigration,
};
