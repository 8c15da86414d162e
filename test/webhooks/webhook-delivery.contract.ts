/**
 * The webhook outbox part of the webhooks' store contract (WebhookDeliveryStore, webhook-delivery-rows.ts; ADR 0031), run on
 * every backend against a real database: fan-out of deliveries with their `webhook.deliver` jobs in one transaction,
 * leased claims through the one job queue (one sender per delivery, also from two connections at once; ADR 0049),
 * attempts recorded once (compare-and-set on the attempt count), postponing, the 14-day disabling rule and the daily
 * abandon-notice claim. The suite claims and settles the jobs as the sender does (webhook-sender.ts `handle`).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Plan } from '../../src/domain/accounts.js';
import { newId } from '../../src/domain/ids.js';
import type { StoredWebhook, WebhookEventKind } from '../../src/domain/webhooks.js';
import type { ClaimedWebhookDelivery, WebhookAttemptRecord, WebhookFanOut, WebhookStore } from '../../src/webhooks/webhook-store.js';
import type { Database } from '../../src/db/database.js';
import { brandEventKeyPrefix, JOB_NAMES, type BrandEventPayload, type JobQueue, type WebhookDeliverPayload } from '../../src/jobs/queue.js';
import { SqlJobQueue } from '../../src/jobs/sql/sql-job-queue.js';
import type { ProductStores } from '../../src/main/product-stores.js';
import { sampleBrand } from '../store/sample-brand.js';

const T0 = new Date('2026-03-04T05:06:07.890Z');
const at = (ms: number): Date => new Date(T0.getTime() + ms);
const LEASE = 60_000;
/** How long the sender lets a delivery of a disabled webhook wait before it looks again (webhook-sender.ts default). */
const WAITING_MS = 60_000;

type Harness = { migrate(): Promise<void>; stores: ProductStores; cleanup: () => Promise<void>; openPeer?: () => Promise<{ stores: ProductStores; database: Database }> };

export function webhookDeliveryContract(name: string, open: () => Promise<Harness>): void {
  describe(`Store contract, webhook delivery outbox: ${name}`, () => {
    /** Migrates, makes organizations and saves brands; the webhooks' store is `webhooks`. */
    let migrate: () => Promise<void>;
    let stores: ProductStores;
    let webhooks: WebhookStore;
    let cleanup: () => Promise<void>;
    let openPeer: Harness['openPeer'];
    /** The job each delivery was last claimed with. */
    const jobOf = new Map<string, string>();

    beforeAll(async () => {
      ({ migrate, stores, cleanup, openPeer } = await open());
      webhooks = stores.webhooks;
      await migrate();
    });
    afterAll(async () => {
      await cleanup();
    });
    // Claims take any due delivery: each test deletes its webhooks (and so their deliveries) for the next one.
    const made: StoredWebhook[] = [];
    afterEach(async () => {
      for (const w of made.splice(0)) await webhooks.deleteWebhook(w.orgId, w.id);
    });

    /** Every test works on its own domain, and claims only what it made due, so tests never see each other's rows. */
    function domain(): string {
      return `d${randomBytes(6).toString('hex')}.com`;
    }

    async function org(plan: Plan = 'paid'): Promise<string> {
      const id = `org_${randomBytes(8).toString('hex')}`;
      await stores.billing.createOrganization({ id, name: 'Org', plan, quota: 100, billingContacts: ['ops@org.test'], createdAt: T0 });
      return id;
    }

    async function webhook(orgId: string, domains: string[], overrides: Partial<StoredWebhook> = {}): Promise<StoredWebhook> {
      const w: StoredWebhook = {
        id: newId('whk'),
        orgId,
        name: 'Receiver',
        url: 'https://hooks.example.com/brandbase',
        events: ['brand.rebranded', 'brand.updated'],
        enabled: true,
        disabledReason: null,
        hasAuthorization: false,
        createdAt: T0,
        updatedAt: T0,
        lastAcceptedAt: null,
        secretSealed: 'v1.secret',
        authorizationSealed: null,
        previousSecretSealed: null,
        previousSecretExpiresAt: null,
        ...overrides,
      };
      await webhooks.insertWebhook(w);
      made.push(w);
      await webhooks.addWebhookSubscriptions(orgId, w.id, domains, T0);
      return w;
    }

    function fanOut(d: string, createdAt: Date, kind: WebhookEventKind = 'brand.rebranded', eventId = newId('evt')): WebhookFanOut {
      return { eventId, kind, domain: d, payload: `{"type":"${kind}","n":"ü ✓"}`, createdAt };
    }

    /**
     * What the sender does with a claimed `webhook.deliver` job before it sends: a delivery gone (its webhook deleted
     * by an earlier test) completes its job; one of a disabled webhook or a free-plan organization waits; the first
     * sendable one is returned (leased for LEASE).
     */
    async function claimWebhookDelivery(now: Date, leaseMs: number, s: WebhookStore = webhooks, queue: JobQueue = stores.queue): Promise<ClaimedWebhookDelivery | null> {
      for (;;) {
        const job = await queue.claim([JOB_NAMES.webhookDeliver], leaseMs, now);
        if (job === null) return null;
        const found = await s.webhookDeliveryToSend((job.payload as WebhookDeliverPayload).deliveryId);
        if (found === null || !found.pending) await queue.complete(job.id);
        else if (!found.sendable) await queue.fail(job.id, 'waiting', new Date(now.getTime() + WAITING_MS));
        else {
          jobOf.set(found.delivery.id, job.id);
          return found.delivery;
        }
      }
    }

    /** The attempt recorded as the sender records it: with its job, settled in the same transaction. */
    async function recordWebhookAttempt(record: WebhookAttemptRecord): Promise<boolean> {
      const jobId = jobOf.get(record.deliveryId);
      return webhooks.recordWebhookAttempt(jobId === undefined ? record : { ...record, jobId });
    }

    async function postponeWebhookDelivery(deliveryId: string, until: Date): Promise<void> {
      await webhooks.postponeWebhookDelivery(deliveryId, until);
      await stores.queue.fail(jobOf.get(deliveryId) ?? '', 'no credit', until);
    }

    function attempt(deliveryId: string, n: number, outcome: WebhookAttemptRecord['outcome'], startedAt: Date, next: Date | null = null): WebhookAttemptRecord {
      return {
        deliveryId,
        attempt: n,
        startedAt,
        statusCode: outcome === 'delivered' ? 200 : 500,
        latencyMs: 12.6,
        responseExcerpt: outcome === 'delivered' ? 'ok' : 'x'.repeat(5000),
        error: null,
        sourceAddress: '127.0.0.1',
        outcome,
        nextAttemptAt: next,
      };
    }

    /** Claims until nothing is due at `now`; returns the ids claimed (leased for LEASE). */
    async function claimAll(now: Date, s: WebhookStore = webhooks, queue: JobQueue = stores.queue): Promise<string[]> {
      const ids: string[] = [];
      for (;;) {
        const claimed = await claimWebhookDelivery(now, LEASE, s, queue);
        if (claimed === null) return ids;
        ids.push(claimed.id);
      }
    }

    it('fans out once per enabled paid webhook subscribed to the domain and the kind, each delivery with its job', async () => {
      const d = domain();
      const [paid, free] = [await org(), await org('free')];
      const both = await webhook(paid, [d]);
      const rebrandsOnly = await webhook(paid, [d], { events: ['brand.rebranded'] });
      await webhook(paid, [d], { enabled: false, disabledReason: 'manual' });
      await webhook(free, [d]);
      await webhook(paid, [domain()]);
      // The brand.saved event as the store wrote it, with a pending delivery (its job) to the consumer.
      await stores.events.subscribeBrandEvents('contract-webhooks', T0);
      const event = await stores.brands.saveBrand({ brand: sampleBrand(d), status: 'indexed', crawledAt: T0, createdAt: T0, updatedAt: T0 }, [{ kind: 'domain', value: d }]);
      // The save writes its event with the saving process's clock.
      const eventJob = await stores.queue.claim([JOB_NAMES.brandEvent], LEASE, new Date(Date.now() + 1000), { keyPrefix: brandEventKeyPrefix('contract-webhooks') });
      expect((eventJob?.payload as BrandEventPayload | undefined)?.eventId).toBe(event.id);

      expect(await webhooks.fanOutWebhookEvent(fanOut(d, at(2), 'brand.updated', event.id))).toBe(1);
      // The consumer's job completes once the fan-out committed; a repeat (the job run again) adds nothing, and
      // the event is not claimable again, even after its lease.
      await stores.queue.complete(eventJob?.id ?? '');
      expect(await webhooks.fanOutWebhookEvent(fanOut(d, at(3), 'brand.updated', event.id))).toBe(0);
      expect(await stores.queue.claim([JOB_NAMES.brandEvent], LEASE, new Date(Date.now() + LEASE * 10), { keyPrefix: brandEventKeyPrefix('contract-webhooks') })).toBeNull();
      const deliveries = await webhooks.listWebhookDeliveries(paid, both.id, { from: null, to: null, after: null, limit: 10 });
      expect(deliveries).toEqual([
        { id: expect.stringMatching(/^msg_/), webhookId: both.id, orgId: paid, eventId: event.id, kind: 'brand.updated', domain: d, state: 'pending', attempts: 0, createdAt: at(2), deliveredAt: null, nextAttemptAt: at(2) },
      ]);
      // Its job, committed with it, is due at its time and names it.
      expect(await claimWebhookDelivery(at(1), LEASE)).toBeNull();
      expect((await claimWebhookDelivery(at(2), LEASE))?.id).toBe(deliveries[0]?.id);
      expect(await webhooks.listWebhookDeliveries(paid, rebrandsOnly.id, { from: null, to: null, after: null, limit: 10 })).toEqual([]);
      // A rebrand reaches both.
      expect(await webhooks.fanOutWebhookEvent(fanOut(d, at(4)))).toBe(2);
    });

    it('leases the oldest due delivery to one claimer and carries what the sender needs', async () => {
      const d = domain();
      const o = await org();
      const w = await webhook(o, [d], { previousSecretSealed: 'v1.old', previousSecretExpiresAt: at(1000), authorizationSealed: 'v1.auth', hasAuthorization: true });
      const base = 10 * 86_400_000;
      await webhooks.fanOutWebhookEvent(fanOut(d, at(base + 2)));
      await webhooks.fanOutWebhookEvent(fanOut(d, at(base + 1)));
      // Not due before its time.
      expect(await claimWebhookDelivery(at(base), LEASE)).toBeNull();
      const first = await claimWebhookDelivery(at(base + 5), LEASE);
      expect(first).toMatchObject({
        webhookId: w.id,
        orgId: o,
        kind: 'brand.rebranded',
        domain: d,
        payload: '{"type":"brand.rebranded","n":"ü ✓"}',
        attempts: 0,
        url: 'https://hooks.example.com/brandbase',
        secretSealed: 'v1.secret',
        previousSecretSealed: 'v1.old',
        previousSecretExpiresAt: at(1000),
        authorizationSealed: 'v1.auth',
      });
      const listed = await webhooks.listWebhookDeliveries(o, w.id, { from: null, to: null, after: null, limit: 10 });
      expect(listed.find((x) => x.id === first?.id)?.createdAt).toEqual(at(base + 1));
      const second = await claimWebhookDelivery(at(base + 5), LEASE);
      expect(second?.id).not.toBe(first?.id);
      expect(await claimWebhookDelivery(at(base + 5), LEASE)).toBeNull();
      // An expired lease (the sender died) makes it claimable again: the queue's leases end after their last millisecond.
      expect(await claimAll(at(base + 5 + LEASE + 1))).toEqual(expect.arrayContaining([first?.id, second?.id]));
    });

    it('never leases one delivery to two connections claiming at once', async () => {
      if (openPeer === undefined) return;
      const peer = await openPeer();
      const d = domain();
      const o = await org();
      await webhook(o, [d]);
      const base = 20 * 86_400_000;
      for (let i = 0; i < 12; i++) await webhooks.fanOutWebhookEvent(fanOut(d, at(base)));
      const [mine, theirs] = await Promise.all([claimAll(at(base + 1)), claimAll(at(base + 1), peer.stores.webhooks, new SqlJobQueue(peer.database))]);
      expect(mine.length + theirs.length).toBe(12);
      expect(new Set([...mine, ...theirs]).size).toBe(12);
    });

    it('records an attempt once, against the attempt count it was claimed with', async () => {
      const d = domain();
      const o = await org();
      const w = await webhook(o, [d]);
      const base = 30 * 86_400_000;
      await webhooks.fanOutWebhookEvent(fanOut(d, at(base)));
      const claimed = await claimWebhookDelivery(at(base), LEASE);
      if (claimed === null) throw new Error('nothing claimed');
      expect(await recordWebhookAttempt(attempt(claimed.id, 1, 'retry', at(base), at(base + 5000)))).toBe(true);
      // A sender that outlived its lease records the same attempt: refused, nothing written.
      expect(await recordWebhookAttempt(attempt(claimed.id, 1, 'delivered', at(base + 1)))).toBe(false);
      // A retry is due at its time, with the attempt count it has.
      expect(await claimWebhookDelivery(at(base + 4999), LEASE)).toBeNull();
      const again = await claimWebhookDelivery(at(base + 5000), LEASE);
      expect(again).toMatchObject({ id: claimed.id, attempts: 1 });
      expect(await recordWebhookAttempt(attempt(claimed.id, 2, 'delivered', at(base + 5000)))).toBe(true);
      expect(await recordWebhookAttempt(attempt(claimed.id, 3, 'retry', at(base + 6000), at(base + 7000)))).toBe(false);
      expect(await claimWebhookDelivery(at(base + 86_400_000), LEASE)).toBeNull();

      const [delivery] = await webhooks.listWebhookDeliveries(o, w.id, { from: null, to: null, after: null, limit: 10 });
      expect(delivery).toMatchObject({ state: 'delivered', attempts: 2, deliveredAt: at(base + 5013), nextAttemptAt: null });
      const attempts = (await webhooks.listWebhookAttempts([claimed.id])).get(claimed.id);
      expect(attempts?.map((a) => [a.attempt, a.statusCode, a.latencyMs])).toEqual([[1, 500, 13], [2, 200, 13]]);
      expect(attempts?.[0]?.responseExcerpt).toHaveLength(1024);
      expect(attempts?.[0]?.sourceAddress).toBe('127.0.0.1');
      expect((await webhooks.getWebhook(o, w.id))?.lastAcceptedAt).toEqual(at(base + 5013));
    });

    it('postpones a leased delivery without an attempt', async () => {
      const d = domain();
      const o = await org();
      const w = await webhook(o, [d]);
      const base = 40 * 86_400_000;
      await webhooks.fanOutWebhookEvent(fanOut(d, at(base)));
      const claimed = await claimWebhookDelivery(at(base), LEASE);
      await postponeWebhookDelivery(claimed?.id ?? '', at(base + 3_600_000));
      expect(await claimWebhookDelivery(at(base + 3_599_999), LEASE)).toBeNull();
      expect(await claimWebhookDelivery(at(base + 3_600_000), LEASE)).toMatchObject({ id: claimed?.id, attempts: 0 });
      expect((await webhooks.listWebhookAttempts([claimed?.id ?? ''])).get(claimed?.id ?? '') ?? []).toEqual([]);
      expect(await webhooks.listWebhookDeliveries(o, w.id, { from: null, to: null, after: null, limit: 10 })).toHaveLength(1);
    });

    it('disables webhooks failing since the cut-off, once, and an accepted delivery or re-enabling resets the window', async () => {
      const base = 50 * 86_400_000;
      const day = 86_400_000;
      const o = await org();
      const [failing, recovered] = [domain(), domain()];
      const wFailing = await webhook(o, [failing]);
      const wRecovered = await webhook(o, [recovered]);
      for (const d of [failing, recovered]) await webhooks.fanOutWebhookEvent(fanOut(d, at(base)));
      // Both fail at base; the second recovers a day later.
      for (const id of await claimAll(at(base))) expect(await recordWebhookAttempt(attempt(id, 1, 'retry', at(base), at(base + day)))).toBe(true);
      const retried = await claimAll(at(base + day));
      for (const id of retried) {
        const mine = (await webhooks.listWebhookDeliveries(o, wRecovered.id, { from: null, to: null, after: null, limit: 10 })).some((x) => x.id === id);
        await recordWebhookAttempt(mine ? attempt(id, 2, 'delivered', at(base + day)) : attempt(id, 2, 'retry', at(base + day), at(base + 2 * day)));
      }
      // failing_since is the first failure, not the last.
      expect(await webhooks.disableFailingWebhooks(at(base - 1), at(base + 14 * day))).toEqual([]);
      const disabled = await webhooks.disableFailingWebhooks(at(base), at(base + 14 * day));
      expect(disabled).toEqual([{ id: wFailing.id, orgId: o, name: 'Receiver' }]);
      expect(await webhooks.disableFailingWebhooks(at(base), at(base + 14 * day))).toEqual([]);
      expect(await webhooks.getWebhook(o, wFailing.id)).toMatchObject({ enabled: false, disabledReason: 'failing', updatedAt: at(base + 14 * day) });
      expect((await webhooks.getWebhook(o, wRecovered.id))?.enabled).toBe(true);
      // Disabled: its pending delivery stays but is not claimed; enabled again, it is, in a new window.
      expect(await claimWebhookDelivery(at(base + 20 * day), LEASE)).toBeNull();
      await webhooks.updateWebhook(o, wFailing.id, { enabled: true }, at(base + 20 * day));
      expect(await webhooks.disableFailingWebhooks(at(base + 20 * day), at(base + 20 * day))).toEqual([]);
      expect((await claimWebhookDelivery(at(base + 20 * day), LEASE))?.webhookId).toBe(wFailing.id);
    });

    it('gives the abandon notice of a webhook to one caller per interval', async () => {
      const o = await org();
      const w = await webhook(o, [domain()]);
      const day = 86_400_000;
      const claims = await Promise.all([webhooks.claimAbandonNotice(w.id, at(0), day), webhooks.claimAbandonNotice(w.id, at(0), day)]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await webhooks.claimAbandonNotice(w.id, at(day - 1), day)).toBe(false);
      expect(await webhooks.claimAbandonNotice(w.id, at(day), day)).toBe(true);
      expect(await webhooks.claimAbandonNotice('whk_unknown', at(day), day)).toBe(false);
    });
  });
}
