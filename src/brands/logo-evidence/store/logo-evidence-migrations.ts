/**
 * 0022: the logo decision of a brand's latest crawl ("why this logo" on the brand page, ADR 0044), one row per
 * brand like `brand_contexts` (0019): candidates by source, file facts, score and outcome; never a site URL.
 */
import type { Kysely } from 'kysely';
import type { MigrationPart, ProductMigrations } from '../../../db/migrations.js';

const logoEvidenceMigration: MigrationPart = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('brand_logo_evidence')
      .addColumn('brand_id', 'text', (c) => c.primaryKey().references('brands.id').onDelete('cascade'))
      .addColumn('evidence', 'text', (c) => c.notNull())
      .addColumn('observed_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};

/** The logo evidence's migrations (issue 30): the same names and bodies as when they shipped, append-only. */
export const logoEvidenceMigrations: ProductMigrations = {
  '0022_logo_evidence': logoEvidenceMigration,
};
