/**
 * The merchant corrections page (issue 34) on the real service: filing a correction (the transaction route then
 * answers it for that organization only), every value escaped, a refused form keeping what was typed, members filing
 * too, removal kept in the audit trail with the user's id, CSRF, and another organization's page and corrections
 * answering 404 and left alone. In Chromium: zero serious axe violations, no horizontal overflow at 375 and 1440 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdBrand } from '../../eval/transactions/eval-store.js';
import { openBrowser, startOrgPages, textOf, type OrgPagesFixture } from './org-pages-fixture.js';
import { describeEachBackend } from '../helpers/backends.js';
import { needsChromium } from '../helpers/optional.js';
import { bearer } from '../helpers/test-stack.js';

describeEachBackend('corrections page', (backend) => {
  let f: OrgPagesFixture;
  const page = (orgId: string): string => `/dashboard/orgs/${orgId}/corrections`;

  beforeAll(async () => {
    f = await startOrgPages({ backend });
    await holdBrand(f.stack.services.stores.brands, { domain: 'correctedmerchant.com', name: 'Corrected Merchant', countryCode: 'US' });
    await holdBrand(f.stack.services.stores.brands, { domain: 'rulemerchant.com', name: 'Rule Merchant', countryCode: 'US' });
  });
  afterAll(async () => f?.close());

  const applying = (orgId: string) => f.stack.services.merchantCorrections.list(orgId).then((p) => p.corrections);
  const trail = (orgId: string) => f.stack.services.merchantCorrections.list(orgId, { includeRemoved: true }).then((p) => p.corrections);

  async function transaction(orgId: string, transactionLabel: string) {
    const key = await f.stack.services.accounts.createApiKey({ orgId });
    return f.stack.app.inject({ method: 'POST', url: '/v2/brands/transaction', headers: { ...bearer(key.key), 'content-type': 'application/json' }, payload: { transactionLabel, countryCode: 'US' } });
  }

  describe('corrections page', () => {
    it("files a correction that decides the organization's transactions, and only its own", async () => {
      const o = await f.newOrgs();
      expect((await transaction(o.orgA, 'RULE MERCHANT 0042')).json().domain).toBe('rulemerchant.com');
      const filed = await f.post(o.ownerA, page(o.orgA), { transactionLabel: 'RULE MERCHANT 0042', countryCode: 'us', domain: 'www.CorrectedMerchant.com' });
      expect(filed.statusCode).toBe(303);
      const [correction] = await applying(o.orgA);
      expect(correction).toMatchObject({ key: 'rule merchant', countryCode: 'US', domain: 'correctedmerchant.com', createdBy: expect.stringMatching(/^usr_/) });
      const shown = await f.follow(o.ownerA, filed);
      expect(textOf(shown.body)).toContain(`Correction ${correction?.id} filed: "rule merchant" → correctedmerchant.com.`);
      expect(textOf(shown.body)).toContain('RULE MERCHANT 0042');

      // Another store number reads to the same words: corrected too; organization B still gets the rules' answer.
      const corrected = await transaction(o.orgA, 'RULE MERCHANT 0777');
      expect(corrected.statusCode).toBe(200);
      expect(corrected.json().domain).toBe('correctedmerchant.com');
      expect(corrected.headers['x-bf-match-source']).toBe('correction');
      expect((await transaction(o.orgB, 'RULE MERCHANT 0042')).json().domain).toBe('rulemerchant.com');
    });

    it('escapes every value it shows', async () => {
      const o = await f.newOrgs();
      const hostile = '<script>alert(1)</script> "ACME" & <b>CO</b>';
      expect((await f.post(o.ownerA, page(o.orgA), { transactionLabel: hostile, notMerchant: '1' })).statusCode).toBe(303);
      const body = (await f.get(o.ownerA, page(o.orgA))).body;
      expect(body).not.toContain('<script>alert(1)');
      expect(body).not.toContain('<b>CO</b>');
      expect(body).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &quot;ACME&quot; &amp; &lt;b&gt;CO&lt;/b&gt;');
      expect(textOf(body)).toContain('not a merchant');
    });

    it('refuses a bad form with the reason, keeps what was typed, files nothing', async () => {
      const o = await f.newOrgs();
      const cases: [Record<string, string>, number, string][] = [
        [{ transactionLabel: 'ACME STORE 12', domain: 'https://acme.example/' }, 400, 'is not a domain name'],
        [{ transactionLabel: 'ACME STORE 12' }, 400, 'send either domain'],
        [{ transactionLabel: 'ACME STORE 12', domain: 'acme.example', notMerchant: '1' }, 400, 'send either domain'],
        [{ transactionLabel: 'ACME STORE 12', domain: 'acme.example', countryCode: 'U1' }, 400, 'countryCode must be an ISO 3166 alpha-2 code'],
        [{ transactionLabel: '#1234 03/14', domain: 'acme.example' }, 400, 'no merchant words'],
        [{ transactionLabel: '', domain: 'acme.example' }, 400, 'transactionLabel must be a string of 1 to 256 characters'],
      ];
      for (const [fields, status, message] of cases) {
        const res = await f.post(o.ownerA, page(o.orgA), fields);
        expect(res.statusCode, JSON.stringify(fields)).toBe(status);
        expect(textOf(res.body)).toContain(message);
        if (fields.domain) expect(res.body).toContain(`value="${fields.domain}"`);
        if (fields.transactionLabel) expect(res.body).toContain(`value="${fields.transactionLabel}"`);
      }
      expect(await trail(o.orgA)).toEqual([]);
    });

    it('lets members file and remove; a removal is kept with who and when, and a second one answers 404', async () => {
      const o = await f.newOrgs();
      expect((await f.post(o.memberA, page(o.orgA), { transactionLabel: 'RULE MERCHANT', domain: 'correctedmerchant.com' })).statusCode).toBe(303);
      const [correction] = await applying(o.orgA);
      if (!correction) throw new Error('not filed');
      const removed = await f.post(o.ownerA, `${page(o.orgA)}/${correction.id}/remove`);
      expect(removed.statusCode).toBe(303);
      expect(textOf((await f.follow(o.ownerA, removed)).body)).toContain(`Correction ${correction.id} removed`);
      expect(await applying(o.orgA)).toEqual([]);
      const [kept] = await trail(o.orgA);
      expect(kept).toMatchObject({ id: correction.id, createdBy: correction.createdBy, removedBy: expect.stringMatching(/^usr_/), removedAt: expect.any(Date) });
      expect(kept?.removedBy).not.toBe(correction.createdBy);
      const audit = textOf((await f.get(o.ownerA, `${page(o.orgA)}?removed=1`)).body);
      expect(audit).toContain(`removed`);
      expect(audit).toContain(kept?.removedBy ?? '');
      expect((await f.post(o.ownerA, `${page(o.orgA)}/${correction.id}/remove`)).statusCode).toBe(404);
      expect((await transaction(o.orgA, 'RULE MERCHANT')).json().domain).toBe('rulemerchant.com');
    });

    it('refuses a post without the CSRF token or from another origin, changing nothing', async () => {
      const o = await f.newOrgs();
      const fields = { transactionLabel: 'RULE MERCHANT', domain: 'correctedmerchant.com' };
      expect((await f.post(o.ownerA, page(o.orgA), { ...fields, _csrf: '' })).statusCode).toBe(403);
      expect((await f.post(o.ownerA, page(o.orgA), { ...fields, _csrf: o.ownerB.csrfToken })).statusCode).toBe(403);
      expect((await f.post(o.ownerA, page(o.orgA), fields, { origin: 'https://evil.example' })).statusCode).toBe(403);
      expect(await trail(o.orgA)).toEqual([]);
    });

    it("answers 404 for another organization's page and leaves its corrections alone", async () => {
      const o = await f.newOrgs();
      const { correction: theirs } = await f.stack.services.merchantCorrections.add(o.orgB, { transactionLabel: 'RULE MERCHANT', domain: 'correctedmerchant.com' }, 'key_b');
      expect((await f.get(o.ownerA, page(o.orgB))).statusCode).toBe(404);
      expect((await f.post(o.ownerA, page(o.orgB), { transactionLabel: 'X STORE', notMerchant: '1' })).statusCode).toBe(404);
      expect((await f.post(o.ownerA, `${page(o.orgA)}/${theirs.id}/remove`)).statusCode).toBe(404);
      expect(await applying(o.orgB)).toEqual([theirs]);
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
  if (backend === 'sqlite') needsChromium('browser').describe('corrections page in Chromium', () => {
    it('has no serious accessibility violations and no horizontal overflow at 375 and 1440 px', async () => {
      const o = await f.newOrgs();
      const corrections = f.stack.services.merchantCorrections;
      await corrections.add(o.orgA, { transactionLabel: 'SQ *BLUE BOTTLE COF 4', countryCode: 'US', domain: 'bluebottlecoffee.com' }, 'key_a');
      const { correction } = await corrections.add(o.orgA, { transactionLabel: 'A VERY LONG DESCRIPTOR WITHOUT ANY SPACES HEREXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX', notMerchant: true }, 'key_a');
      await corrections.remove(o.orgA, correction.id, 'key_a');
      const browser = await openBrowser(f, o.ownerA);
      try {
        for (const [path, shot] of [
          [page(o.orgA), 'dashboard-corrections'],
          [`${page(o.orgA)}?removed=1`, 'dashboard-corrections-removed'],
        ] as const) {
          expect(await browser.open(path)).toBe(200);
          const { violations, overflow } = await browser.check(shot);
          expect(violations).toEqual([]);
          expect(overflow).toEqual({ 375: 0, 1440: 0 });
        }
      } finally {
        await browser.close();
      }
    });
  });
});
