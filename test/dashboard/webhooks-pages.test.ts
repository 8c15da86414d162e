/**
 * The webhooks pages (issue 23) on the real service with its delivery engine running: an owner adds an endpoint
 * (its signing secret shown once), subscribes domains, sends a test event that reaches a real receiver on loopback
 * and verifies there with the official `standardwebhooks` library, sees the delivery with its attempt, disables
 * the endpoint, rotates the secret and deletes it; bad input is refused with what was typed kept; the free plan is
 * refused; members see but cannot change; CSRF; another organization's webhook answers 404 and gets no test event.
 * In Chromium: zero serious axe violations, no overflow at 375 and 1440 px, for the list and an endpoint's page.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember } from '../helpers/dashboard-sign-in.js';
import { eventually, until } from '../helpers/until.js';
import { startReceiver, type WebhookReceiver } from '../webhooks/delivery/webhook-receiver.js';
import { openBrowser, startOrgPages, textOf, type OrgPagesFixture, type OrgPair } from './org-pages-fixture.js';
import { describeEachBackend } from '../helpers/backends.js';
import { needsChromium } from '../helpers/optional.js';

describeEachBackend('webhooks page', (backend) => {
  let f: OrgPagesFixture;
  let receiver: WebhookReceiver;
  const HOOK_URL = 'http://hooks.test/brandbase';
  const list = (orgId: string): string => `/dashboard/orgs/${orgId}/webhooks`;

  beforeAll(async () => {
    receiver = await startReceiver('accept');
    // hooks.test is on the crawler's host map, so an http URL naming it is allowed and reaches the receiver.
    f = await startOrgPages({ env: { BRANDBASE_CRAWL_HOSTS: JSON.stringify({ 'hooks.test': `127.0.0.1:${receiver.port}` }) }, backend });
    await f.stack.services.webhookDelivery.start();
  });
  afterAll(async () => {
    await f?.close();
    await receiver?.close();
  });

  async function hooksOf(orgId: string) {
    const org = await f.stack.services.stores.billing.getOrganization(orgId);
    if (!org) throw new Error('no organization');
    return (await f.stack.services.webhooks.list(org, {})).edges.map((e) => e.node);
  }

  /** Adds an endpoint through organization A's page; returns its id and the secret shown once. */
  async function addEndpoint(o: OrgPair, name: string): Promise<{ id: string; secret: string; body: string }> {
    const res = await f.post(o.ownerA, list(o.orgA), { url: HOOK_URL, name, events: ['brand.rebranded', 'brand.updated'], authorization: 'Bearer receiver-token' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const secret = /id="secret" class="secret" readonly value="(whsec_[^"]+)"/.exec(res.body)?.[1];
    const id = /\/webhooks\/(whk_[a-z2-7]+)"/.exec(res.body)?.[1];
    if (!secret || !id) throw new Error(`no secret or id on the page: ${res.body.slice(0, 400)}`);
    return { id, secret, body: res.body };
  }

  /** A fresh organization pair for one test, and one endpoint its owner added on A's page. */
  async function orgsWithHook(): Promise<{ o: OrgPair; hook: { id: string; secret: string } }> {
    const o = await f.newOrgs();
    const hook = await addEndpoint(o, 'Orders <service>');
    return { o, hook };
  }

  describe('webhooks pages', () => {
    it('adds an endpoint and shows its signing secret once', async () => {
      const o = await f.newOrgs();
      const added = await addEndpoint(o, 'Orders <service>');
      expect(textOf(added.body)).toContain('it is not shown again');
      const [stored] = await hooksOf(o.orgA);
      expect(stored).toMatchObject({ id: added.id, name: 'Orders <service>', url: HOOK_URL, events: ['brand.rebranded', 'brand.updated'], enabled: true, hasAuthorization: true });
      const later = await f.get(o.ownerA, `${list(o.orgA)}/${added.id}`);
      expect(later.statusCode).toBe(200);
      expect(later.body).not.toContain(added.secret);
      expect(later.body).not.toContain('receiver-token');
      expect(later.body).toContain('Orders &lt;service&gt;');
      expect(textOf((await f.get(o.ownerA, list(o.orgA))).body)).toContain(HOOK_URL);
    });

    it('refuses a URL the policy does not allow, keeping what was typed', async () => {
      const { o } = await orgsWithHook();
      const res = await f.post(o.ownerA, list(o.orgA), { url: 'ftp://files.example/in', name: 'typo name', events: 'brand.updated' });
      expect(res.statusCode).toBe(400);
      expect(textOf(res.body)).toContain('Invalid webhook URL: scheme ftp: is not allowed.');
      expect(res.body).toContain('value="ftp://files.example/in"');
      expect(res.body).toContain('value="typo name"');
      const none = await f.post(o.ownerA, list(o.orgA), { url: HOOK_URL, name: 'no events' });
      expect(none.statusCode).toBe(400);
      expect(textOf(none.body)).toContain('events must not be empty');
      expect(await hooksOf(o.orgA)).toHaveLength(1);
    });

    it('subscribes and unsubscribes domains, reporting entries that are not domains', async () => {
      const { o, hook } = await orgsWithHook();
      const res = await f.post(o.ownerA, `${list(o.orgA)}/${hook.id}/subscriptions`, { domains: 'shop.acme-widgets.com\nnot a domain!\nexample.org' });
      expect(res.statusCode).toBe(303);
      const shown = textOf((await f.follow(o.ownerA, res)).body);
      expect(shown).toContain('2 domains subscribed.');
      expect(shown).toContain('Not domains, skipped: not a domain!');
      expect(shown).toContain('acme-widgets.com');
      const org = await f.stack.services.stores.billing.getOrganization(o.orgA);
      if (!org) throw new Error('no organization');
      const subs = async () => (await f.stack.services.webhooks.subscriptions(org, hook.id, {})).edges.map((e) => e.node.domain);
      expect(await subs()).toEqual(['acme-widgets.com', 'example.org']);
      await f.post(o.ownerA, `${list(o.orgA)}/${hook.id}/subscriptions/remove`, { domains: 'example.org' });
      expect(await subs()).toEqual(['acme-widgets.com']);
    });

    it('sends a test event the receiver verifies with standardwebhooks, and shows the delivery with its attempt', async () => {
      const { o, hook } = await orgsWithHook();
      const res = await f.post(o.ownerA, `${list(o.orgA)}/${hook.id}/test`, { domain: '' });
      expect(res.statusCode).toBe(303);
      const queued = /Test event queued \(delivery (msg_[a-z2-7]+), brand example\.com\)/.exec(textOf((await f.follow(o.ownerA, res)).body));
      expect(queued).not.toBeNull();
      // The receiver is the fixture's: this test's event is the request carrying its delivery id.
      const ofThisEvent = () => receiver.requests.find((r) => r.headers['webhook-id'] === queued?.[1]);
      await until(() => ofThisEvent() !== undefined, 'the test event at the receiver');
      const request = ofThisEvent();
      if (!request) throw new Error('no request');
      const payload = new Webhook(hook.secret).verify(request.body, request.headers) as { type: string; data: { brand: { domain: string } } };
      expect(payload.type).toBe('webhook.test');
      expect(payload.data.brand.domain).toBe('example.com');
      expect(request.headers['authorization']).toBe('Bearer receiver-token');

      const pageText = await eventually(
        async () => textOf((await f.get(o.memberA, `${list(o.orgA)}/${hook.id}`)).body),
        (text) => text.includes('delivered'),
      );
      expect(pageText).toMatch(/webhook\.test example\.com delivered — 1 attempt/);
      expect(pageText).toMatch(/1 \d{4}-\d\d-\d\d \d\d:\d\d UTC 204 \d+ ms/);
    });

    it('refuses a test event naming a brand that is not held, with a clear error', async () => {
      const { o, hook } = await orgsWithHook();
      const res = await f.post(o.ownerA, `${list(o.orgA)}/${hook.id}/test`, { domain: 'never-crawled-brand.com' });
      expect(res.statusCode).toBe(400);
      expect(textOf(res.body)).toContain('no brand is held for never-crawled-brand.com');
    });

    it('disables and enables the endpoint, saves settings, rotates the secret and deletes it', async () => {
      const { o, hook } = await orgsWithHook();
      await f.post(o.ownerA, `${list(o.orgA)}/${hook.id}/enabled`, { enabled: '0' });
      expect((await hooksOf(o.orgA))[0]).toMatchObject({ enabled: false, disabledReason: 'manual' });
      expect(textOf((await f.get(o.ownerA, `${list(o.orgA)}/${hook.id}`)).body)).toContain('State: disabled');
      await f.post(o.ownerA, `${list(o.orgA)}/${hook.id}/enabled`, { enabled: '1' });
      expect((await hooksOf(o.orgA))[0]?.enabled).toBe(true);

      const saved = await f.post(o.ownerA, `${list(o.orgA)}/${hook.id}`, { url: HOOK_URL, name: 'Renamed', events: 'brand.rebranded', removeAuthorization: '1' });
      expect(saved.statusCode).toBe(303);
      expect((await hooksOf(o.orgA))[0]).toMatchObject({ name: 'Renamed', events: ['brand.rebranded'], hasAuthorization: false });

      const rotated = await f.post(o.ownerA, `${list(o.orgA)}/${hook.id}/rotate`);
      expect(rotated.statusCode).toBe(200);
      const secret = /value="(whsec_[^"]+)"/.exec(rotated.body)?.[1];
      expect(secret).toMatch(/^whsec_/);
      expect(secret).not.toBe(hook.secret);

      const second = await addEndpoint(o, 'To delete');
      const unconfirmed = await f.post(o.ownerA, `${list(o.orgA)}/${second.id}/delete`);
      expect(unconfirmed.statusCode).toBe(400);
      expect(textOf(unconfirmed.body)).toContain('Not deleted: tick the box to confirm');
      expect(await hooksOf(o.orgA)).toHaveLength(2);
      const deleted = await f.post(o.ownerA, `${list(o.orgA)}/${second.id}/delete`, { confirm: '1' });
      expect(deleted.statusCode).toBe(303);
      expect((await hooksOf(o.orgA)).map((w) => w.id)).toEqual([hook.id]);
      expect((await f.get(o.ownerA, `${list(o.orgA)}/${second.id}`)).statusCode).toBe(404);
    });

    it('lets members look but not change anything (owners only), and never shows them a secret', async () => {
      const { o, hook } = await orgsWithHook();
      const view = await f.get(o.memberA, `${list(o.orgA)}/${hook.id}`);
      expect(view.statusCode).toBe(200);
      expect(view.body).not.toContain('/rotate"');
      expect(view.body).not.toContain('/test"');
      expect(view.body).not.toContain('/delete"');
      expect(textOf((await f.get(o.memberA, list(o.orgA))).body)).toContain('only owners add and change webhooks');
      for (const [path, fields] of [
        [list(o.orgA), { url: HOOK_URL }],
        [`${list(o.orgA)}/${hook.id}/rotate`, {}],
        [`${list(o.orgA)}/${hook.id}/test`, {}],
        [`${list(o.orgA)}/${hook.id}/delete`, { confirm: '1' }],
        [`${list(o.orgA)}/${hook.id}/enabled`, { enabled: '0' }],
      ] as const) {
        expect((await f.post(o.memberA, path, fields)).statusCode).toBe(403);
      }
      expect((await hooksOf(o.orgA)).map((w) => [w.id, w.enabled])).toEqual([[hook.id, true]]);
    });

    it('refuses posts without the CSRF token', async () => {
      const { o, hook } = await orgsWithHook();
      expect((await f.post(o.ownerA, `${list(o.orgA)}/${hook.id}/delete`, { _csrf: '', confirm: '1' })).statusCode).toBe(403);
      expect((await f.post(o.ownerA, `${list(o.orgA)}/${hook.id}/delete`, { confirm: '1' }, { origin: 'https://evil.example' })).statusCode).toBe(403);
      expect(await hooksOf(o.orgA)).toHaveLength(1);
    });

    it("answers 404 for another organization's webhooks and sends them no test event", async () => {
      const o = await f.newOrgs();
      const orgB = await f.stack.services.stores.billing.getOrganization(o.orgB);
      if (!orgB) throw new Error('no organization');
      const theirs = await f.stack.services.webhooks.create(orgB, { url: HOOK_URL, name: 'theirs' });
      expect((await f.get(o.ownerA, list(o.orgB))).statusCode).toBe(404);
      expect((await f.get(o.ownerA, `${list(o.orgA)}/${theirs.webhook.id}`)).statusCode).toBe(404);
      for (const action of ['test', 'delete', 'rotate', 'subscriptions']) {
        expect((await f.post(o.ownerA, `${list(o.orgA)}/${theirs.webhook.id}/${action}`, { domains: 'x.com', confirm: '1' })).statusCode).toBe(404);
        expect((await f.post(o.ownerA, `${list(o.orgA)}/${theirs.webhook.id}/${action}`, { domains: 'x.com' })).statusCode).toBe(404);
      }
      const deliveries = await f.stack.services.webhooks.deliveries(orgB, theirs.webhook.id, {});
      expect(deliveries.edges).toEqual([]);
      expect((await hooksOf(o.orgB)).map((w) => w.id)).toEqual([theirs.webhook.id]);
    });

    it('tells free-plan organizations that webhooks need a paid plan and refuses changes', async () => {
      const o = await f.newOrgs();
      const free = await f.stack.services.accounts.createOrganization({ name: 'Free Co', plan: 'free', quota: 100 });
      await addMember(f.stack.services, free.id, o.ownerA.email, 'owner');
      const res = await f.get(o.ownerA, list(free.id));
      expect(res.statusCode).toBe(200);
      expect(textOf(res.body)).toContain('Webhooks are available on paid plans only');
      expect((await f.post(o.ownerA, list(free.id), { url: HOOK_URL, events: 'brand.updated' })).statusCode).toBe(403);
    });
  });

  // The browser checks render what the inject tests above already read on both backends: once, on SQLite.
  if (backend === 'sqlite') needsChromium('browser').describe('webhooks pages in Chromium', () => {
    it('have no serious accessibility violations and no horizontal overflow at 375 and 1440 px', async () => {
      const { o, hook } = await orgsWithHook();
      // A delivered test event, so the endpoint's page shows a delivery with its attempts (the details opened below).
      expect((await f.post(o.ownerA, `${list(o.orgA)}/${hook.id}/test`, { domain: '' })).statusCode).toBe(303);
      await eventually(
        async () => textOf((await f.get(o.ownerA, `${list(o.orgA)}/${hook.id}`)).body),
        (text) => text.includes('delivered'),
      );
      const browser = await openBrowser(f, o.ownerA);
      try {
        expect(await browser.open(list(o.orgA))).toBe(200);
        const listed = await browser.check('dashboard-webhooks');
        expect(listed.violations).toEqual([]);
        expect(listed.overflow).toEqual({ 375: 0, 1440: 0 });
        expect(await browser.open(`${list(o.orgA)}/${hook.id}`)).toBe(200);
        await browser.page.locator('details summary').first().click();
        const detail = await browser.check('dashboard-webhook');
        expect(detail.violations).toEqual([]);
        expect(detail.overflow).toEqual({ 375: 0, 1440: 0 });
      } finally {
        await browser.close();
      }
    });
  });
});
