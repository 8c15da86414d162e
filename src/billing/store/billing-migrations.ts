/**
 * The billing product's migrations (issue 30; moved out of store/kysely/migrations.ts): the same names and bodies as
 * when they shipped, append-only. '0001_initial' and '0017_client_ids_and_search' also created other products' tables:
 * this is billing's part of each. main/product-stores.ts lists billing right after the brands, so its parts run where
 * they ran before (0001: after the brands' tables, before the jobs table; 0017: before the search index) and before
 * every product whose tables reference organizations or API keys (webhooks, dashboard accounts, standing access).
 */
import type { Kysely } from 'kysely';
import type { MigrationPart, ProductMigrations } from '../../db/migrations.js';
import { clientIdsMigration } from './client-id-migration.js';
import { creditGrantSeqMigration } from './credit-grant-seq-migration.js';
import { creditLeaseMigration } from './credit-lease-migration.js';

async function createAccountTables(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('organizations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('plan', 'text', (c) => c.notNull())
    .addColumn('quota', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('api_keys_org_id_idx').on('api_keys').column('org_id').execute();
}

async function createUsageLedger(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('usage_ledger')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('key_id', 'text', (c) => c.references('api_keys.id'))
    .addColumn('credits', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('usage_ledger_org_created_idx').on('usage_ledger').columns(['org_id', 'created_at']).execute();
}

/** 0001, billing's part: organizations, their API keys and the usage ledger (the jobs table is the queue's part). */
const initial: MigrationPart = {
  async up(db) {
    await createAccountTables(db);
    await createUsageLedger(db);
  },
};

/**
 * Billing: organization settings (spending limit, contacts, rate limit), the source of each ledger entry, the
 * append-only prepaid credit grants, and the usage warnings claimed per (organization, period, threshold).
 * SQLite adds one column per ALTER TABLE; a NOT NULL column needs a default there.
 */
const billing: MigrationPart = {
  async up(db) {
    await db.schema.alterTable('organizations').addColumn('spending_limit_cents', 'bigint').execute();
    await db.schema
      .alterTable('organizations')
      .addColumn('billing_contacts', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
    await db.schema.alterTable('organizations').addColumn('rate_limit_per_minute', 'bigint').execute();
    await db.schema
      .alterTable('usage_ledger')
      .addColumn('source', 'text', (c) => c.notNull().defaultTo('quota'))
      .execute();
    // The prepaid balance sums an organization's prepaid entries over all time.
    await db.schema.createIndex('usage_ledger_org_source_idx').on('usage_ledger').columns(['org_id', 'source']).execute();
    await db.schema
      .createTable('credit_grants')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
      .addColumn('credits', 'bigint', (c) => c.notNull())
      .addColumn('amount_cents', 'bigint')
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('credit_grants_org_id_idx').on('credit_grants').column('org_id').execute();
    await db.schema
      .createTable('usage_notices')
      .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
      .addColumn('period', 'text', (c) => c.notNull())
      .addColumn('threshold', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('usage_notices_pk', ['org_id', 'period', 'threshold'])
      .execute();
  },
};

/** Every migration (or part) of billing, by its name (kept forever: databases record the names they ran). */
export const billingMigrations: ProductMigrations = {
  '0001_initial': initial,
  '0002_billing': billing,
  '0017_client_ids_and_search': clientIdsMigration,
  '0020_credit_leases': creditLeaseMigration,
  '0023_credit_grant_seq': creditGrantSeqMigration,
};
