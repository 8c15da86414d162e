/**
 * The dashboard in headless Chromium against the real server and a real SMTP server (issue 23): sign in with the
 * link from the email as received, create a key on the keys page and read its secret (shown once), use it on the
 * API, see the credits used move on the overview, revoke it, and the API then refuses it (403). Every page E owns
 * has zero serious axe violations and no horizontal overflow at 375 and 1440 px (screenshots into docs/screenshots).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../billing/smtp-sink.js';
import { checkLayout, launchBrowser, seriousAxeViolations } from '../helpers/browser-page.js';
import { addMember, signInSecrets } from '../helpers/dashboard-sign-in.js';
import { startTestStack, type TestStack } from '../helpers/test-stack.js';
import { until } from '../helpers/until.js';
import { sampleBrand } from '../store/sample-brand.js';
import { freePort } from '../helpers/brandbase-process.js';
import { describeEachBackend } from '../helpers/backends.js';
import { needsChromium } from '../helpers/optional.js';

describeEachBackend('dashboard browser', (backend) => {
  const EMAIL = 'dana@example.com';

  needsChromium('browser').describe('the dashboard in Chromium', () => {
    let smtp: SmtpSink;
    let stack: TestStack;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let base: string;
    let orgId: string;

    beforeAll(async () => {
      smtp = await startSmtpSink();
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      stack = await startTestStack({ BRANDBASE_PUBLIC_URL: base, BRANDBASE_SMTP_URL: smtp.url }, { backend });
      const now = new Date();
      await stack.services.stores.brands.saveBrand({ brand: sampleBrand('acme.com'), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: 'acme.com' }]);
      orgId = (await stack.services.accounts.createOrganization({ name: 'Dana’s Widgets', plan: 'paid', quota: 1000 })).id;
      await addMember(stack.services, orgId, EMAIL, 'owner');
      await stack.app.listen({ port, host: '127.0.0.1' });
      browser = await launchBrowser();
      context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      page = await context.newPage();
    });

    afterAll(async () => {
      await browser?.close();
      await stack?.close();
      await smtp?.close();
    });

    /** axe (zero serious) and the layout check (no overflow, screenshots) of the page as it is now. */
    async function checkPage(name: string): Promise<void> {
      expect(await seriousAxeViolations(page), `${name}: serious axe violations`).toEqual([]);
      expect(await checkLayout(page, name), `${name}: horizontal overflow per width`).toEqual({ 375: 0, 1440: 0 });
      await page.setViewportSize({ width: 1440, height: 900 });
    }

    async function creditsUsed(): Promise<number> {
      await page.goto(`${base}/dashboard/orgs/${orgId}`);
      return Number((await page.locator('#credits-used').innerText()).replace(/,/g, ''));
    }

    it('signs in through the emailed link, creates a key, uses it, sees usage move, revokes it', async () => {
      // Not signed in: the dashboard sends the browser to the sign-in page.
      await page.goto(`${base}/dashboard`);
      expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
      await checkPage('dashboard-sign-in');

      await page.getByLabel('Email address').fill(EMAIL);
      await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
      await page.waitForURL('**/dashboard/sign-in/check');
      expect(await page.locator('h1').innerText()).toBe('Check your email');
      await checkPage('dashboard-check-email');

      await until(() => smtp.messages.some((m) => m.to.includes(EMAIL)), 'the sign-in email');
      const mail = smtp.messages.find((m) => m.to.includes(EMAIL));
      if (!mail) throw new Error('no sign-in email');
      expect(mail.subject).toMatch(/^Your Brandbase sign-in code: \d{6}$/);
      const { link } = signInSecrets(mail);
      expect(link.startsWith(`${base}/dashboard/sign-in/verify?token=`)).toBe(true);
      await page.goto(link);
      await checkPage('dashboard-sign-in-link');
      await page.getByRole('button', { name: 'Continue signing in' }).click();
      await page.waitForURL(`${base}/dashboard`);
      const cookies = await context.cookies();
      expect(cookies.find((c) => c.name === 'bb_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      await checkPage('dashboard-organizations');

      await page.getByRole('link', { name: 'Dana’s Widgets' }).click();
      await page.waitForURL(`${base}/dashboard/orgs/${orgId}`);
      expect(await creditsUsed()).toBe(0);
      await checkPage('dashboard-overview');

      await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'API keys' }).click();
      await page.getByLabel('Name').fill('Production server');
      await page.getByRole('button', { name: 'Create key' }).click();
      const secret = await page.getByTestId('new-key').inputValue();
      expect(secret.length).toBeGreaterThan(20);
      expect(await page.getByRole('cell', { name: 'Production server', exact: true }).count()).toBe(1);
      await checkPage('dashboard-keys');
      // Shown once: the keys page shows it no more, only its prefix.
      await page.goto(`${base}/dashboard/orgs/${orgId}/keys`);
      expect(await page.content()).not.toContain(secret);

      const used = await fetch(`${base}/v2/brands/acme.com`, { headers: { authorization: `Bearer ${secret}` } });
      expect(used.status).toBe(200);
      await used.arrayBuffer();
      // The meter writes the ledger in the background; the overview shows it once written.
      await until(async () => (await creditsUsed()) >= 1, 'the overview to show the credit used');

      await page.goto(`${base}/dashboard/orgs/${orgId}/keys`);
      await page.getByRole('button', { name: 'Revoke Production server' }).click();
      await page.waitForURL(`${base}/dashboard/orgs/${orgId}/keys`);
      expect(await page.getByRole('status').innerText()).toContain('is revoked');
      const refused = await fetch(`${base}/v2/brands/acme.com`, { headers: { authorization: `Bearer ${secret}` } });
      expect(refused.status).toBe(403);
      await refused.arrayBuffer();

      await page.goto(`${base}/dashboard/sessions`);
      expect(await page.getByText('This browser').count()).toBe(1);
      await checkPage('dashboard-sessions');

      await page.getByRole('button', { name: 'Sign out' }).first().click();
      await page.waitForURL('**/dashboard/sign-in');
      await page.goto(`${base}/dashboard/orgs/${orgId}`);
      expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
    });
  });
});
