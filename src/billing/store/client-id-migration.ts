/**
 * 0017: client IDs and search by name (issue 20, ADR 0033); this is the client IDs' part, billing's (the search's
 * part, which runs after it under the same name, is src/search/store/search-migrations.ts).
 *
 * - `client_ids`: publishable credentials (`cid_…`, stored plain: they are not secrets) with their allowed referrer
 *   hosts; `client_id_usage`: requests per (client ID, product, month), written in groups by the allowance meter.
 */
import type { Kysely } from 'kysely';
import type { MigrationPart } from '../../db/migrations.js';

async function createClientIdTables(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('client_ids')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    // JSON array of hosts (`example.com`, `*.example.com`); empty = any referrer.
    .addColumn('allowed_referrers', 'text', (c) => c.notNull().defaultTo('[]'))
    // 1: requests without Referer/Origin are refused (by default server-side fetches are allowed).
    .addColumn('require_referrer', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('client_ids_org_id_idx').on('client_ids').column('org_id').execute();
  await db.schema
    .createTable('client_id_usage')
    .addColumn('client_id', 'text', (c) => c.notNull().references('client_ids.id'))
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('product', 'text', (c) => c.notNull())
    // Billing period `YYYY-MM` (billing/billing-period.ts).
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('requests', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('client_id_usage_pk', ['client_id', 'product', 'period'])
    .execute();
  await db.schema.createIndex('client_id_usage_org_idx').on('client_id_usage').columns(['org_id', 'product', 'period']).execute();
}

export const clientIdsMigration: MigrationPart = {
  async up(db: Kysely<unknown>): Promise<void> {
    await createClientIdTables(db);
  },
};
