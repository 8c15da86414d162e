/**
 * The brand pages in headless Chromium against the real server (issue 23): the primary logo shown is the record's
 * logo file on the backdrop its theme is made for (a `dark` logo on light, a `light` logo on dark); every page has
 * zero serious axe violations and no horizontal overflow at 375 and 1440 px (screenshots into docs/screenshots);
 * the pages read without JavaScript and the copy buttons appear with it.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Brand, Logo } from '../../src/domain/brand.js';
import { LOGO_EVIDENCE_VERSION } from '../../src/domain/logo-evidence.js';
import { BRAND_PAGE_BACKDROPS } from '../../src/http/pages/brand/brand-page-style.js';
import { checkLayout, launchBrowser, seriousAxeViolations } from '../helpers/browser-page.js';
import { startTestStack, type TestStack } from '../helpers/test-stack.js';
import { sampleBrand } from '../store/sample-brand.js';
import { freePort } from '../helpers/brandbase-process.js';
import { describeEachBackend } from '../helpers/backends.js';
import { needsChromium } from '../helpers/optional.js';

describeEachBackend('brand pages browser', (backend) => {
  const NOW = new Date('2026-01-02T03:04:05Z');

  /** A wide mark in one color on transparency (its theme says which backdrop it is made for). */
  function markSvg(fill: string): Buffer {
    return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="320" height="80" viewBox="0 0 320 80"><rect x="4" y="10" width="60" height="60" rx="12" fill="${fill}"/><rect x="80" y="28" width="230" height="24" rx="6" fill="${fill}"/></svg>`);
  }

  /** rgb(r, g, b) as #rrggbb. */
  function hexOf(rgb: string): string {
    const parts = /rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(rgb);
    if (!parts) throw new Error(`not a color: ${rgb}`);
    return `#${parts.slice(1, 4).map((n) => Number(n).toString(16).padStart(2, '0')).join('')}`;
  }

  needsChromium('browser').describe('brand pages in Chromium', () => {
    let stack: TestStack;
    let browser: Browser;
    let base: string;
    const records: Record<'dark' | 'light', Brand> = {} as Record<'dark' | 'light', Brand>;

    beforeAll(async () => {
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      stack = await startTestStack({ BRANDBASE_PUBLIC_URL: base }, { backend });
      for (const theme of ['dark', 'light'] as const) {
        const file = await stack.services.assets.put(markSvg(theme === 'dark' ? '#1e3a8a' : '#f8fafc'), 'svg');
        const logo: Logo = { theme, type: 'logo', tags: [], formats: [{ src: file.key, format: 'svg', width: 320, height: 80, size: file.size, background: 'transparent' }] };
        const brand = sampleBrand(`${theme}-logo.example`, { name: `${theme === 'dark' ? 'Darkmark' : 'Lightmark'} Studio`, logos: [logo], images: [] });
        records[theme] = brand;
        await stack.services.stores.brands.saveBrand({ brand, status: 'indexed', crawledAt: NOW, createdAt: NOW, updatedAt: NOW }, [{ kind: 'domain', value: brand.domain }], {
          logoEvidence: {
            version: LOGO_EVIDENCE_VERSION,
            candidates: [
              { source: 'header-img', scheme: null, format: 'svg', width: 320, height: 80, score: 150, outcome: 'chosen', role: 'logo', reason: 'primary-mark', assetKey: file.key },
              { source: 'link-icon', scheme: null, format: 'png', width: 32, height: 100, score: 32, outcome: 'rejected', role: null, reason: 'not-square', assetKey: null },
            ],
          },
        });
      }
      await stack.app.listen({ port, host: '127.0.0.1' });
      browser = await launchBrowser();
    });

    afterAll(async () => {
      await browser?.close();
      await stack?.close();
    });

    async function open(path: string, javaScriptEnabled = true): Promise<Page> {
      const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      const res = await page.goto(base + path, { waitUntil: 'load' });
      expect(res?.status()).toBeLessThan(500);
      return page;
    }

    for (const theme of ['dark', 'light'] as const) {
      it(`shows the ${theme}-theme logo file on the ${theme === 'dark' ? 'light' : 'dark'} backdrop`, async () => {
        const page = await open(`/brands/${records[theme].domain}`);
        const key = records[theme].logos[0]?.formats[0]?.src ?? '';
        const shown = (await page.evaluate(`(() => {
        const img = document.getElementById('primary-logo');
        return { src: img.currentSrc || img.src, loaded: img.complete && img.naturalWidth > 0, backdrop: getComputedStyle(img.parentElement).backgroundColor };
      })()`)) as { src: string; loaded: boolean; backdrop: string };
        expect(shown.src).toBe(`${base}/assets/${key}`);
        expect(shown.loaded).toBe(true);
        expect(hexOf(shown.backdrop)).toBe(theme === 'dark' ? BRAND_PAGE_BACKDROPS.light : BRAND_PAGE_BACKDROPS.dark);
        expect(await seriousAxeViolations(page)).toEqual([]);
        expect(await checkLayout(page, `brand-page-${theme}-logo`)).toEqual({ 375: 0, 1440: 0 });
        await page.context().close();
      });
    }

    it('the search page, the not-held page: no serious axe violation, no overflow', async () => {
      for (const [path, name] of [['/brands?q=Studio', 'brand-page-search'], ['/brands/not-held.example', 'brand-page-not-held']] as const) {
        const page = await open(path);
        expect(await seriousAxeViolations(page)).toEqual([]);
        expect(await checkLayout(page, name)).toEqual({ 375: 0, 1440: 0 });
        await page.context().close();
      }
    });

    it('the search box finds the brands from the keyboard and leads to their pages', async () => {
      const page = await open('/brands');
      await page.focus('#q');
      await page.keyboard.type('Darkmark');
      await page.keyboard.press('Enter');
      await page.waitForURL(/q=Darkmark/);
      await page.getByRole('link', { name: 'Darkmark Studio' }).click();
      await page.waitForURL(`${base}/brands/dark-logo.example`);
      expect(await page.locator('h1').textContent()).toBe('Darkmark Studio');
      await page.context().close();
    });

    it('reads without JavaScript (URLs visible, copy buttons hidden) and adds copy buttons with it', async () => {
      const path = `/brands/${records.dark.domain}`;
      const plain = await open(path, false);
      expect(await plain.locator('code.url').first().isVisible()).toBe(true);
      expect(await plain.locator('button.copy').first().isVisible()).toBe(false);
      await plain.context().close();
      const scripted = await open(path);
      await scripted.locator('button.copy').first().waitFor({ state: 'visible' });
      expect(await scripted.locator('button.copy').first().isVisible()).toBe(true);
      await scripted.context().close();
    });
  });
});
