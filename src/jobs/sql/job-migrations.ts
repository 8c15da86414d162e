/**
 * The job queue's migrations (issue 30: moved out of the shared store's list with the same names and bodies): the
 * jobs table ('0001_initial', its part) and fair queueing ('0005_fair_queue'). main/ lists them right after billing,
 * where the shared store's list ran them before. Append-only: never edit one that has shipped.
 */
import type { Kysely, Migration } from 'kysely';
import type { ProductMigrations } from '../../db/migrations.js';
import { activeJobPredicate } from './jobs-table.js';

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

/** 0001, the jobs table's part (the brands' and billing's parts run before it). */
const initial: Migration = {
  async up(db) {
    await createJobs(db);
  },
};

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

export const jobMigrations: ProductMigrations = {
  '0001_initial': initial,
  '0005_fair_queue': fairQueue,
};
