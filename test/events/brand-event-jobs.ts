/**
 * A consumer's delivery of a brand event as tests read it, since ADR 0049 its `brand.event` job on the one queue: the
 * job's row in the shape the `event_deliveries` row had (a queued job reads as `pending`), so the suites keep
 * asserting what they asserted on the old table.
 */
import type { Kysely } from 'kysely';
import { brandEventJobKey, JOB_NAMES } from '../../src/jobs/queue.js';
import type { JobTables } from '../../src/jobs/sql/jobs-table.js';

export interface BrandEventDeliveryRow {
  /** The job's id, for the queue's complete / fail. */
  id: string;
  state: 'pending' | 'running' | 'done' | 'failed';
  attempts: number;
  run_at: number;
  locked_until: number | null;
  last_error: string | null;
}

export async function brandEventDelivery(db: Kysely<unknown>, consumer: string, eventId: string): Promise<BrandEventDeliveryRow | undefined> {
  const row = await (db as Kysely<JobTables>)
    .selectFrom('jobs')
    .selectAll()
    .where('name', '=', JOB_NAMES.brandEvent)
    .where('key', '=', brandEventJobKey(consumer, eventId))
    // The latest job of the key: an event is enqueued once per consumer, so there is one.
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (row === undefined) return undefined;
  return {
    id: row.id,
    state: row.state === 'queued' ? 'pending' : row.state,
    attempts: Number(row.attempts),
    run_at: Number(row.run_at),
    locked_until: row.locked_until === null ? null : Number(row.locked_until),
    last_error: row.last_error,
  };
}

/** Every job of one consumer (its deliveries, whatever their state). */
export async function brandEventDeliveriesOf(db: Kysely<unknown>, consumer: string): Promise<string[]> {
  const rows = await (db as Kysely<JobTables>).selectFrom('jobs').select('key').where('name', '=', JOB_NAMES.brandEvent).execute();
  const prefix = brandEventJobKey(consumer, '');
  return rows.filter((r) => r.key.startsWith(prefix)).map((r) => r.key.slice(prefix.length));
}
