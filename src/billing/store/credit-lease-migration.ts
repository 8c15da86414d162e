/**
 * 0020: credit leases (issue 22, ADR 0040). Each API process leases small blocks of an organization's credits
 * per source and period and serves reservations from them in memory; a grant checks the ledger plus every live
 * lease against the limit in one serialized transaction, so the quota holds however many processes serve it.
 */
import type { Kysely, Migration } from 'kysely';

export const creditLeaseMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('credit_leases')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('holder', 'text', (c) => c.notNull())
      .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('period', 'text', (c) => c.notNull())
      .addColumn('credits', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('credit_leases_org_source_idx').on('credit_leases').columns(['org_id', 'source', 'period']).execute();
  },
};
