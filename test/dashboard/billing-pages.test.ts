/**
 * The billing page (issue 23) on the real service and a real SMTP server: an owner adds and removes billing
 * contacts and sets the spending limit (dollars, 0, back to the default); bad input is refused with what was typed
 * kept; a contact added here gets the 80 percent usage warning by email; members see the page but every change
 * answers 403; CSRF; another organization's page 404. In Chromium (owner's and member's view): zero serious axe
 * violations, no overflow at 375 and 1440 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../src/billing/authenticator.js';
import { parseDollars } from '../../src/http/pages/dashboard/billing-pages.js';
import { until } from '../helpers/until.js';
import { openBrowser, startOrgPages, textOf, type OrgPagesFixture, type OrgPair } from './org-pages-fixture.js';
import { describeEachBackend } from '../helpers/backends.js';
import { needsChromium } from '../helpers/optional.js';

describeEachBackend('billing page', (backend) => {
  let f: OrgPagesFixture;
  const page = (orgId: string): string => `/dashboard/orgs/${orgId}/billing`;

  beforeAll(async () => {
    f = await startOrgPages({ backend });
  });
  afterAll(async () => f?.close());

  async function org(orgId: string) {
    const found = await f.stack.services.stores.billing.getOrganization(orgId);
    if (!found) throw new Error('no organization');
    return found;
  }

  /** A fresh pair whose owner has set, on the page, a $40 limit and one contact: what the refusals must leave alone. */
  async function configuredOrgs(): Promise<OrgPair> {
    const o = await f.newOrgs();
    expect((await f.post(o.ownerA, `${page(o.orgA)}/spending-limit`, { limit: '40' })).statusCode).toBe(303);
    expect((await f.post(o.ownerA, `${page(o.orgA)}/contacts`, { email: 'finance@acme.test' })).statusCode).toBe(303);
    expect(await org(o.orgA)).toMatchObject({ spendingLimitCents: 4000, billingContacts: ['finance@acme.test'] });
    return o;
  }

  describe('billing page', () => {
    it('adds and removes billing contacts', async () => {
      const o = await f.newOrgs();
      const added = await f.post(o.ownerA, `${page(o.orgA)}/contacts`, { email: 'Billing@Acme.test' });
      expect(added.statusCode).toBe(303);
      expect(textOf((await f.follow(o.ownerA, added)).body)).toContain('Billing contact added.');
      await f.post(o.ownerA, `${page(o.orgA)}/contacts`, { email: 'finance@acme.test' });
      // The same address again (any case) is kept once.
      await f.post(o.ownerA, `${page(o.orgA)}/contacts`, { email: 'billing@acme.test' });
      expect((await org(o.orgA)).billingContacts).toEqual(['Billing@Acme.test', 'finance@acme.test']);

      const removed = await f.post(o.ownerA, `${page(o.orgA)}/contacts/remove`, { email: 'billing@acme.test' });
      expect(removed.statusCode).toBe(303);
      expect((await org(o.orgA)).billingContacts).toEqual(['finance@acme.test']);
      expect(textOf((await f.get(o.ownerA, page(o.orgA))).body)).toContain('finance@acme.test');
    });

    it('refuses an address that is not one, keeping what was typed', async () => {
      const o = await configuredOrgs();
      const res = await f.post(o.ownerA, `${page(o.orgA)}/contacts`, { email: 'not an <address>' });
      expect(res.statusCode).toBe(400);
      expect(textOf(res.body)).toContain('Not added: Not an email address: not an <address>');
      expect(res.body).toContain('value="not an &lt;address&gt;"');
      expect((await org(o.orgA)).billingContacts).toEqual(['finance@acme.test']);
    });

    it('sends the usage warning to a contact added on the page', async () => {
      const o = await f.newOrgs({ quota: 10 });
      // The SMTP server is the fixture's: an address of this organization's own, so only its warning can match.
      const contact = `finance-${o.orgA}@acme.test`;
      expect((await f.post(o.ownerA, `${page(o.orgA)}/contacts`, { email: contact })).statusCode).toBe(303);
      const { services } = f.stack;
      const key = await services.accounts.createApiKey({ orgId: o.orgA });
      const record = await services.stores.billing.getApiKey(key.id);
      if (!record) throw new Error('no key');
      const principal: Principal = { org: await org(o.orgA), key: record };
      for (let i = 0; i < 8; i++) (await services.billing.reserve(principal, 1, 'single')).settle(1, 'brand.lookup');
      await until(() => f.smtp.messages.some((m) => m.to.includes(contact) && m.subject.includes('80%')), 'the 80% usage warning to the contact');
    });

    it('sets the spending limit in dollars, turns overage off with 0, and goes back to the default', async () => {
      const o = await f.newOrgs();
      const set = await f.post(o.ownerA, `${page(o.orgA)}/spending-limit`, { limit: '25.5' });
      expect(set.statusCode).toBe(303);
      expect(textOf((await f.follow(o.ownerA, set)).body)).toContain('Spending limit set to $25.50 a month.');
      expect((await org(o.orgA)).spendingLimitCents).toBe(2550);
      expect(textOf((await f.get(o.ownerA, page(o.orgA))).body)).toContain("Monthly spending limit: $25.50 (this organization's own)");

      await f.post(o.ownerA, `${page(o.orgA)}/spending-limit`, { limit: '0' });
      expect((await org(o.orgA)).spendingLimitCents).toBe(0);
      expect(textOf((await f.get(o.ownerA, page(o.orgA))).body)).toContain('Overage is off');

      await f.post(o.ownerA, `${page(o.orgA)}/spending-limit`, { limit: '', useDefault: '1' });
      expect((await org(o.orgA)).spendingLimitCents).toBeNull();
      expect(textOf((await f.get(o.ownerA, page(o.orgA))).body)).toContain("(the installation's default)");
    });

    it('refuses a limit that is not an amount in dollars, changing nothing', async () => {
      const o = await f.newOrgs();
      await f.post(o.ownerA, `${page(o.orgA)}/spending-limit`, { limit: '40' });
      for (const limit of ['-5', 'ten', '1e3', '12.345', '']) {
        const res = await f.post(o.ownerA, `${page(o.orgA)}/spending-limit`, { limit });
        expect(res.statusCode).toBe(400);
        expect(textOf(res.body)).toContain('Not saved: write the limit in US dollars');
      }
      expect((await org(o.orgA)).spendingLimitCents).toBe(4000);
      expect([parseDollars('$1,250.5'), parseDollars('0.05'), parseDollars('7'), parseDollars('1.234')]).toEqual([125050, 5, 700, null]);
    });

    it("shows members the page without forms and refuses their changes (owners only)", async () => {
      const o = await configuredOrgs();
      const view = await f.get(o.memberA, page(o.orgA));
      expect(view.statusCode).toBe(200);
      expect(textOf(view.body)).toContain('only owners can change the spending limit and the contacts');
      expect(view.body).not.toContain('/billing/spending-limit"');
      expect(view.body).not.toContain('/billing/contacts"');
      expect((await f.post(o.memberA, `${page(o.orgA)}/spending-limit`, { limit: '999' })).statusCode).toBe(403);
      expect((await f.post(o.memberA, `${page(o.orgA)}/contacts`, { email: 'sneaky@acme.test' })).statusCode).toBe(403);
      expect((await f.post(o.memberA, `${page(o.orgA)}/contacts/remove`, { email: 'finance@acme.test' })).statusCode).toBe(403);
      expect(await org(o.orgA)).toMatchObject({ spendingLimitCents: 4000, billingContacts: ['finance@acme.test'] });
    });

    it('refuses posts without the CSRF token or from another origin', async () => {
      const o = await configuredOrgs();
      expect((await f.post(o.ownerA, `${page(o.orgA)}/spending-limit`, { limit: '1', _csrf: 'forged' })).statusCode).toBe(403);
      expect((await f.post(o.ownerA, `${page(o.orgA)}/contacts`, { email: 'x@acme.test' }, { origin: 'https://evil.example' })).statusCode).toBe(403);
      expect(await org(o.orgA)).toMatchObject({ spendingLimitCents: 4000, billingContacts: ['finance@acme.test'] });
    });

    it("answers 404 for another organization's billing and leaves it untouched", async () => {
      const o = await f.newOrgs();
      expect((await f.get(o.ownerA, page(o.orgB))).statusCode).toBe(404);
      expect((await f.post(o.ownerA, `${page(o.orgB)}/spending-limit`, { limit: '1' })).statusCode).toBe(404);
      expect((await f.post(o.ownerA, `${page(o.orgB)}/contacts`, { email: 'x@acme.test' })).statusCode).toBe(404);
      expect(await org(o.orgB)).toMatchObject({ spendingLimitCents: null, billingContacts: [] });
    });
  });

  // The browser checks render what the inject tests above already read on both backends: once, on SQLite.
  if (backend === 'sqlite') needsChromium('browser').describe('billing page in Chromium', () => {
    it('has no serious accessibility violations and no horizontal overflow, for owners and members', async () => {
      const o = await configuredOrgs();
      for (const [person, shot] of [
        [o.ownerA, 'dashboard-billing'],
        [o.memberA, 'dashboard-billing-member'],
      ] as const) {
        const browser = await openBrowser(f, person);
        try {
          expect(await browser.open(page(o.orgA))).toBe(200);
          const { violations, overflow } = await browser.check(shot);
          expect(violations).toEqual([]);
          expect(overflow).toEqual({ 375: 0, 1440: 0 });
        } finally {
          await browser.close();
        }
      }
    });
  });
});
