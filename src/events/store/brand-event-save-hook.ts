/**
 * The events' brand save hook (brands/brand-save-hooks.ts; issue 30, ADR 0049): inside the saving transaction it
 * writes the `brand.saved` event the save decided (brands/brand-save-decision.ts) and enqueues one `brand.event` job
 * per subscribed consumer, so the record, its event and the event's deliveries commit or roll back together. The
 * brand store writes no event itself.
 */
import type { Kysely } from 'kysely';
import type { BrandSave, BrandSaveHook } from '../../brands/brand-save-hooks.js';
import { toMillis } from '../../db/column-codec.js';
import type { DbTransaction } from '../../db/database.js';
import { brandEventJobKey, JOB_NAMES, type JobQueue } from '../../jobs/queue.js';
import type { EventTables } from './event-tables.js';

export class BrandEventSaveHook implements BrandSaveHook {
  constructor(private readonly queue: Pick<JobQueue, 'enqueue'>) {}

  async onBrandSaved(tx: DbTransaction<unknown>, save: BrandSave): Promise<void> {
    const trx = tx as Kysely<EventTables>;
    const { event } = save;
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
    // Ordered, so that concurrent saves enqueue in the same order (no lock-order surprises on PostgreSQL).
    const consumers = await trx.selectFrom('event_consumers').select('name').orderBy('name').execute();
    for (const { name } of consumers) {
      // The operator's own work (owner null), due from the save's time; no bound: an event is never dropped.
      await this.queue.enqueue(JOB_NAMES.brandEvent, brandEventJobKey(name, event.id), { consumer: name, eventId: event.id }, { tx, runAt: event.occurredAt, owner: null });
    }
  }
}
