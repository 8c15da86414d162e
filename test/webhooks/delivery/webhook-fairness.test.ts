/**
 * No organization can stall, starve or flood another through webhooks (issue 33), on the real service (SQLite,
 * PostgreSQL) with real loopback receivers: an organization firing test events at an endpoint that never answers
 * does not hold back another organization's delivery (deliveries take turns by organization, and one organization
 * sends at most BRANDBASE_WEBHOOK_SENDS_PER_ORG at once); webhooks per organization and test events per minute are
 * bounded with the documented answers; a test event carries a held brand only for an organization that could have
 * looked it up. Every assertion is about order and state, never about how long something took.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../src/domain/ids.js';
import type { Organization } from '../../../src/domain/accounts.js';
import { silentLogger } from '../../../src/platform/logger.js';
import { sealedBox } from '../../../src/platform/sealed-box.js';
import { FREE_DELIVERIES } from '../../../src/webhooks/delivery/delivery-billing.js';
import { WebhookPoster } from '../../../src/webhooks/delivery/webhook-poster.js';
import { WebhookSender } from '../../../src/webhooks/delivery/webhook-sender.js';
import { WebhookManagement } from '../../../src/webhooks/management/webhook-management.js';
import { MAX_PAUSE_MS, pauseAfterFailure } from '../../../src/webhooks/store/webhook-delivery-rows.js';
import type { WebhookTables } from '../../../src/webhooks/store/webhook-tables.js';
import { describeEachBackend, queryDatabase, tempDatabase } from '../../helpers/backends.js';
import { bearer, startTestStack, type TestStack } from '../../helpers/test-stack.js';
import { until } from '../../helpers/until.js';
import { sampleBrand } from '../../store/sample-brand.js';
import type { TempDatabase } from '../../store/temp-database.js';
import { createOrg, createWebhook as insertWebhookRow, savedRebrand, uniqueDomain } from './webhook-fixtures.js';
import { startReceiver, type WebhookReceiver } from './webhook-receiver.js';

const SENDS_PER_ORG = 2;
const SENDERS = 4;
const FLOOD = 12;
const TESTS_PER_MINUTE = 20;
const WEBHOOKS_PER_ORG = 3;

interface GqlAnswer {
  data: Record<string, any> | null; // eslint-disable-line @typescript-eslint/no-explicit-any -- GraphQL answers are shaped by each query
  errors: { message: string; extensions: { code: string; status: number } }[] | undefined;
}

const CREATE = 'mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { webhook { id } } }';
const SEND = 'mutation($id: ID!, $domain: String) { sendTestEvent(webhookId: $id, domain: $domain) { delivery { id domain } } }';
const SUBSCRIBE = 'mutation($id: ID!, $domains: [String!]!) { addWebhookSubscriptions(webhookId: $id, domains: $domains) { changed } }';

describeEachBackend('fair webhook delivery', (backend) => {
  let stack: TestStack;
  let hanging: WebhookReceiver;
  let answering: WebhookReceiver;

  async function gql(key: string, query: string, variables: Record<string, unknown> = {}): Promise<GqlAnswer> {
    const res = await stack.app.inject({ method: 'POST', url: '/graphql', headers: bearer(key), payload: { query, variables } });
    const body = res.json();
    return { data: body.data ?? null, errors: body.errors };
  }

  async function createWebhook(key: string, url: string): Promise<string> {
    const answer = await gql(key, CREATE, { input: { url } });
    expect(answer.errors).toBeUndefined();
    return answer.data?.createWebhook.webhook.id as string;
  }

  async function deliveryRows(orgId: string) {
    return queryDatabase<{ id: string; state: string; attempts: number | string; payload: string }[], WebhookTables>(stack.database, (db) =>
      db.selectFrom('webhook_deliveries').select(['id', 'state', 'attempts', 'payload']).where('org_id', '=', orgId).execute(),
    );
  }

  beforeAll(async () => {
    hanging = await startReceiver('hang');
    answering = await startReceiver('accept');
    stack = await startTestStack(
      {
        BRANDBASE_CRAWL_HOSTS: JSON.stringify({ 'hang.test': `127.0.0.1:${hanging.port}`, 'answer.test': `127.0.0.1:${answering.port}` }),
        BRANDBASE_WEBHOOK_SENDERS: String(SENDERS),
        BRANDBASE_WEBHOOK_SENDS_PER_ORG: String(SENDS_PER_ORG),
        // The longest attempt allowed: the hanging endpoint holds its requests for the whole test.
        BRANDBASE_WEBHOOK_TIMEOUT_MS: '60000',
        BRANDBASE_WEBHOOK_TESTS_PER_MINUTE: String(TESTS_PER_MINUTE),
        BRANDBASE_WEBHOOKS_PER_ORG: String(WEBHOOKS_PER_ORG),
      },
      { backend },
    );
  });
  afterAll(async () => {
    // The receivers first: the hung requests end at once, so the senders stop without waiting for them.
    await hanging?.close();
    await answering?.close();
    await stack?.close();
  });

  it('sends another organization\'s delivery while one organization\'s test events wait on an endpoint that never answers', async () => {
    const flooder = await stack.newKey();
    const victim = await stack.newKey();
    const floodHook = await createWebhook(flooder.key, 'http://hang.test/flood');
    for (let i = 0; i < FLOOD; i++) expect((await gql(flooder.key, SEND, { id: floodHook })).errors).toBeUndefined();

    const domain = uniqueDomain('victim');
    const event = await savedRebrand(stack.services.stores.brands, domain);
    const victimHook = await createWebhook(victim.key, 'http://answer.test/victim');
    expect((await gql(victim.key, SUBSCRIBE, { id: victimHook, domains: [domain] })).data?.addWebhookSubscriptions.changed).toEqual([domain]);

    await stack.services.webhookDelivery.start();
    // The flooder's first deliveries reach its endpoint, which holds them.
    await until(() => hanging.requests.length >= SENDS_PER_ORG, 'the flooder\'s first deliveries');

    // Now the victim's brand changes: its delivery is created behind the whole flood.
    expect(await stack.services.webhookDelivery.fanOut.handle(event)).toBe(1);
    stack.services.webhookDelivery.sender.notify();
    // The answering receiver also takes other tests' deliveries (any order): the victim's is the one about its brand.
    const victimRequest = () => answering.requests.find((r) => (JSON.parse(r.body) as { data?: { brand?: { domain?: string } } }).data?.brand?.domain === domain);
    await until(() => victimRequest() !== undefined, 'the victim\'s delivery');
    const heldWhenVictimServed = hanging.requests.length;
    expect((JSON.parse(victimRequest()?.body ?? '{}') as { type?: string }).type).toBe('brand.rebranded');
    // The flood is still waiting: most of it was never attempted, and the hanging endpoint still holds what it got.
    const flood = await deliveryRows(flooder.orgId);
    expect(flood).toHaveLength(FLOOD);
    const untouched = flood.filter((d) => d.state === 'pending' && Number(d.attempts) === 0);
    expect(untouched.length).toBeGreaterThanOrEqual(FLOOD - heldWhenVictimServed);
    expect(heldWhenVictimServed).toBeLessThan(FLOOD);
    expect(flood.every((d) => d.state === 'pending')).toBe(true);
    const victimRows = await deliveryRows(victim.orgId);
    expect(victimRows.map((d) => d.state)).toEqual(['delivered']);
  });

  describe('caps', () => {
    it(`refuses a webhook past BRANDBASE_WEBHOOKS_PER_ORG with too_many_webhooks; another organization is unaffected`, async () => {
      const capped = await stack.newKey();
      const other = await stack.newKey();
      const ids: string[] = [];
      for (let i = 0; i < WEBHOOKS_PER_ORG; i++) ids.push(await createWebhook(capped.key, `http://answer.test/hooks-${i}`));
      const refused = await gql(capped.key, CREATE, { input: { url: 'http://answer.test/one-more' } });
      expect(refused.data).toBeNull();
      expect(refused.errors).toEqual([
        expect.objectContaining({
          message: `Too many webhooks: an organization may have at most ${WEBHOOKS_PER_ORG}. Delete one to create another. Nothing was changed.`,
          extensions: { code: 'too_many_webhooks', status: 409 },
        }),
      ]);
      const listed = await gql(capped.key, '{ webhooks { edges { node { id } } } }');
      expect(listed.data?.webhooks.edges).toHaveLength(WEBHOOKS_PER_ORG);
      expect(await createWebhook(other.key, 'http://answer.test/other')).toMatch(/^whk_/);
      // Deleting one frees its place.
      expect((await gql(capped.key, 'mutation($id: ID!) { deleteWebhook(id: $id) { deletedWebhookId } }', { id: ids[0] })).errors).toBeUndefined();
      expect(await createWebhook(capped.key, 'http://answer.test/one-more')).toMatch(/^whk_/);
    });

    it('refuses a test event past BRANDBASE_WEBHOOK_TESTS_PER_MINUTE with rate_limited, nothing queued; another organization is unaffected', async () => {
      const busy = await stack.newKey();
      const other = await stack.newKey();
      const hook = await createWebhook(busy.key, 'http://answer.test/busy');
      // The organization's minute is already full: test deliveries stamped ahead of now, so however slow this machine
      // is, they are all still inside the window when the next one is asked for (not due: never sent).
      const ahead = new Date(Date.now() + 10 * 60_000);
      for (let i = 0; i < TESTS_PER_MINUTE; i++) {
        const eventId = newId('evt');
        const made = await stack.services.stores.webhooks.insertWebhookDelivery({
          id: newId('msg'), webhookId: hook, orgId: busy.orgId, eventId, kind: 'webhook.test', domain: 'example.com', payload: '{}', createdAt: ahead, nextAttemptAt: new Date(ahead.getTime() + 86_400_000),
        });
        expect(made).toBe(true);
      }
      const refused = await gql(busy.key, SEND, { id: hook });
      expect(refused.data).toBeNull();
      expect(refused.errors).toEqual([
        expect.objectContaining({
          message: expect.stringMatching(new RegExp(`^Too many test events: an organization may send at most ${TESTS_PER_MINUTE} per minute\\. Retry in \\d+ seconds\\. Nothing was queued\\.$`)),
          extensions: { code: 'rate_limited', status: 429 },
        }),
      ]);
      expect(await deliveryRows(busy.orgId)).toHaveLength(TESTS_PER_MINUTE);
      const otherHook = await createWebhook(other.key, 'http://answer.test/other-tests');
      expect((await gql(other.key, SEND, { id: otherHook })).errors).toBeUndefined();
    });
  });

  describe('what a test event carries', () => {
    beforeAll(async () => {
      const now = new Date();
      await stack.services.stores.brands.saveBrand({ brand: sampleBrand('held-brand.com'), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: 'held-brand.com' }]);
    });

    async function payloadBrand(deliveryId: string): Promise<{ domain: string; description: string | null }> {
      const row = await queryDatabase<{ payload: string }, WebhookTables>(stack.database, (db) => db.selectFrom('webhook_deliveries').select('payload').where('id', '=', deliveryId).executeTakeFirstOrThrow());
      return (JSON.parse(row.payload) as { data: { brand: { domain: string; description: string | null } } }).data.brand;
    }

    it('the sample brand for an organization whose lookups answer 403 (no credit), whatever domain it names', async () => {
      const broke = await stack.newKey({ quota: 0, overage: false });
      const lookup = await stack.app.inject({ method: 'GET', url: '/v2/brands/held-brand.com', headers: bearer(broke.key) });
      expect(lookup.statusCode).toBe(403);
      const hook = await createWebhook(broke.key, 'http://answer.test/broke');
      expect((await gql(broke.key, SUBSCRIBE, { id: hook, domains: ['held-brand.com'] })).errors).toBeUndefined();
      for (const domain of ['held-brand.com', null, 'never-held-anywhere.com']) {
        const answer = await gql(broke.key, SEND, { id: hook, domain });
        expect(answer.errors, String(domain)).toBeUndefined();
        expect(answer.data?.sendTestEvent.delivery.domain).toBe('example.com');
        const brand = await payloadBrand(answer.data?.sendTestEvent.delivery.id as string);
        expect(brand.domain).toBe('example.com');
        expect(brand.description).toContain('no credit');
      }
    });

    it('the sample brand once the organization\'s quota is spent (lookups answer 429) with no overage', async () => {
      const spent = await stack.newKey({ quota: 1, overage: false });
      const hook = await createWebhook(spent.key, 'http://answer.test/spent');
      const before = await gql(spent.key, SEND, { id: hook, domain: 'held-brand.com' });
      expect(before.data?.sendTestEvent.delivery.domain).toBe('held-brand.com');
      expect((await stack.app.inject({ method: 'GET', url: '/v2/brands/held-brand.com', headers: bearer(spent.key) })).statusCode).toBe(200);
      expect((await stack.app.inject({ method: 'GET', url: '/v2/brands/held-brand.com', headers: bearer(spent.key) })).statusCode).toBe(429);
      const after = await gql(spent.key, SEND, { id: hook, domain: 'held-brand.com' });
      expect(after.errors).toBeUndefined();
      expect(after.data?.sendTestEvent.delivery.domain).toBe('example.com');
    });

    it('the held brand for an organization that could have looked it up', async () => {
      const paying = await stack.newKey();
      const hook = await createWebhook(paying.key, 'http://answer.test/paying');
      const answer = await gql(paying.key, SEND, { id: hook, domain: 'held-brand.com' });
      expect(answer.errors).toBeUndefined();
      expect(answer.data?.sendTestEvent.delivery.domain).toBe('held-brand.com');
      expect((await payloadBrand(answer.data?.sendTestEvent.delivery.id as string)).domain).toBe('held-brand.com');
      // A domain not held is still refused for it (it could look that up, and learn the same).
      const missing = await gql(paying.key, SEND, { id: hook, domain: 'never-held-anywhere.com' });
      expect(missing.errors?.[0]?.extensions.code).toBe('invalid_webhook_input');
    });
  });
});

describeEachBackend('test events per minute, on the management clock', (backend) => {
  let db: TempDatabase;
  let now: Date;

  beforeAll(async () => {
    db = await tempDatabase(backend);
    await db.migrate();
  });
  afterAll(async () => db?.cleanup());

  it('frees a place a minute after the oldest test event of the window, per organization', async () => {
    now = new Date('2031-03-01T10:00:00.000Z');
    const management = new WebhookManagement({
      store: db.stores.webhooks,
      box: sealedBox(randomBytes(32)),
      brands: { heldBrand: () => Promise.resolve(null), queueIndexing: () => Promise.resolve('queued') },
      hostMap: new Map(),
      limits: { webhooksPerOrganization: 5, testEventsPerMinute: 2 },
      clock: () => now,
    });
    const orgOf = async (): Promise<Organization> => {
      const id = await createOrg(db.stores.billing);
      const org = await db.stores.billing.getOrganization(id);
      if (org === null) throw new Error('organization not created');
      return org;
    };
    const org = await orgOf();
    const other = await orgOf();
    const hook = (await management.create(org, { url: 'https://window.example.com/' })).webhook.id;
    const otherHook = (await management.create(other, { url: 'https://window-other.example.com/' })).webhook.id;

    await management.sendTestEvent(org, hook);
    now = new Date(now.getTime() + 20_000);
    await management.sendTestEvent(org, hook);
    now = new Date(now.getTime() + 30_000);
    await expect(management.sendTestEvent(org, hook)).rejects.toMatchObject({ code: 'rate_limited', message: expect.stringContaining('Retry in 10 seconds') });
    // Another organization's minute is its own.
    await management.sendTestEvent(other, otherHook);
    // A minute after the first, its place is free again (the second still counts).
    now = new Date(now.getTime() + 10_000);
    await management.sendTestEvent(org, hook);
    await expect(management.sendTestEvent(org, hook)).rejects.toMatchObject({ code: 'rate_limited' });
  });
});

describeEachBackend('a failing endpoint\'s circuit breaker, on the sender\'s clock', (backend) => {
  let db: TempDatabase;
  let failing: WebhookReceiver;
  let healthy: WebhookReceiver;
  let now: Date;
  const box = sealedBox(randomBytes(32));

  beforeAll(async () => {
    db = await tempDatabase(backend);
    await db.migrate();
    failing = await startReceiver('fail');
    healthy = await startReceiver('accept');
  });
  afterAll(async () => {
    await failing?.close();
    await healthy?.close();
    await db?.cleanup();
  });

  it('attempts one delivery at a time while an endpoint fails, spending no attempt of the others; the organization\'s other endpoint is served meanwhile', async () => {
    now = new Date('2031-04-01T08:00:00.000Z');
    const poster = new WebhookPoster({ hostMap: { 'down.test': `127.0.0.1:${failing.port}`, 'up.test': `127.0.0.1:${healthy.port}` }, timeoutMs: 600_000 });
    const sender = new WebhookSender(
      { queue: db.stores.queue, store: db.stores.webhooks, box, poster, payer: FREE_DELIVERIES, notices: null, logger: silentLogger() },
      { now: () => now, random: () => 0.5, leaseMs: 60_000, sendsPerOrganization: 2 },
    );
    const orgId = await createOrg(db.stores.billing);
    const down = await insertWebhookRow(db.database, box, { orgId, url: 'http://down.test/hook', domains: [] });
    const up = await insertWebhookRow(db.database, box, { orgId, url: 'http://up.test/hook', domains: [] });
    const queued: string[] = [];
    async function queue(webhookId: string): Promise<string> {
      const id = newId('msg');
      const at = new Date(now.getTime() + queued.length);
      expect(await db.stores.webhooks.insertWebhookDelivery({ id, webhookId, orgId, eventId: newId('evt'), kind: 'webhook.test', domain: 'example.com', payload: '{}', createdAt: at, nextAttemptAt: at })).toBe(true);
      queued.push(id);
      return id;
    }
    const first = await queue(down.id);
    const waiting = [await queue(down.id), await queue(down.id), await queue(down.id)];
    now = new Date(now.getTime() + 10);

    // The first attempt fails; the endpoint is paused, its three other deliveries wait, the healthy endpoint is served.
    expect(await sender.drain()).toEqual(['retry']);
    await queue(up.id);
    now = new Date(now.getTime() + 10);
    expect(await sender.drain()).toEqual(['delivered']);
    expect(failing.requests).toHaveLength(1);
    expect(healthy.requests).toHaveLength(1);

    // At the failed delivery's retry (5 s), it alone is attempted again; the pause now lasts until its next retry.
    now = new Date(now.getTime() + 5_000);
    expect(await sender.drain()).toEqual(['retry']);
    expect(failing.requests.map((r) => r.headers['webhook-id'])).toEqual([first, first]);
    const attempts = await db.stores.webhooks.listWebhookAttempts(waiting);
    expect(waiting.map((id) => attempts.get(id)?.length ?? 0)).toEqual([0, 0, 0]);

    // The endpoint comes back: the next probe is accepted and the deliveries that waited are sent at once.
    failing.mode = 'accept';
    now = new Date(now.getTime() + 60_000);
    expect(await sender.drain()).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
    expect(new Set(failing.requests.slice(2).map((r) => r.headers['webhook-id']))).toEqual(new Set([first, ...waiting]));
  });
});

describe('how long a failing endpoint is paused', () => {
  const MIN = 60_000;
  it('until the failed delivery\'s retry, or as long again as the endpoint has failed, at most an hour', () => {
    // The first failure: the failed delivery's own retry (5 s).
    expect(pauseAfterFailure(0, null, 5_000)).toBe(5_000);
    // Failing for 10 minutes, the failed delivery due again in 1 minute: paused 10 minutes.
    expect(pauseAfterFailure(10 * MIN, 0, 11 * MIN)).toBe(20 * MIN);
    // Failing for a day: an hour at most, unless the delivery's own retry is later.
    expect(pauseAfterFailure(24 * 60 * MIN, 0, 24 * 60 * MIN + 5_000)).toBe(24 * 60 * MIN + MAX_PAUSE_MS);
    expect(pauseAfterFailure(24 * 60 * MIN, 0, 48 * 60 * MIN)).toBe(48 * 60 * MIN);
    // The last attempt failed (abandoned: no retry): the backoff alone.
    expect(pauseAfterFailure(30 * MIN, 0, null)).toBe(60 * MIN);
  });
});
