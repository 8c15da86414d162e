/**
 * 0026: merchant corrections (issue 34, ADR 0053). One row per correction an organization or the operator made;
 * removing one sets `removed_at` and `removed_by` and keeps the row. At most one applying row per scope, key and
 * country (a partial unique index); the transaction's lookup reads that index by scope and key.
 */
import { sql, type Kysely } from 'kysely';
import type { MigrationPart, ProductMigrations } from '../../../db/migrations.js';

const merchantCorrectionsMigration: MigrationPart = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('merchant_corrections')
      .addColumn('id', 'text', (c) => c.primaryKey())
      // An organization's id or `operator`: no foreign key, the operator is no organization.
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('label', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('country', 'text', (c) => c.notNull())
      .addColumn('domain', 'text')
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('removed_by', 'text')
      .addColumn('removed_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('merchant_corrections_applying_uq')
      .unique()
      .on('merchant_corrections')
      .columns(['scope', 'key', 'country'])
      .where(sql.ref('removed_at'), 'is', null)
      .execute();
    await db.schema.createIndex('merchant_corrections_scope_idx').on('merchant_corrections').columns(['scope', 'created_at', 'id']).execute();
  },
};

/** The merchant corrections' migrations: the same names and bodies as when they shipped, append-only. */
export const merchantCorrectionMigrations: ProductMigrations = {
  '0026_merchant_corrections': merchantCorrectionsMigration,
};
