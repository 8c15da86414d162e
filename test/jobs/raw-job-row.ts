import type { Kysely } from 'kysely';
import type { Database } from '../helpers/all-tables.js';

/** Writes a queued job row directly, bypassing the queue's own dedup look-up. */
export async function insertActiveJobRow(db: Kysely<Database>, id: string, name: string, key: string): Promise<void> {
  const now = Date.now();
  await db
    .insertInto('jobs')
    .values({ id, name, key, payload: '{}', state: 'queued', attempts: 0, run_at: now, locked_until: null, last_error: null, created_at: now, updated_at: now })
    .execute();
}
