/**
 * The client IDs page (issue 23) on the real service: create with referrers, edit them, revoke; the search route
 * then admits or refuses the ID exactly as the page says; bad referrers are refused with the typed text kept; CSRF;
 * members manage client IDs too; another organization's page and IDs answer 404 and stay untouched. In Chromium:
 * zero serious axe violations, no horizontal overflow at 375 and 1440 px, screenshots kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, startOrgPages, textOf, type OrgPagesFixture } from './org-pages-fixture.js';
import { describeEachBackend } from '../helpers/backends.js';
import { needsChromium } from '../helpers/optional.js';

describeEachBackend('client-ids page', (backend) => {
  let f: OrgPagesFixture;
  const page = (orgId: string): string => `/dashboard/orgs/${orgId}/client-ids`;

  beforeAll(async () => {
    f = await startOrgPages({ backend });
  });
  afterAll(async () => f?.close());

  async function idsOf(orgId: string) {
    return f.stack.services.clientIds.list(orgId);
  }

  /** A search with the client ID and a Referer, as a web page's request arrives. */
  async function search(clientId: string, referer: string) {
    return f.stack.app.inject({ method: 'GET', url: `/v2/search/acme?c=${clientId}`, headers: { referer } });
  }

  describe('client IDs page', () => {
    it('creates a client ID with its referrers; the search route admits exactly those sites', async () => {
      const o = await f.newOrgs();
      const created = await f.post(o.ownerA, page(o.orgA), { name: 'Shop <site>', referrers: 'shop.example\n*.Shop.Example, app.example' });
      expect(created.statusCode).toBe(303);
      const shown = await f.follow(o.ownerA, created);
      const [record] = await idsOf(o.orgA);
      expect(record).toMatchObject({ name: 'Shop <site>', allowedReferrers: ['shop.example', '*.shop.example', 'app.example'], requireReferrer: false, revokedAt: null });
      expect(textOf(shown.body)).toContain(`Client ID ${record?.id} created.`);
      expect(shown.body).toContain('Shop &lt;site&gt;');
      expect(shown.body).not.toContain('Shop <site>');

      expect((await search(record?.id ?? '', 'https://www.shop.example/page')).statusCode).not.toBe(403);
      const refused = await search(record?.id ?? '', 'https://evil.example/');
      expect(refused.statusCode).toBe(403);
      expect(refused.headers['x-bf-error']).toBe('referrer_not_allowed');
    });

    it('refuses a bad referrer with a clear error, keeps what was typed, creates nothing', async () => {
      const o = await f.newOrgs();
      const before = (await idsOf(o.orgA)).length;
      const res = await f.post(o.ownerA, page(o.orgA), { name: 'typo', referrers: 'good.example\nhttps://bad example/' });
      expect(res.statusCode).toBe(400);
      expect(textOf(res.body)).toContain('not a host or *.host pattern: https://bad example/');
      expect(res.body).toContain('good.example\nhttps://bad example/');
      expect(res.body).toContain('value="typo"');
      expect(await idsOf(o.orgA)).toHaveLength(before);
    });

    it('edits the referrers and the require-a-referrer rule, then revokes the ID', async () => {
      const o = await f.newOrgs();
      await f.post(o.ownerA, page(o.orgA), { name: 'edit me' });
      const record = (await idsOf(o.orgA)).find((c) => c.name === 'edit me');
      if (!record) throw new Error('not created');
      const form = await f.get(o.ownerA, `${page(o.orgA)}/${record.id}`);
      expect(form.statusCode).toBe(200);
      expect(form.body).toContain(`action="${page(o.orgA)}/${record.id}/referrers"`);

      const saved = await f.post(o.ownerA, `${page(o.orgA)}/${record.id}/referrers`, { referrers: 'only.example', requireReferrer: '1' });
      expect(saved.statusCode).toBe(303);
      expect((await idsOf(o.orgA)).find((c) => c.id === record.id)).toMatchObject({ allowedReferrers: ['only.example'], requireReferrer: true });
      const noReferrer = await f.stack.app.inject({ method: 'GET', url: `/v2/search/acme?c=${record.id}` });
      expect(noReferrer.headers['x-bf-error']).toBe('referrer_required');

      const bad = await f.post(o.ownerA, `${page(o.orgA)}/${record.id}/referrers`, { referrers: 'not a host' });
      expect(bad.statusCode).toBe(400);
      expect((await idsOf(o.orgA)).find((c) => c.id === record.id)?.allowedReferrers).toEqual(['only.example']);

      const revoked = await f.post(o.ownerA, `${page(o.orgA)}/${record.id}/revoke`);
      expect(revoked.statusCode).toBe(303);
      expect((await idsOf(o.orgA)).find((c) => c.id === record.id)?.revokedAt).toBeInstanceOf(Date);
      expect((await search(record.id, 'https://only.example/')).headers['x-bf-error']).toBe('client_id_revoked');
      expect(textOf((await f.get(o.ownerA, page(o.orgA))).body)).toMatch(/revoked \d{4}-\d\d-\d\d/);
      expect((await f.get(o.ownerA, `${page(o.orgA)}/${record.id}`)).statusCode).toBe(404);
    });

    it('lets members manage client IDs too (publishable, no credits spent)', async () => {
      const o = await f.newOrgs();
      const res = await f.post(o.memberA, page(o.orgA), { name: 'member made' });
      expect(res.statusCode).toBe(303);
      expect((await idsOf(o.orgA)).some((c) => c.name === 'member made')).toBe(true);
    });

    it('refuses a post without the CSRF token or from another origin, changing nothing', async () => {
      const o = await f.newOrgs();
      const before = (await idsOf(o.orgA)).length;
      const noToken = await f.post(o.ownerA, page(o.orgA), { name: 'csrf', _csrf: '' });
      expect(noToken.statusCode).toBe(403);
      const otherToken = await f.post(o.ownerA, page(o.orgA), { name: 'csrf', _csrf: o.ownerB.csrfToken });
      expect(otherToken.statusCode).toBe(403);
      const crossSite = await f.post(o.ownerA, page(o.orgA), { name: 'csrf' }, { origin: 'https://evil.example' });
      expect(crossSite.statusCode).toBe(403);
      expect(await idsOf(o.orgA)).toHaveLength(before);
    });

    it("answers 404 for another organization's page and leaves its client IDs alone", async () => {
      const o = await f.newOrgs();
      const theirs = await f.stack.services.clientIds.create(o.orgB, { name: 'theirs', referrers: ['b.example'] });
      expect((await f.get(o.ownerA, page(o.orgB))).statusCode).toBe(404);
      expect((await f.post(o.ownerA, page(o.orgB), { name: 'intruder' })).statusCode).toBe(404);
      // Through A's own URL: B's ID is not A's, so it is "not found", not revoked or edited.
      expect((await f.post(o.ownerA, `${page(o.orgA)}/${theirs.id}/revoke`)).statusCode).toBe(404);
      expect((await f.post(o.ownerA, `${page(o.orgA)}/${theirs.id}/referrers`, { referrers: 'a.example' })).statusCode).toBe(404);
      expect((await f.get(o.ownerA, `${page(o.orgA)}/${theirs.id}`)).statusCode).toBe(404);
      expect(await idsOf(o.orgB)).toEqual([{ ...theirs }]);
      expect((await f.get(o.ownerA, page(o.orgA))).body).not.toContain(theirs.id);
    });

    it('sends a signed-out visitor to sign in', async () => {
      const o = await f.newOrgs();
      const res = await f.stack.app.inject({ method: 'GET', url: page(o.orgA) });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/dashboard/sign-in');
    });
  });

  // The browser checks render what the inject tests above already read on both backends: once, on SQLite.
  if (backend === 'sqlite') needsChromium('browser').describe('client IDs page in Chromium', () => {
    it('has no serious accessibility violations and no horizontal overflow at 375 and 1440 px', async () => {
      const o = await f.newOrgs();
      // A live ID and a revoked one, so the list shows both states.
      const live = await f.stack.services.clientIds.create(o.orgA, { name: 'Shop site', referrers: ['shop.example', '*.shop.example'] });
      const revoked = await f.stack.services.clientIds.create(o.orgA, { name: 'Old site', referrers: ['old.example'] });
      expect((await f.post(o.ownerA, `${page(o.orgA)}/${revoked.id}/revoke`)).statusCode).toBe(303);
      const browser = await openBrowser(f, o.ownerA);
      try {
        expect(await browser.open(page(o.orgA))).toBe(200);
        const { violations, overflow } = await browser.check('dashboard-client-ids');
        expect(violations).toEqual([]);
        expect(overflow).toEqual({ 375: 0, 1440: 0 });
        expect(await browser.open(`${page(o.orgA)}/${live.id}`)).toBe(200);
        const edit = await browser.check('dashboard-client-id-referrers');
        expect(edit.violations).toEqual([]);
        expect(edit.overflow).toEqual({ 375: 0, 1440: 0 });
      } finally {
        await browser.close();
      }
    });
  });
});
