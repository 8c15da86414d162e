/**
 * The webhook management part of the webhooks' store contract (WebhookAdminStore, webhook-admin-rows.ts), run on every
 * backend against a real database: organization scoping, patching, secret rotation in one statement, subscriptions
 * (idempotent, chunked), delivery paging in (created_at desc, id desc) order with bounds, attempts, and deletion of
 * everything a webhook owns.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import type { StoredWebhook, WebhookDelivery } from '../../src/domain/webhooks.js';
import type { ProductStores } from '../../src/main/product-stores.js';
import type { WebhookStore } from '../../src/webhooks/webhook-store.js';

const T0 = new Date('2026-01-02T03:04:05.678Z');
const at = (ms: number): Date => new Date(T0.getTime() + ms);

export function webhookAdminContract(name: string, open: () => Promise<{ migrate(): Promise<void>; stores: ProductStores; cleanup: () => Promise<void> }>): void {
  describe(`Store contract, webhook management: ${name}`, () => {
    /** Migrates, and makes the organizations the webhooks belong to. */
    let migrate: () => Promise<void>;
    let webhooks: WebhookStore;
    let stores: ProductStores;
    let cleanup: () => Promise<void>;

    beforeAll(async () => {
      ({ migrate, stores, cleanup } = await open());
      webhooks = stores.webhooks;
      await migrate();
    });
    afterAll(async () => {
      await cleanup();
    });

    async function org(): Promise<string> {
      const id = `org_${randomBytes(8).toString('hex')}`;
      await stores.billing.createOrganization({ id, name: 'Org', plan: 'paid', quota: 100, createdAt: T0 });
      return id;
    }

    function webhook(orgId: string, overrides: Partial<StoredWebhook> = {}): StoredWebhook {
      return {
        id: newId('whk'),
        orgId,
        name: 'Receiver',
        url: 'https://hooks.example.com/brandbase',
        events: ['brand.rebranded'],
        enabled: true,
        disabledReason: null,
        hasAuthorization: true,
        createdAt: T0,
        updatedAt: T0,
        lastAcceptedAt: null,
        secretSealed: 'v1.secret-a',
        authorizationSealed: 'v1.auth',
        previousSecretSealed: null,
        previousSecretExpiresAt: null,
        ...overrides,
      };
    }

    function delivery(w: StoredWebhook, createdAt: Date, id = newId('msg')) {
      return { id, webhookId: w.id, orgId: w.orgId, eventId: newId('evt'), kind: 'brand.updated' as const, domain: 'acme.com', payload: '{"type":"brand.updated"}', createdAt, nextAttemptAt: createdAt };
    }

    it('round-trips a webhook, and another organization never reads or writes it', async () => {
      const [mine, other] = [await org(), await org()];
      const w = webhook(mine);
      await webhooks.insertWebhook(w);
      expect(await webhooks.getWebhook(mine, w.id)).toEqual(w);
      expect(await webhooks.getWebhook(other, w.id)).toBeNull();
      expect(await webhooks.updateWebhook(other, w.id, { name: 'stolen' }, at(1))).toBeNull();
      expect(await webhooks.rotateWebhookSecret(other, w.id, { secretSealed: 'x', previousExpiresAt: null }, at(1))).toBeNull();
      expect(await webhooks.addWebhookSubscriptions(other, w.id, ['acme.com'], at(1))).toBeNull();
      expect(await webhooks.removeWebhookSubscriptions(other, w.id, ['acme.com'])).toBeNull();
      expect(await webhooks.deleteWebhook(other, w.id)).toBe(false);
      expect(await webhooks.listWebhooks(other, null, 10)).toEqual([]);
      expect((await webhooks.getWebhook(mine, w.id))?.name).toBe('Receiver');
    });

    it('patches only what is given; disabling says manual, enabling clears it', async () => {
      const o = await org();
      const w = webhook(o);
      await webhooks.insertWebhook(w);
      const disabled = await webhooks.updateWebhook(o, w.id, { enabled: false, authorizationSealed: null }, at(10));
      expect(disabled).toMatchObject({ enabled: false, disabledReason: 'manual', hasAuthorization: false, authorizationSealed: null, name: 'Receiver', updatedAt: at(10) });
      const enabled = await webhooks.updateWebhook(o, w.id, { enabled: true, events: ['brand.rebranded', 'brand.updated'], url: 'https://b.example.com/' }, at(20));
      expect(enabled).toMatchObject({ enabled: true, disabledReason: null, events: ['brand.rebranded', 'brand.updated'], url: 'https://b.example.com/', secretSealed: 'v1.secret-a' });
    });

    it('rotation moves the current secret to previous in one statement, or drops it', async () => {
      const o = await org();
      const w = webhook(o);
      await webhooks.insertWebhook(w);
      const kept = await webhooks.rotateWebhookSecret(o, w.id, { secretSealed: 'v1.secret-b', previousExpiresAt: at(86_400_000) }, at(5));
      expect(kept).toMatchObject({ secretSealed: 'v1.secret-b', previousSecretSealed: 'v1.secret-a', previousSecretExpiresAt: at(86_400_000), updatedAt: at(5) });
      const dropped = await webhooks.rotateWebhookSecret(o, w.id, { secretSealed: 'v1.secret-c', previousExpiresAt: null }, at(6));
      expect(dropped).toMatchObject({ secretSealed: 'v1.secret-c', previousSecretSealed: null, previousSecretExpiresAt: null });
    });

    it('lists webhooks newest first with a strict cursor', async () => {
      const o = await org();
      const hooks = [0, 1, 1, 2].map((ms) => webhook(o, { createdAt: at(ms), updatedAt: at(ms) }));
      for (const w of hooks) await webhooks.insertWebhook(w);
      const all = await webhooks.listWebhooks(o, null, 10);
      const expected = [...hooks].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1)).map((w) => w.id);
      expect(all.map((w) => w.id)).toEqual(expected);
      const second = all[1];
      if (!second) throw new Error('expected a second webhook');
      expect((await webhooks.listWebhooks(o, { createdAt: second.createdAt, id: second.id }, 10)).map((w) => w.id)).toEqual(expected.slice(2));
    });

    it('adds subscriptions once, in chunks, and removes them', async () => {
      const o = await org();
      const w = webhook(o);
      await webhooks.insertWebhook(w);
      const domains = Array.from({ length: 600 }, (_, i) => `brand${String(i).padStart(3, '0')}.com`);
      expect(await webhooks.addWebhookSubscriptions(o, w.id, domains, at(1))).toHaveLength(600);
      expect(await webhooks.addWebhookSubscriptions(o, w.id, ['brand000.com', 'new.com', 'new.com'], at(2))).toEqual(['new.com']);
      const page = await webhooks.listWebhookSubscriptions(o, w.id, 'brand597.com', 10);
      expect(page.map((s) => s.domain)).toEqual(['brand598.com', 'brand599.com', 'new.com']);
      expect(page[2]?.createdAt).toEqual(at(2));
      expect(await webhooks.removeWebhookSubscriptions(o, w.id, ['new.com', 'absent.com', 'brand001.com'])).toEqual(['brand001.com', 'new.com']);
      expect(await webhooks.listWebhookSubscriptions(o, w.id, 'brand599.com', 10)).toEqual([]);
    });

    it('pages deliveries newest first within bounds, ties broken by id, with their attempts', async () => {
      const o = await org();
      const w = webhook(o);
      await webhooks.insertWebhook(w);
      // Pairs share a created_at: the order must still be total and stable.
      const made = Array.from({ length: 30 }, (_, i) => delivery(w, at(Math.floor(i / 2) * 1000)));
      for (const d of made) expect(await webhooks.insertWebhookDelivery(d)).toBe(true);
      const duplicate = { ...delivery(w, at(0)), eventId: made[0]?.eventId ?? '' };
      expect(await webhooks.insertWebhookDelivery(duplicate)).toBe(false);
      const order = [...made].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1)).map((d) => d.id);
      const seen: string[] = [];
      let after: WebhookDelivery | undefined;
      for (;;) {
        const rows = await webhooks.listWebhookDeliveries(o, w.id, { from: null, to: null, after: after ? { createdAt: after.createdAt, id: after.id } : null, limit: 7 });
        seen.push(...rows.map((r) => r.id));
        if (rows.length < 7) break;
        after = rows.at(-1);
      }
      expect(seen).toEqual(order);
      const bounded = await webhooks.listWebhookDeliveries(o, w.id, { from: at(2000), to: at(5000), after: null, limit: 100 });
      expect(bounded.map((d) => d.createdAt.getTime() - T0.getTime())).toEqual([4000, 4000, 3000, 3000, 2000, 2000]);
      expect(await webhooks.listWebhookDeliveries(await org(), w.id, { from: null, to: null, after: null, limit: 100 })).toEqual([]);

      const first = made[0];
      if (!first) throw new Error('expected a delivery');
      const attempt = { deliveryId: first.id, startedAt: at(50), latencyMs: 12, responseExcerpt: 'nope', error: null, sourceAddress: '192.0.2.10' };
      expect(await webhooks.recordWebhookAttempt({ ...attempt, attempt: 1, statusCode: 500, outcome: 'retry', nextAttemptAt: at(60_000) })).toBe(true);
      expect(await webhooks.recordWebhookAttempt({ ...attempt, attempt: 2, statusCode: 204, responseExcerpt: null, outcome: 'delivered', nextAttemptAt: null })).toBe(true);
      const attempts = await webhooks.listWebhookAttempts([first.id, made[1]?.id ?? '']);
      expect(attempts.get(first.id)).toEqual([
        { attempt: 1, startedAt: at(50), statusCode: 500, latencyMs: 12, responseExcerpt: 'nope', error: null, sourceAddress: '192.0.2.10' },
        { attempt: 2, startedAt: at(50), statusCode: 204, latencyMs: 12, responseExcerpt: null, error: null, sourceAddress: '192.0.2.10' },
      ]);
      expect(attempts.has(made[1]?.id ?? '')).toBe(false);
      const [listed] = await webhooks.listWebhookDeliveries(o, w.id, { from: at(0), to: at(1), after: null, limit: 100 }).then((rows) => rows.filter((r) => r.id === first.id));
      expect(listed).toMatchObject({ state: 'delivered', attempts: 2, nextAttemptAt: null, kind: 'brand.updated', eventId: first.eventId });
    });

    it('deletes a webhook with its subscriptions, deliveries and attempts', async () => {
      const o = await org();
      const w = webhook(o);
      await webhooks.insertWebhook(w);
      await webhooks.addWebhookSubscriptions(o, w.id, ['acme.com'], at(1));
      const d = delivery(w, at(1));
      await webhooks.insertWebhookDelivery(d);
      await webhooks.recordWebhookAttempt({ deliveryId: d.id, attempt: 1, startedAt: at(2), statusCode: 500, latencyMs: 1, responseExcerpt: null, error: null, sourceAddress: null, outcome: 'retry', nextAttemptAt: at(3) });
      expect(await webhooks.deleteWebhook(o, w.id)).toBe(true);
      expect(await webhooks.getWebhook(o, w.id)).toBeNull();
      expect(await webhooks.listWebhookSubscriptions(o, w.id, null, 10)).toEqual([]);
      expect(await webhooks.listWebhookDeliveries(o, w.id, { from: null, to: null, after: null, limit: 10 })).toEqual([]);
      expect((await webhooks.listWebhookAttempts([d.id])).size).toBe(0);
      // The id is free again: re-creating it works (nothing left behind under its key).
      await webhooks.insertWebhook(w);
      expect(await webhooks.insertWebhookDelivery(d)).toBe(true);
    });
  });
}
