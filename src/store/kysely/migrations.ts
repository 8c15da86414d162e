/**
 * Schema migrations of the Kysely-backed store, the list main/ gives the kernel's runner (src/db/migrations.ts).
 * Written with the schema builder (and the dialect quirks where SQL differs), so the same list serves SQLite and
 * PostgreSQL: timestamps are `bigint` epoch milliseconds and documents are `text` on both (see schema.ts).
 * Migrations are append-only: never edit one that has shipped; add the next one.
 */
import type { Kysely, Migration } from 'kysely';
import type { ProductMigrations } from '../../db/migrations.js';
import { activeJobPredicate } from '../../jobs/sql/jobs-table.js';
import { clientIdsAndSearchMigration } from './search-migration.js';
import { creditLeaseMigration } from './credit-lease-migration.js';
import { creditGrantSeqMigration } from './credit-grant-seq-migration.js';


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

async function createJobs(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('run_at', 'bigint', (c) => c.notNull())
    .addColumn('locked_until', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // Dedup lives in the database so two processes can never both insert the same active (name, key).
  await db.schema
    .createIndex('jobs_active_name_key_uq')
    .unique()
    .on('jobs')
    .columns(['name', 'key'])
    .where(activeJobPredicate())
    .execute();
  await db.schema.createIndex('jobs_state_run_at_idx').on('jobs').columns(['state', 'run_at']).execute();
  await db.schema.createIndex('jobs_state_locked_until_idx').on('jobs').columns(['state', 'locked_until']).execute();
}

const initial: Migration = {
  async up(db) {
    await createAccountTables(db);
    await createUsageLedger(db);
    await createJobs(db);
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

/** Ordered by name; the Migrator applies them in that order. */
/**
 * Fair queueing (ADR 0015): who queued each job, so claims take turns between organizations and one
 * organization's active jobs can be bounded. Jobs queued before it have no owner (one group of their own).
 */
const fairQueue: Migration = {
  async up(db) {
    await db.schema.alterTable('jobs').addColumn('owner', 'text').execute();
    await db.schema.createIndex('jobs_owner_state_idx').on('jobs').columns(['owner', 'state']).execute();
  },
};

/** 0014, the brand events' part (the brands' part: brands/store/refresh-migration.ts): what webhooks announce for a save. */
const refreshAnnounce: Migration = {
  async up(db) {
    await db.schema.alterTable('brand_events').addColumn('announce', 'text').execute();
  },
};

/** Every migration of the store, by its name (kept forever: databases record the names they ran). */
export const MIGRATIONS: ProductMigrations = {
  '0001_initial': initial,
  '0002_billing': billing,
  '0005_fair_queue': fairQueue,
  '0014_refresh': refreshAnnounce,
  '0017_client_ids_and_search': clientIdsAndSearchMigration,
  '0020_credit_leases': creditLeaseMigration,
  '0023_credit_grant_seq': creditGrantSeqMigration,
};
