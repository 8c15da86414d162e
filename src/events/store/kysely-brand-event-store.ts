/**
 * The brand event log over the kernel's Database (both dialects): consumers and the events they are handed. The
 * events are written by the brand save hook (brand-event-save-hook.ts); their deliveries are jobs (src/jobs/).
 */
import type { Kysely } from 'kysely';
import type { BrandAnnouncement, BrandChange, BrandSavedEvent } from '../../domain/brand-changes.js';
import { fromMillis, toMillis, toSafeInteger } from '../../db/column-codec.js';
import type { Database } from '../../db/database.js';
import type { BrandEventStore } from '../brand-event-store.js';
import type { BrandEventsTable, EventTables } from './event-tables.js';

export function rowToEvent(row: BrandEventsTable): BrandSavedEvent {
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

export class KyselyBrandEventStore implements BrandEventStore {
  readonly #db: Kysely<EventTables>;

  constructor(database: Database) {
    this.#db = database.tables<EventTables>();
  }

  async subscribeBrandEvents(consumer: string, at: Date): Promise<void> {
    if (consumer.trim() === '') throw new RangeError('a consumer needs a name');
    if (consumer.includes('/')) throw new RangeError(`a consumer name holds no "/": ${consumer}`);
    await this.#db
      .insertInto('event_consumers')
      .values({ name: consumer, created_at: toMillis(at) })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
  }

  async getBrandEvent(id: string): Promise<BrandSavedEvent | null> {
    const row = await this.#db.selectFrom('brand_events').selectAll().where('id', '=', id).executeTakeFirst();
    return row === undefined ? null : rowToEvent(row);
  }
}
