/**
 * Migration 0024_leased_work (ADR 0049) on a database written before it: the brand event deliveries still pending or
 * leased, and the webhook deliveries still pending, become jobs of the one queue, so an upgrade loses no work;
 * finished ones stay finished. Real SQLite and PostgreSQL.
 */
import type { Kysely } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrations.js';
import { newId } from '../../src/domain/ids.js';
import { brandEventJobKey, brandEventKeyPrefix, JOB_NAMES, type BrandEventPayload, type WebhookDeliverPayload } from '../../src/jobs/queue.js';
import { PRODUCT_MIGRATIONS } from '../../src/main/product-stores.js';
import type { WebhookTables } from '../../src/webhooks/store/webhook-tables.js';
import { describeEachBackend, tempDatabase } from '../helpers/backends.js';
import { sampleBrand } from '../store/sample-brand.js';
import type { TempDatabase } from '../store/temp-database.js';
import { createOrg, createWebhook } from '../webhooks/delivery/webhook-fixtures.js';
import { sealedBox } from '../../src/platform/sealed-box.js';
import { randomBytes } from 'node:crypto';

const T0 = 1_800_000_000_000;
const LEASE = 60_000;

/** Every migration before 0024, as the previous release ran them. */
async function migrateBefore0024(temp: TempDatabase): Promise<void> {
  const earlier = PRODUCT_MIGRATIONS.map((product) => Object.fromEntries(Object.entries(product).filter(([name]) => name < '0024_leased_work')));
  await migrateToLatest(temp.database, earlier);
}

/** The old outbox's tables, which the schema type no longer names. */
interface OldTables {
  brand_events: { id: string; brand_id: string; domain: string; type: string; changes: string; created: number; created_at: number; announce: string | null };
  event_consumers: { name: string; created_at: number };
  event_deliveries: { consumer: string; event_id: string; state: string; attempts: number; run_at: number; locked_until: number | null; last_error: string | null; updated_at: number };
}

describeEachBackend('migration 0024_leased_work', (backend) => {
  let temp: TempDatabase | undefined;
  afterEach(async () => {
    await temp?.cleanup();
    temp = undefined;
  });

  it('moves pending and leased brand event deliveries and pending webhook deliveries into the jobs table', async () => {
    temp = await tempDatabase(backend);
    await migrateBefore0024(temp);
    const old = temp.db as unknown as Kysely<OldTables>;
    const brand = sampleBrand(`mig-${randomBytes(4).toString('hex')}.com`);
    const events = ['evt_pending', 'evt_running', 'evt_done'];
    await old.insertInto('event_consumers').values({ name: 'webhooks', created_at: T0 }).execute();
    for (const id of events) {
      await old.insertInto('brand_events').values({ id, brand_id: brand.id, domain: brand.domain, type: 'brand.saved', changes: '["name"]', created: 0, created_at: T0, announce: null }).execute();
    }
    await old
      .insertInto('event_deliveries')
      .values([
        { consumer: 'webhooks', event_id: 'evt_pending', state: 'pending', attempts: 2, run_at: T0 + 5_000, locked_until: null, last_error: 'index down', updated_at: T0 },
        { consumer: 'webhooks', event_id: 'evt_running', state: 'running', attempts: 1, run_at: T0, locked_until: T0 + LEASE, last_error: null, updated_at: T0 },
        { consumer: 'webhooks', event_id: 'evt_done', state: 'done', attempts: 1, run_at: T0, locked_until: null, last_error: null, updated_at: T0 },
      ])
      .execute();
    const orgId = await createOrg(temp.stores.billing);
    const hook = await createWebhook(temp.database, sealedBox(randomBytes(32)), { orgId, url: 'https://hooks.test/events', domains: [brand.domain] });
    const delivery = (id: string, state: string, nextAttemptAt: number | null, leaseUntil: number | null) => ({
      id, webhook_id: hook.id, org_id: orgId, event_id: newId('evt'), kind: 'brand.rebranded', domain: brand.domain, payload: '{}', state, attempts: 1,
      next_attempt_at: nextAttemptAt, lease_until: leaseUntil, created_at: T0, updated_at: T0, delivered_at: state === 'delivered' ? T0 : null,
    });
    await temp.database
      .tables<WebhookTables>()
      .insertInto('webhook_deliveries')
      // `as never`: the state column's type is the union of states, and these literals are plain strings.
      .values([delivery('msg_waiting', 'pending', T0 + 60_000, null), delivery('msg_leased', 'pending', T0, T0 + 120_000), delivery('msg_sent', 'delivered', null, null)] as never)
      .execute();

    await temp.migrate();

    // Sorted here, not by the database: PostgreSQL's collation may order `/` and `_` otherwise.
    const jobs = (await temp.db.selectFrom('jobs').selectAll().execute()).sort((a, b) => (a.key < b.key ? -1 : 1));
    const shape = (j: (typeof jobs)[number]) => ({ name: j.name, key: j.key, payload: JSON.parse(j.payload) as unknown, state: j.state, attempts: Number(j.attempts), run_at: Number(j.run_at), last_error: j.last_error, owner: j.owner });
    expect(jobs.map(shape)).toEqual([
      { name: JOB_NAMES.webhookDeliver, key: 'msg_leased', payload: { deliveryId: 'msg_leased' } satisfies WebhookDeliverPayload, state: 'queued', attempts: 0, run_at: T0 + 120_000, last_error: null, owner: null },
      { name: JOB_NAMES.webhookDeliver, key: 'msg_waiting', payload: { deliveryId: 'msg_waiting' } satisfies WebhookDeliverPayload, state: 'queued', attempts: 0, run_at: T0 + 60_000, last_error: null, owner: null },
      { name: JOB_NAMES.brandEvent, key: brandEventJobKey('webhooks', 'evt_pending'), payload: { consumer: 'webhooks', eventId: 'evt_pending' } satisfies BrandEventPayload, state: 'queued', attempts: 2, run_at: T0 + 5_000, last_error: 'index down', owner: null },
      { name: JOB_NAMES.brandEvent, key: brandEventJobKey('webhooks', 'evt_running'), payload: { consumer: 'webhooks', eventId: 'evt_running' } satisfies BrandEventPayload, state: 'queued', attempts: 1, run_at: T0 + LEASE, last_error: null, owner: null },
    ].sort((a, b) => (a.key < b.key ? -1 : 1)));

    // The moved work is claimed as any other: the consumer gets its events, the sender its deliveries.
    const queue = temp.stores.queue;
    const claimedEvents: string[] = [];
    for (let job = await queue.claim([JOB_NAMES.brandEvent], LEASE, new Date(T0 + LEASE + 1), { keyPrefix: brandEventKeyPrefix('webhooks') }); job !== null; job = await queue.claim([JOB_NAMES.brandEvent], LEASE, new Date(T0 + LEASE + 1), { keyPrefix: brandEventKeyPrefix('webhooks') })) {
      claimedEvents.push((await temp.stores.events.getBrandEvent((job.payload as BrandEventPayload).eventId))?.id ?? 'missing');
    }
    expect(claimedEvents.sort()).toEqual(['evt_pending', 'evt_running']);
    const deliveryJob = await queue.claim([JOB_NAMES.webhookDeliver], LEASE, new Date(T0 + 60_000));
    expect((await temp.stores.webhooks.webhookDeliveryToSend((deliveryJob?.payload as WebhookDeliverPayload).deliveryId))?.delivery.id).toBe('msg_waiting');
  });
});
