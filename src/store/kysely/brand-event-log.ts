/**
 * The brand event log for KyselyStore (both dialects): the `brand.saved` event written inside saveBrand's
 * transaction, its fan-out to the subscribed consumers, and the consumers' claim / complete / retry. Deliveries
 * work like jobs (src/jobs/sql/sql-job-queue.ts): one atomic UPDATE ... RETURNING claims the oldest due delivery,
 * with FOR UPDATE SKIP LOCKED on PostgreSQL; an expired lease makes a delivery claimable again.
 * See docs/adr/0010-brand-events-outbox.md.
 */
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { BrandAnnouncement, BrandChange, BrandSavedEvent } from '../../domain/brand-changes.js';
import type { ClaimedBrandEvent } from '../store.js';
import { fromMillis, toMillis, toSafeInteger } from '../../db/column-codec.js';
import type { BrandEventsTable, Database } from './schema.js';
import { CURRENT_SCHEMA, type DialectQuirks } from '../../db/dialect-quirks.js';
import type { StoredBrand } from '../../brands/brand-store.js';
import { rowToBrand } from './row-mapping.js';

/** Error texts are kept for operators, not archived. */
const MAX_ERROR_LENGTH = 4000;

function rowToEvent(row: BrandEventsTable): BrandSavedEvent {
  return {
    id: row.id,
    type: 'brand.saved',
    brandId: row.brand_id,
    domain: row.domain,
    created: toSafeInteger(row.created) === 1,
    changes: JSON.parse(row.changes) as BrandChange[],
    occurredAt: fromMillis(row.created_at),
    announce: row.announce === null || row.announce === undefined ? null : (JSON.parse(row.announce) as BrandAnnouncement),
  };
}

/**
 * The record a save replaces, read inside the save's write transaction. SQLite's `begin immediate` already
 * serializes writers; on PostgreSQL a transaction-scoped advisory lock per (schema, brand id) makes two concurrent
 * saves of one brand take turns, the brand not existing yet included (a row lock would not cover that case).
 */
export async function previousBrandForSave(trx: Kysely<Database>, quirks: DialectQuirks, brandId: string): Promise<StoredBrand | null> {
  await quirks.transactionLock(trx as Kysely<unknown>, { name: ['brandbase.brand.save'], subname: [CURRENT_SCHEMA, ':', brandId] });
  // The whole record: the decision reads its brand and crawl time, the save hooks the rest (one read per save).
  const row = await trx.selectFrom('brands').selectAll().where('id', '=', brandId).executeTakeFirst();
  return row === undefined ? null : rowToBrand(row);
}

/**
 * Writes the event (decided by brands/brand-save-decision.ts) and one pending delivery per subscribed consumer
 * (one INSERT ... SELECT), inside `trx`.
 */
export async function appendBrandSavedEvent(trx: Kysely<Database>, event: BrandSavedEvent): Promise<void> {
  const at = toMillis(event.occurredAt);
  await trx
    .insertInto('brand_events')
    .values({
      id: event.id,
      brand_id: event.brandId,
      domain: event.domain,
      type: event.type,
      changes: JSON.stringify(event.changes),
      created: event.created ? 1 : 0,
      created_at: at,
      announce: event.announce === null ? null : JSON.stringify(event.announce),
    })
    .execute();
  // Casts: PostgreSQL types a bare parameter in a select list as text, which a bigint column refuses.
  await trx
    .insertInto('event_deliveries')
    .columns(['consumer', 'event_id', 'state', 'attempts', 'run_at', 'updated_at'])
    .expression((eb) =>
      eb
        .selectFrom('event_consumers')
        .select([
          'name',
          sql<string>`cast(${event.id} as text)`.as('event_id'),
          sql<'pending'>`'pending'`.as('state'),
          sql<number>`0`.as('attempts'),
          sql<number>`cast(${at} as bigint)`.as('run_at'),
          sql<number>`cast(${at} as bigint)`.as('updated_at'),
        ]),
    )
    .execute();
}

export async function subscribeBrandEvents(db: Kysely<Database>, consumer: string, at: Date): Promise<void> {
  if (consumer.trim() === '') throw new RangeError('a consumer needs a name');
  await db
    .insertInto('event_consumers')
    .values({ name: consumer, created_at: toMillis(at) })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

export async function claimBrandEvent(db: Kysely<Database>, quirks: DialectQuirks, consumer: string, leaseMs: number, now: Date): Promise<ClaimedBrandEvent | null> {
  if (!Number.isSafeInteger(leaseMs) || leaseMs <= 0) throw new RangeError(`leaseMs must be a positive integer, got ${leaseMs}`);
  const nowMs = toMillis(now);
  const next = db
    .selectFrom('event_deliveries')
    .select('event_id')
    .where('consumer', '=', consumer)
    .where((eb) =>
      eb.or([
        eb.and([eb('state', '=', 'pending'), eb('run_at', '<=', nowMs)]),
        eb.and([eb('state', '=', 'running'), eb('locked_until', '<', nowMs)]),
      ]),
    )
    .orderBy('run_at')
    .orderBy('event_id')
    .limit(1)
    .$call((qb) => quirks.lockRows(qb, { mode: 'update', skipLocked: true }));
  const claimed = await db
    .updateTable('event_deliveries')
    .set((eb) => ({ state: 'running', attempts: eb('attempts', '+', 1), locked_until: nowMs + leaseMs, updated_at: nowMs }))
    .where('consumer', '=', consumer)
    .where('event_id', '=', next)
    .returning(['event_id', 'attempts'])
    .executeTakeFirst();
  if (claimed === undefined) return null;
  // Events are never updated, so reading it outside the claim's statement is safe.
  const row = await db.selectFrom('brand_events').selectAll().where('id', '=', claimed.event_id).executeTakeFirstOrThrow();
  return { event: rowToEvent(row), attempts: toSafeInteger(claimed.attempts) };
}

// complete and retry act on running deliveries only, so a late call cannot revive a finished delivery.

export async function completeBrandEvent(db: Kysely<Database>, consumer: string, eventId: string): Promise<void> {
  await db
    .updateTable('event_deliveries')
    .set({ state: 'done', locked_until: null, updated_at: Date.now() })
    .where('consumer', '=', consumer)
    .where('event_id', '=', eventId)
    .where('state', '=', 'running')
    .execute();
}

export async function retryBrandEvent(db: Kysely<Database>, consumer: string, eventId: string, error: string, retryAt: Date | null): Promise<void> {
  await db
    .updateTable('event_deliveries')
    .set({
      state: retryAt === null ? 'failed' : 'pending',
      ...(retryAt === null ? {} : { run_at: toMillis(retryAt) }),
      locked_until: null,
      last_error: error.slice(0, MAX_ERROR_LENGTH),
      updated_at: Date.now(),
    })
    .where('consumer', '=', consumer)
    .where('event_id', '=', eventId)
    .where('state', '=', 'running')
    .execute();
}
