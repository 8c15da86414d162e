/**
 * The brand event log (an outbox, docs/adr/0010-brand-events-outbox.md, ADR 0049): every `brand.saved` event is
 * delivered at least once to every consumer subscribed when it was saved. The events' brand save hook
 * (store/brand-event-save-hook.ts) writes the event and one `brand.event` job per subscribed consumer in the saving
 * transaction; the jobs are leased, retried and purged by the one job queue (src/jobs/), and a consumer
 * (brand-event-consumer.ts) runs them with the one worker pool. Consumers must be idempotent.
 */
import type { BrandSavedEvent } from '../domain/brand-changes.js';

export interface BrandEventStore {
  /**
   * Registers a consumer (idempotent); events saved from now on are delivered to it. A name is not empty and holds
   * no `/` (its jobs' keys start with `name/`).
   */
  subscribeBrandEvents(consumer: string, at: Date): Promise<void>;
  /** The event as saveBrand returned it, or null when it is gone (its brand was deleted). */
  getBrandEvent(id: string): Promise<BrandSavedEvent | null>;
}
