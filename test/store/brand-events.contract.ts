/**
 * The brand event log contract (docs/adr/0010-brand-events-outbox.md, ADR 0049): every backend runs this suite
 * against a real database, with a second OS process on the same database for the concurrency cases. One database per
 * suite run; each test uses its own consumer names and brands, and a consumer only sees events saved after it
 * subscribed, so tests never see each other's deliveries. A consumer's deliveries are its `brand.event` jobs on the
 * one queue: the suite claims, completes and retries them through the queue, as the consumer's worker pool does.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRAND_CHANGE_FIELDS } from '../../src/domain/brand-changes.js';
import type { BrandSavedEvent } from '../../src/domain/brand-changes.js';
import type { Brand } from '../../src/domain/brand.js';
import type { Database } from '../helpers/all-tables.js';
import type { BrandStore, IdentifierRef, StoredBrand } from '../../src/brands/brand-store.js';
import { brandEventKeyPrefix, JOB_NAMES, type BrandEventPayload, type JobQueue } from '../../src/jobs/queue.js';
import type { ProductStores } from '../../src/main/product-stores.js';
import type { EventTables } from '../../src/events/store/event-tables.js';
import { brandEventDeliveriesOf, brandEventDelivery } from '../events/brand-event-jobs.js';
import { sampleBrand } from './sample-brand.js';

export interface BrandEventsHarness {
  migrate(): Promise<void>;
  /** Every product's store over the same database (the job queue and the events among them). */
  stores: ProductStores;
  db: Kysely<Database>;
  /** The brand store of another OS process on the same database (opened once, closed by cleanup). */
  openPeerBrands(): Promise<Pick<BrandStore, 'saveBrand'>>;
  /** The job queue of that process. */
  openPeerQueue(): Promise<JobQueue>;
  cleanup(): Promise<void>;
}

const LEASE = 30_000;

function uniqueDomain(): string {
  return `evt-${randomBytes(5).toString('hex')}.test`;
}

function consumerName(): string {
  return `test-${randomBytes(4).toString('hex')}`;
}

function stored(brand: Brand): StoredBrand {
  const now = new Date();
  return { brand, status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now };
}

function domainRef(brand: Brand): IdentifierRef[] {
  return [{ kind: 'domain', value: brand.domain }];
}

/** A moment after every save so far: deliveries are due from the time of their save. */
function later(ms = 0): Date {
  return new Date(Date.now() + 1 + ms);
}

export function brandEventsContract(name: string, open: () => Promise<BrandEventsHarness>): void {
  describe(`Brand events contract: ${name}`, () => {
    let h: BrandEventsHarness;
    let brands: BrandStore;

    beforeAll(async () => {
      h = await open();
      brands = h.stores.brands;
      await h.migrate();
    });
    afterAll(async () => {
      await h.cleanup();
    });

    async function delivery(consumer: string, eventId: string) {
      return brandEventDelivery(h.db as Kysely<unknown>, consumer, eventId);
    }

    function subscribe(consumer: string, at: Date): Promise<void> {
      return h.stores.events.subscribeBrandEvents(consumer, at);
    }

    /** What the consumer's worker pool claims: its oldest due `brand.event` job, and the event it names. */
    async function claim(consumer: string, leaseMs: number, now: Date, queue: JobQueue = h.stores.queue): Promise<{ event: BrandSavedEvent | null; attempts: number } | null> {
      const job = await queue.claim([JOB_NAMES.brandEvent], leaseMs, now, { keyPrefix: brandEventKeyPrefix(consumer) });
      if (job === null) return null;
      return { event: await h.stores.events.getBrandEvent((job.payload as BrandEventPayload).eventId), attempts: job.attempts };
    }

    async function complete(consumer: string, eventId: string, queue: JobQueue = h.stores.queue): Promise<void> {
      const row = await delivery(consumer, eventId);
      if (row !== undefined) await queue.complete(row.id);
    }

    async function retry(consumer: string, eventId: string, error: string, retryAt: Date | null): Promise<void> {
      const row = await delivery(consumer, eventId);
      if (row !== undefined) await h.stores.queue.fail(row.id, error, retryAt);
    }

    async function eventsOf(brandId: string) {
      return (h.db as unknown as Kysely<EventTables>).selectFrom('brand_events').selectAll().where('brand_id', '=', brandId).execute();
    }

    async function saveNew(): Promise<{ brand: Brand; event: BrandSavedEvent }> {
      const brand = sampleBrand(uniqueDomain());
      return { brand, event: await brands.saveBrand(stored(brand), domainRef(brand)) };
    }

    describe('saving writes a brand.saved event', () => {
      it('with every save, naming what changed, and delivers each to a subscribed consumer', async () => {
        const consumer = consumerName();
        await subscribe(consumer, new Date());
        const brand = sampleBrand(uniqueDomain());
        const first = await brands.saveBrand(stored(brand), domainRef(brand));
        expect(first).toMatchObject({ type: 'brand.saved', brandId: brand.id, domain: brand.domain, created: true, changes: [...BRAND_CHANGE_FIELDS] });
        expect(first.id).toMatch(/^evt_/);
        expect(first.occurredAt).toBeInstanceOf(Date);
        const renamed = { ...brand, name: 'Acme Two', colors: [] };
        const second = await brands.saveBrand(stored(renamed), domainRef(brand));
        expect(second).toMatchObject({ created: false, changes: ['name', 'colors'] });
        const third = await brands.saveBrand(stored(renamed), domainRef(brand));
        expect(third).toMatchObject({ created: false, changes: [] });
        expect(await eventsOf(brand.id)).toHaveLength(3);

        const claimed: BrandSavedEvent[] = [];
        for (let c = await claim(consumer, LEASE, later()); c !== null; c = await claim(consumer, LEASE, later())) {
          expect(c.attempts).toBe(1);
          if (c.event === null) throw new Error('a claimed event is missing');
          claimed.push(c.event);
          await complete(consumer, c.event.id);
        }
        const byId = (a: BrandSavedEvent, b: BrandSavedEvent) => a.id.localeCompare(b.id);
        // The event as claimed is the event as returned by saveBrand, dates to the millisecond.
        expect(claimed.sort(byId)).toEqual([first, second, third].sort(byId));
      });

      it('diffs against the stored record, palette and non-family fields aside', async () => {
        const { brand } = await saveNew();
        const event = await brands.saveBrand(stored({ ...brand, palette: { any: 'thing' }, qualityScore: 0.1, fonts: [] }), domainRef(brand));
        expect(event.changes).toEqual([]);
      });

      it('writes neither record nor event when the save fails', async () => {
        const consumer = consumerName();
        await subscribe(consumer, new Date());
        const brand = sampleBrand(uniqueDomain());
        // A NOT NULL violation on the identifier insert, the transaction's last statement.
        const invalid = [...domainRef(brand), { kind: 'ticker', value: null as unknown as string } as IdentifierRef];
        await expect(brands.saveBrand(stored(brand), invalid)).rejects.toThrow();
        expect(await brands.getBrand(brand.id)).toBeNull();
        expect(await eventsOf(brand.id)).toEqual([]);
        expect(await claim(consumer, LEASE, later())).toBeNull();

        // Same for a brand already held: the old record stays, and only its first event exists.
        const first = await brands.saveBrand(stored(brand), domainRef(brand));
        await expect(brands.saveBrand(stored({ ...brand, name: 'Changed' }), invalid)).rejects.toThrow();
        expect((await brands.getBrand(brand.id))?.brand.name).toBe(brand.name);
        expect((await eventsOf(brand.id)).map((e) => e.id)).toEqual([first.id]);
        expect((await claim(consumer, LEASE, later()))?.event?.id).toBe(first.id);
        expect(await claim(consumer, LEASE, later())).toBeNull();
      });

      it('two processes saving a new brand at once: one event says created, the other diffs against it', async () => {
        const peer = await h.openPeerBrands();
        for (let i = 0; i < 5; i++) {
          const brand = sampleBrand(uniqueDomain());
          const one = { ...brand, name: 'One' };
          const two = { ...brand, name: 'Two' };
          const events = await Promise.all([brands.saveBrand(stored(one), domainRef(brand)), peer.saveBrand(stored(two), domainRef(brand))]);
          expect(events.filter((e) => e.created)).toHaveLength(1);
          const second = events.find((e) => !e.created);
          expect(second?.changes).toEqual(['name']);
        }
      });
    });

    describe('consumers', () => {
      it('fans an event out to every subscribed consumer; each completes independently', async () => {
        const a = consumerName();
        const b = consumerName();
        await subscribe(a, new Date());
        await subscribe(b, new Date());
        const { event } = await saveNew();
        const now = later();
        expect(await claim(a, LEASE, now)).toEqual({ event, attempts: 1 });
        expect(await claim(b, LEASE, now)).toEqual({ event, attempts: 1 });
        await complete(a, event.id);
        expect((await delivery(a, event.id))?.state).toBe('done');
        expect((await delivery(b, event.id))?.state).toBe('running');
        // b never completed: its lease expires and it gets the event again; a never does.
        const afterLease = new Date(now.getTime() + LEASE + 1);
        expect(await claim(a, LEASE, afterLease)).toBeNull();
        expect(await claim(b, LEASE, afterLease)).toEqual({ event, attempts: 2 });
        await complete(b, event.id);
        expect((await delivery(b, event.id))?.state).toBe('done');
      });

      it('does not deliver events saved before the consumer subscribed; subscribing again is harmless', async () => {
        const { event: before } = await saveNew();
        const consumer = consumerName();
        await subscribe(consumer, new Date());
        await subscribe(consumer, new Date());
        expect(await delivery(consumer, before.id)).toBeUndefined();
        const { event: after } = await saveNew();
        expect((await claim(consumer, LEASE, later()))?.event?.id).toBe(after.id);
        expect(await claim(consumer, LEASE, later())).toBeNull();
        expect(await brandEventDeliveriesOf(h.db as Kysely<unknown>, consumer)).toHaveLength(1);
      });

      it('answers null for an unknown consumer or nothing due', async () => {
        expect(await claim(consumerName(), LEASE, later())).toBeNull();
        const consumer = consumerName();
        await subscribe(consumer, new Date());
        expect(await claim(consumer, LEASE, later())).toBeNull();
      });

      it('redelivers when a lease expires (a consumer died while handling), counting attempts', async () => {
        const consumer = consumerName();
        await subscribe(consumer, new Date());
        const { event } = await saveNew();
        const now = later();
        expect(await claim(consumer, LEASE, now)).toEqual({ event, attempts: 1 });
        expect(await claim(consumer, LEASE, new Date(now.getTime() + LEASE - 1))).toBeNull();
        expect(await claim(consumer, LEASE, new Date(now.getTime() + LEASE))).toBeNull();
        const again = new Date(now.getTime() + LEASE + 1);
        expect(await claim(consumer, LEASE, again)).toEqual({ event, attempts: 2 });
        expect((await delivery(consumer, event.id))?.locked_until).toBe(again.getTime() + LEASE);
      });

      it('retries at retryAt and keeps the error', async () => {
        const consumer = consumerName();
        await subscribe(consumer, new Date());
        const { event } = await saveNew();
        const now = later();
        await claim(consumer, LEASE, now);
        const retryAt = new Date(now.getTime() + 5_000);
        await retry(consumer, event.id, 'index down', retryAt);
        expect(await delivery(consumer, event.id)).toMatchObject({ state: 'pending', run_at: retryAt.getTime(), locked_until: null, last_error: 'index down', attempts: 1 });
        expect(await claim(consumer, LEASE, new Date(retryAt.getTime() - 1))).toBeNull();
        expect(await claim(consumer, LEASE, retryAt)).toEqual({ event, attempts: 2 });
        await complete(consumer, event.id);
        expect((await delivery(consumer, event.id))?.state).toBe('done');
      });

      it('gives up when retryAt is null: failed, never delivered again', async () => {
        const consumer = consumerName();
        await subscribe(consumer, new Date());
        const { event } = await saveNew();
        await claim(consumer, LEASE, later());
        await retry(consumer, event.id, 'x'.repeat(10_000), null);
        const row = await delivery(consumer, event.id);
        expect(row).toMatchObject({ state: 'failed', locked_until: null });
        expect(row?.last_error).toHaveLength(4000);
        expect(await claim(consumer, LEASE, later(100 * LEASE))).toBeNull();
      });

      it('ignores complete and retry of a delivery that is not claimed', async () => {
        const consumer = consumerName();
        await subscribe(consumer, new Date());
        const { event } = await saveNew();
        // Not claimed yet: nothing happens.
        await complete(consumer, event.id);
        await retry(consumer, event.id, 'late', null);
        expect((await delivery(consumer, event.id))?.state).toBe('pending');
        await claim(consumer, LEASE, later());
        await complete(consumer, event.id);
        // A late retry from a claimer whose lease had expired cannot revive a done delivery.
        await retry(consumer, event.id, 'late', later());
        expect(await delivery(consumer, event.id)).toMatchObject({ state: 'done', last_error: null });
      });

      it('never gives the same delivery to two concurrent claimers (two processes)', async () => {
        const consumer = consumerName();
        await subscribe(consumer, new Date());
        const total = 30;
        const saved = new Set<string>();
        for (let i = 0; i < total; i++) saved.add((await saveNew()).event.id);
        const peer = await h.openPeerQueue();
        const now = later();
        const claimed: string[] = [];
        async function drain(q: JobQueue): Promise<void> {
          for (let c = await claim(consumer, LEASE, now, q); c !== null; c = await claim(consumer, LEASE, now, q)) {
            const id = c.event?.id ?? '';
            claimed.push(id);
            await complete(consumer, id, q);
          }
        }
        await Promise.all([drain(h.stores.queue), drain(peer), drain(h.stores.queue), drain(peer)]);
        expect(claimed).toHaveLength(total);
        expect(new Set(claimed)).toEqual(saved);
      });
    });
  });
}
