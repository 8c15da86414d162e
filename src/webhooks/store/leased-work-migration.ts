/**
 * 0024 (ADR 0049), the webhook outbox's part: every delivery still pending when the database is upgraded gets its
 * `webhook.deliver` job, due when the delivery was (or when a sender's lease on it ends, so a process still sending
 * it is not doubled), so an upgrade loses no work. The claim columns (`lease_until`, `next_attempt_at` as a claim
 * condition) stay (append-only) and are no longer read for claiming; `next_attempt_at` is still what users see.
 */
import type { Kysely } from 'kysely';
import type { Millis } from '../../db/column-codec.js';
import type { MigrationPart } from '../../db/migrations.js';
import { newId } from '../../domain/ids.js';
import { JOB_NAMES, type WebhookDeliverPayload } from '../../jobs/queue.js';
import type { WebhookDeliveriesTable } from './webhook-tables.js';

/** The tables this migration reads and writes, as 0001, 0005, 0013 and 0015 made them (a migration keeps the shape it was written against). */
interface Database {
  webhook_deliveries: WebhookDeliveriesTable;
  jobs: {
    id: string;
    name: string;
    key: string;
    payload: string;
    state: 'queued' | 'running' | 'done' | 'failed';
    attempts: number;
    run_at: Millis;
    locked_until: Millis | null;
    last_error: string | null;
    created_at: Millis;
    updated_at: Millis;
    owner: string | null;
  };
}

/** Rows moved per statement: bounded, whatever the backlog of an upgraded database. */
const BATCH = 500;

export const leasedWorkMigration: MigrationPart = {
  async up(raw: Kysely<unknown>): Promise<void> {
    const db = raw as Kysely<Database>;
    let after: string | null = null;
    for (;;) {
      let query = db.selectFrom('webhook_deliveries').select(['id', 'next_attempt_at', 'lease_until', 'created_at']).where('state', '=', 'pending');
      if (after !== null) query = query.where('id', '>', after);
      const rows = await query.orderBy('id').limit(BATCH).execute();
      if (rows.length === 0) return;
      await db
        .insertInto('jobs')
        .values(
          rows.map((row) => {
            const payload: WebhookDeliverPayload = { deliveryId: row.id };
            const due = Number(row.next_attempt_at ?? row.created_at);
            return {
              id: newId('job'),
              name: JOB_NAMES.webhookDeliver,
              key: row.id,
              payload: JSON.stringify(payload),
              state: 'queued' as const,
              attempts: 0,
              run_at: Math.max(due, Number(row.lease_until ?? 0)),
              locked_until: null,
              last_error: null,
              created_at: Number(row.created_at),
              updated_at: Number(row.created_at),
              owner: null,
            };
          }),
        )
        .execute();
      after = rows[rows.length - 1]!.id;
    }
  },
};
