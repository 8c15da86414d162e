/**
 * Schema migrations of the Kysely-backed store, the list main/ gives the kernel's runner (src/db/migrations.ts).
 * Written with the schema builder (and the dialect quirks where SQL differs), so the same list serves SQLite and
 * PostgreSQL: timestamps are `bigint` epoch milliseconds and documents are `text` on both (see schema.ts).
 * Migrations are append-only: never edit one that has shipped; add the next one.
 */
import type { Kysely, Migration } from 'kysely';
import type { ProductMigrations } from '../../db/migrations.js';
import { activeJobPredicate } from '../../jobs/sql/jobs-table.js';


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

/** 0001, the jobs table's part (billing's organizations, API keys and ledger: billing/store/billing-migrations.ts, run before it). */
const initial: Migration = {
  async up(db) {
    await createJobs(db);
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
  '0005_fair_queue': fairQueue,
  '0014_refresh': refreshAnnounce,
};
