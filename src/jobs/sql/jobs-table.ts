/**
 * The `jobs` table as the SQL queue reads it (created by migrations 0001 and 0005 of job-migrations.ts), and
 * the predicate of its dedup index. Here, beside the queue, so that jobs/ never imports the store's files.
 */
import { sql } from 'kysely';
import type { SqlBool } from 'kysely';
import type { Millis } from '../../db/column-codec.js';
import type { JobState } from '../queue.js';

export interface JobsTable {
  id: string;
  name: string;
  key: string;
  /** The payload as JSON text. */
  payload: string;
  state: JobState;
  attempts: number;
  run_at: Millis;
  locked_until: Millis | null;
  last_error: string | null;
  created_at: Millis;
  updated_at: Millis;
  /** 0005: the organization that queued the job; null for the operator's own work. */
  owner: string | null;
}

/** The tables the queue reads: a product's narrowing of the kernel's handle (`database.tables<JobTables>()`). */
export interface JobTables {
  jobs: JobsTable;
}

/** Jobs that hold their (name, key): the predicate of the partial unique index that enforces dedup. */
export function activeJobPredicate() {
  return sql<SqlBool>`state in ('queued', 'running')`;
}
