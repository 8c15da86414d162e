/**
 * Billing's migrations (the kernel's runner merges them with every other product's, src/db/migrations.ts): its part
 * of '0001_initial' (organizations, API keys, the usage ledger), '0002_billing' and '0020_credit_leases', with the
 * names and bodies they shipped with. Append-only: never edit one that has shipped; add the next one.
 */
import type { Kysely, Migration } from 'kysely';
import type { ProductMigrations } from '../../db/migrations.js';

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

/** Billing's part of '0001_initial'; the brands and jobs tables of the same name are created by their products. */
const initial: Migration = {
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
const billing: Migration = {
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

/**
 * 0020: credit leases (issue 22, ADR 0040). Each API process leases small blocks of an organization's credits
 * per source and period and serves reservations from them in memory; a grant checks the ledger plus every live
 * lease against the limit in one serialized transaction, so the quota holds however many processes serve it.
 */

const creditLeases: Migration = {
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

export const billingMigrations: ProductMigrations = {
  '0001_initial': initial,
  '0002_billing': billing,
  '0020_credit_leases': creditLeases,
};
