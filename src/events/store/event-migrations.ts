/**
 * The events' migrations (issue 30): the same names and bodies as when they shipped, append-only. 0014_refresh adds
 * the `announce` column of `brand_events` here; the brands' part of that name adds the refresh tables
 * (brands/store/refresh-migration.ts).
 */
import type { Kysely } from 'kysely';
import type { MigrationPart, ProductMigrations } from '../../db/migrations.js';
import { newId } from '../../domain/ids.js';
import { brandEventJobKey, JOB_NAMES, type BrandEventPayload } from '../../jobs/queue.js';
import type { Millis } from '../../db/column-codec.js';

/**
 * Brand events (docs/adr/0010-brand-events-outbox.md): the `brand.saved` events, the named consumers, and one
 * delivery row per (consumer, event) that the consumer claimed, completed or retried like a job (until 0024, ADR 0049).
 */
const brandEvents: MigrationPart = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('brand_events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('brand_id', 'text', (c) => c.notNull())
      .addColumn('domain', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('changes', 'text', (c) => c.notNull())
      .addColumn('created', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('brand_events_brand_id_idx').on('brand_events').columns(['brand_id', 'created_at']).execute();
    await db.schema
      .createTable('event_consumers')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('event_deliveries')
      .addColumn('consumer', 'text', (c) => c.notNull().references('event_consumers.name').onDelete('cascade'))
      .addColumn('event_id', 'text', (c) => c.notNull().references('brand_events.id').onDelete('cascade'))
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('run_at', 'bigint', (c) => c.notNull())
      .addColumn('locked_until', 'bigint')
      .addColumn('last_error', 'text')
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('event_deliveries_pk', ['consumer', 'event_id'])
      .execute();
    // Claiming: a consumer's pending deliveries by due time, and its running ones by lease end.
    await db.schema.createIndex('event_deliveries_claim_idx').on('event_deliveries').columns(['consumer', 'state', 'run_at']).execute();
    await db.schema.createIndex('event_deliveries_lease_idx').on('event_deliveries').columns(['consumer', 'state', 'locked_until']).execute();
    // Deleting an event (pruning) cascades to its deliveries.
    await db.schema.createIndex('event_deliveries_event_id_idx').on('event_deliveries').column('event_id').execute();
  },
};

/** Rows moved per statement: bounded, whatever the backlog of an upgraded database. */
const BATCH = 500;

interface OldDeliveries {
  event_deliveries: {
    consumer: string;
    event_id: string;
    state: 'pending' | 'running' | 'done' | 'failed';
    attempts: number;
    run_at: Millis;
    locked_until: Millis | null;
    last_error: string | null;
    updated_at: Millis;
  };
  /** The jobs table as 0001 and 0005 made it (a migration keeps the shape it was written against). */
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

/**
 * 0024 (ADR 0049): a consumer's brand event deliveries become `brand.event` jobs of the one queue. The deliveries
 * still pending or running (leased) when the database is upgraded become queued jobs with their attempts and last
 * error, due when they were (a leased one when its lease ends, so a process still sending it is not doubled), so an
 * upgrade loses no work. `event_deliveries` is kept as it is (append-only) and no longer read.
 */
const leasedWork: MigrationPart = {
  async up(raw: Kysely<unknown>): Promise<void> {
    const db = raw as Kysely<OldDeliveries>;
    let after: { consumer: string; eventId: string } | null = null;
    for (;;) {
      let query = db.selectFrom('event_deliveries').selectAll().where('state', 'in', ['pending', 'running']);
      if (after !== null) {
        const { consumer, eventId } = after;
        query = query.where((eb) => eb.or([eb('consumer', '>', consumer), eb.and([eb('consumer', '=', consumer), eb('event_id', '>', eventId)])]));
      }
      const rows = await query.orderBy('consumer').orderBy('event_id').limit(BATCH).execute();
      if (rows.length === 0) return;
      await db
        .insertInto('jobs')
        .values(
          rows.map((row) => {
            const payload: BrandEventPayload = { consumer: row.consumer, eventId: row.event_id };
            const runAt = row.state === 'running' && row.locked_until !== null ? row.locked_until : row.run_at;
            return {
              id: newId('job'),
              name: JOB_NAMES.brandEvent,
              key: brandEventJobKey(row.consumer, row.event_id),
              payload: JSON.stringify(payload),
              state: 'queued' as const,
              attempts: row.attempts,
              run_at: runAt,
              locked_until: null,
              last_error: row.last_error,
              created_at: row.updated_at,
              updated_at: row.updated_at,
              owner: null,
            };
          }),
        )
        .execute();
      const last = rows[rows.length - 1]!;
      after = { consumer: last.consumer, eventId: last.event_id };
    }
  },
};

/** 0014, the brand events' part: what webhooks announce for a save. */
const refreshAnnounce: MigrationPart = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('brand_events').addColumn('announce', 'text').execute();
  },
};

export const eventMigrations: ProductMigrations = {
  '0003_brand_events': brandEvents,
  '0014_refresh': refreshAnnounce,
  '0024_leased_work': leasedWork,
};
