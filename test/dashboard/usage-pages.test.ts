/**
 * The usage page (issue 23) on the real service: the period, credits used against the quota, overage so far in
 * credits and dollars, the prepaid balance, and the daily chart with its table, all agreeing with the billing meter
 * (charges still in this process's buffer included) and moving when credits are charged; the free plan's wording;
 * another organization's page 404. In Chromium: zero serious axe violations, no overflow at 375 and 1440 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingPeriod } from '../../src/billing/billing-period.js';
import { newId } from '../../src/domain/ids.js';
import type { Principal } from '../../src/billing/authenticator.js';
import { axisMax, usageDays } from '../../src/http/pages/dashboard/usage-chart.js';
import { addMember } from '../helpers/dashboard-sign-in.js';
import { openBrowser, startOrgPages, textOf, type OrgPagesFixture, type OrgPair } from './org-pages-fixture.js';
import { describeEachBackend } from '../helpers/backends.js';
import { needsChromium } from '../helpers/optional.js';

describeEachBackend('usage page', (backend) => {
  let f: OrgPagesFixture;
  const page = (orgId: string): string => `/dashboard/orgs/${orgId}/usage`;
  const period = billingPeriod(new Date());
  const firstDay = period.start.toISOString().slice(0, 10);
  const today = new Date().toISOString().slice(0, 10);

  beforeAll(async () => {
    f = await startOrgPages({ backend });
  });
  afterAll(async () => f?.close());

  /**
   * A fresh organization pair for one test. A has quota 5 and a $10 spending limit (the seventh credit of the period
   * is overage) and three credits charged on the first day of the period, as the ledger holds them.
   */
  async function usageOrgs(): Promise<OrgPair> {
    const orgs = await f.newOrgs({ quota: 5 });
    await f.stack.services.stores.billing.updateOrganization(orgs.orgA, { spendingLimitCents: 1000 });
    await f.stack.services.stores.billing.appendUsage([{ id: newId('use'), orgId: orgs.orgA, keyId: null, credits: 3, reason: 'brand.lookup', source: 'quota', createdAt: period.start }]);
    return orgs;
  }

  /** Charges credits through the billing meter, as a lookup with an API key of the organization does. */
  async function charge(orgId: string, credits: number): Promise<void> {
    const { services } = f.stack;
    const org = await services.stores.billing.getOrganization(orgId);
    const [key] = await services.accounts.listApiKeys(orgId);
    const keyRecord = key ?? (await services.stores.billing.getApiKey((await services.accounts.createApiKey({ orgId })).id));
    if (!org || !keyRecord) throw new Error('no organization or key');
    const principal: Principal = { org, key: keyRecord };
    for (let i = 0; i < credits; i++) (await services.billing.reserve(principal, 1, 'single')).settle(1, 'brand.lookup');
  }

  /** The table's rows: day → [quota, prepaid, overage, total, cumulative]. */
  function tableRows(pageHtml: string): Map<string, number[]> {
    const rows = new Map<string, number[]>();
    for (const m of pageHtml.matchAll(/<tr><th scope="row">(\d{4}-\d\d-\d\d)<\/th>((?:<td>[\d,]+<\/td>){5})<\/tr>/g)) {
      rows.set(m[1] ?? '', [...(m[2] ?? '').matchAll(/<td>([\d,]+)<\/td>/g)].map((c) => Number((c[1] ?? '').replace(/,/g, ''))));
    }
    return rows;
  }

  describe('usage page', () => {
    it('shows the period, quota, overage in credits and dollars, and a day-by-day chart and table that agree', async () => {
      const o = await usageOrgs();
      await charge(o.orgA, 4); // 2 more from the quota (5 in all), then 2 overage credits: $0.20
      const res = await f.get(o.ownerA, page(o.orgA));
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const text = textOf(res.body);
      expect(text).toContain(`Billing period ${period.key}`);
      expect(text).toContain('Credits used 7 all sources');
      expect(text).toContain('5 of 5 used');
      expect(text).toContain('2 credits, $0.20 so far of the $10.00 monthly spending limit');

      const rows = tableRows(res.body);
      const expectedDays = usageDays(period.start, period.end, new Date(), []).map((d) => d.day);
      expect([...rows.keys()]).toEqual(expectedDays);
      expect(rows.get(today)?.[4]).toBe(7);
      if (firstDay !== today) {
        expect(rows.get(firstDay)).toEqual([3, 0, 0, 3, 3]);
        expect(rows.get(today)).toEqual([2, 0, 2, 4, 7]);
      } else {
        expect(rows.get(today)).toEqual([5, 0, 2, 7, 7]);
      }

      // The SVG: accessible name and description, the quota line labelled, the axis rounded above the usage.
      expect(res.body).toMatch(/<svg class="usage-chart"[^>]*role="img" aria-labelledby="usage-chart-title usage-chart-desc"/);
      expect(res.body).toContain(`<title id="usage-chart-title">Credits used in ${period.key}, cumulative, against the quota</title>`);
      expect(res.body).toContain('7 credits used in');
      expect(res.body).toContain('2 of them overage');
      expect(res.body).toContain('>quota 5</text>');
      expect(res.body).toContain(`>${axisMax(7 * 1.1)}</text>`);
    });

    it('moves when more credits are charged', async () => {
      const o = await usageOrgs();
      await charge(o.orgA, 4);
      expect(textOf((await f.get(o.memberA, page(o.orgA))).body)).toContain('Credits used 7 all sources');
      await charge(o.orgA, 1);
      const text = textOf((await f.get(o.memberA, page(o.orgA))).body);
      expect(text).toContain('Credits used 8 all sources');
      expect(text).toContain('3 credits, $0.30 so far');
      expect(tableRows((await f.get(o.ownerA, page(o.orgA))).body).get(today)?.[4]).toBe(8);
    });

    it('says overage is not available on the free plan', async () => {
      const o = await f.newOrgs();
      const free = await f.stack.services.accounts.createOrganization({ name: 'Free Co', plan: 'free', quota: 100 });
      await addMember(f.stack.services, free.id, o.ownerA.email, 'member');
      const text = textOf((await f.get(o.ownerA, page(free.id))).body);
      expect(text).toContain('Overage is not available on the free plan');
      expect(text).toContain('0 of 100 used');
    });

    it("answers 404 for another organization's usage, and sends signed-out visitors to sign in", async () => {
      const o = await usageOrgs();
      const res = await f.get(o.ownerB, page(o.orgA));
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('Credits used');
      expect((await f.stack.app.inject({ method: 'GET', url: page(o.orgA) })).headers.location).toBe('/dashboard/sign-in');
    });
  });

  describe('usage chart helpers', () => {
    it('fills every day of the period up to today and keeps a running total', () => {
      const start = new Date('2026-02-01T00:00:00Z');
      const end = new Date('2026-03-01T00:00:00Z');
      const days = usageDays(start, end, new Date('2026-02-03T10:00:00Z'), [{ day: '2026-02-02', quota: 2, prepaid: 1, overage: 0 }]);
      expect(days.map((d) => [d.day, d.total, d.cumulative])).toEqual([
        ['2026-02-01', 0, 0],
        ['2026-02-02', 3, 3],
        ['2026-02-03', 0, 3],
      ]);
      expect(usageDays(start, end, new Date('2026-05-01T00:00:00Z'), [])).toHaveLength(28);
      expect([axisMax(0), axisMax(7.7), axisMax(11), axisMax(1000), axisMax(1001)]).toEqual([10, 10, 20, 1000, 2000]);
    });
  });

  // The browser checks render what the inject tests above already read on both backends: once, on SQLite.
  if (backend === 'sqlite') needsChromium('browser').describe('usage page in Chromium', () => {
    it('has no serious accessibility violations and no horizontal overflow at 375 and 1440 px', async () => {
      const o = await usageOrgs();
      await charge(o.orgA, 4);
      const browser = await openBrowser(f, o.ownerA);
      try {
        expect(await browser.open(page(o.orgA))).toBe(200);
        const { violations, overflow } = await browser.check('dashboard-usage');
        expect(violations).toEqual([]);
        expect(overflow).toEqual({ 375: 0, 1440: 0 });
      } finally {
        await browser.close();
      }
    });
  });
});
