/**
 * The public brand pages through the real service (inject): a held brand's page with every field family, its text
 * escaped; the "why this logo" table; the 404 page that never crawls; canonical redirects; caching; the search page
 * and its per-address limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGO_EVIDENCE_VERSION, type LogoEvidence } from '../../src/domain/logo-evidence.js';
import { emptyCssCounts, PALETTE_EVIDENCE_VERSION, type Palette, type PaletteColor, type PaletteEvidence } from '../../src/domain/palette.js';
import { roundedContrast } from '../../src/domain/wcag.js';
import { PAGE_SEARCHES_PER_MINUTE } from '../../src/main/brand-page-deps.js';
import type { Brand } from '../../src/domain/brand.js';
import { sampleBrand } from '../store/sample-brand.js';
import { startTestStack, type TestStack } from '../helpers/test-stack.js';
import { until } from '../helpers/until.js';
import { describeEachBackend } from '../helpers/backends.js';

describeEachBackend('brand pages', (backend) => {
  const HOSTILE_NAME = '<script>alert("x")</script> Acme & Co';
  const NOW = new Date('2026-01-02T03:04:05Z');
  /** The per-address search limit's clock, held still: on a loaded machine 30 searches can outlast a refill (one every 2 s). */
  const STILL = (): number => NOW.getTime();

  const EVIDENCE: LogoEvidence = {
    version: LOGO_EVIDENCE_VERSION,
    candidates: [
      { source: 'header-svg', scheme: null, format: 'svg', width: 320, height: 80, score: 139, outcome: 'chosen', role: 'logo', reason: 'primary-mark', assetKey: null },
      { source: 'meta-logo', scheme: null, format: 'png', width: 600, height: 600, score: 60, outcome: 'rejected', role: null, reason: 'lower-score', assetKey: null },
      { source: 'link-icon', scheme: null, format: 'png', width: 16, height: 16, score: 16, outcome: 'rejected', role: null, reason: 'smaller-icon', assetKey: null },
    ],
  };

  async function save(stack: TestStack, brand: Brand, evidence?: LogoEvidence): Promise<void> {
    await stack.services.stores.brands.saveBrand({ brand, status: 'indexed', crawledAt: NOW, createdAt: NOW, updatedAt: NOW }, [{ kind: 'domain', value: brand.domain }], evidence ? { logoEvidence: evidence } : {});
  }

  describe('brand pages', () => {
    let stack: TestStack;
    const acme = sampleBrand('acme-rockets.example', {
      name: HOSTILE_NAME,
      links: [
        { name: 'twitter', url: 'https://twitter.com/acme' },
        { name: 'github', url: 'javascript:alert(1)' },
      ],
    });

    beforeAll(async () => {
      stack = await startTestStack({}, { backend, clock: STILL });
      await save(stack, acme, EVIDENCE);
      await save(stack, sampleBrand('adult.example', { name: 'Adult Thing', isNsfw: true }));
    });
    afterAll(async () => stack?.close());

    it('shows a held brand without a credential, every site text escaped', async () => {
      const res = await stack.app.inject({ method: 'GET', url: '/brands/acme-rockets.example' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers['x-frame-options']).toBe('DENY');
      const body = res.body;
      expect(body).not.toContain('<script>alert');
      expect(body).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; Acme &amp; Co');
      // The one script is our own, from 'self'.
      expect([...body.matchAll(/<script\b[^>]*>/g)].map((m) => m[0])).toEqual(['<script src="/brands/_assets/copy-url.js" defer>']);
      // A site-provided link that is not http(s) never becomes a link.
      expect(body).toContain('href="https://twitter.com/acme"');
      expect(body).not.toContain('javascript:alert');
    });

    it('shows the primary logo, every file with download and copy, colors with contrast, fonts, images, company, industries', async () => {
      const body = (await stack.app.inject({ method: 'GET', url: '/brands/acme-rockets.example' })).body;
      const svg = acme.logos[0]?.formats[0]?.src ?? '';
      // The theme `dark` logo is shown on the light backdrop it is made for.
      expect(body).toMatch(new RegExp(`data-backdrop="light"><img id="primary-logo" src="${svg.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}"`));
      for (const logo of acme.logos) for (const format of logo.formats) {
        expect(body).toContain(`href="${format.src}" download`);
        expect(body).toContain(`data-copy="${format.src}"`);
      }
      expect(body).toContain('512 × 256 px · 18,311 bytes');
      expect(body).toContain('#FF5A1F');
      expect(body).toContain(`${roundedContrast('#ff5a1f', '#ffffff').toFixed(2)}:1`);
      expect(body).toContain(`${roundedContrast('#0b0b0f', '#000000').toFixed(2)}:1`);
      expect(body).toContain('Inter');
      expect(body).toContain('alt="Rocket on the pad"');
      expect(body).toContain('Phoenix, Arizona, United States');
      expect(body).toContain('Aerospace');
      expect(body).toContain('in Manufacturing');
      // Every <img> has alt text.
      expect([...body.matchAll(/<img\b[^>]*>/g)].every((m) => /\balt="[^"]+"/.test(m[0]))).toBe(true);
    });

    it('explains why this logo: each candidate, its score and outcome', async () => {
      const body = (await stack.app.inject({ method: 'GET', url: '/brands/acme-rockets.example' })).body;
      expect(body).toContain('<h2 id="why-logo">Why this logo</h2>');
      const rows = [...body.matchAll(/<tr data-outcome="(\w+)" data-reason="([\w-]+)"><td>(.*?)<\/td><td>(.*?)<\/td><td>(.*?)<\/td>/g)].map((m) => [m[1], m[2], m[3], m[4], m[5]]);
      expect(rows).toEqual([
        ['chosen', 'primary-mark', 'header inline &lt;svg&gt;', 'SVG 320 × 80', '139'],
        ['rejected', 'lower-score', 'og:logo / itemprop=&quot;logo&quot;', 'PNG 600 × 600', '60'],
        ['rejected', 'smaller-icon', '&lt;link rel=&quot;icon&quot;&gt;', 'PNG 16 × 16', '16'],
      ]);
      expect(body).toContain('Chosen as logo</strong>: highest-scoring mark');
    });

    it('shows a stored palette, and says so when none is built (a page view never builds one)', async () => {
      const before = (await stack.app.inject({ method: 'GET', url: '/brands/acme-rockets.example' })).body;
      expect(before).toContain('No palette built yet');
      expect(await stack.services.stores.palette.getStoredPalette(acme.id)).toBeNull();
      const brand = sampleBrand('palette-held.example', { name: 'Palette Held' });
      const evidence: PaletteEvidence = { version: PALETTE_EVIDENCE_VERSION, source: 'css', css: {}, elements: [], tokens: [], gradients: [], pairs: [], themes: {}, signals: [] };
      await stack.services.stores.brands.saveBrand({ brand, status: 'indexed', crawledAt: NOW, createdAt: NOW, updatedAt: NOW }, [{ kind: 'domain', value: brand.domain }], { paletteEvidence: evidence });
      const color: PaletteColor = {
        hex: '#ff5a1f', name: 'Rocket <Orange>', role: 'primary', context: 'identity', rank: 1, legibleText: '#000000', legibleTextContrast: 6.73,
        onColor: null, onColorContrast: null, brightness: 142, prevalence: 0.4, usage: { elements: [], css: emptyCssCounts() }, tokens: [], variants: [],
      };
      const palette: Palette = { colors: [color], logos: [], onPairs: [], gradients: [], themes: {} };
      expect(await stack.services.stores.palette.savePalette(brand.id, palette, NOW, NOW)).toBe(true);
      const body = (await stack.app.inject({ method: 'GET', url: '/brands/palette-held.example' })).body;
      expect(body).toContain('<h2 id="palette">Palette</h2><table>');
      expect(body).toContain('Rocket &lt;Orange&gt;');
      expect(body).toContain('#000000 at 6.73:1');
    });

    it('is cached briefly and answers 304 to its ETag', async () => {
      const first = await stack.app.inject({ method: 'GET', url: '/brands/acme-rockets.example' });
      expect(first.headers['cache-control']).toBe('public, max-age=60');
      const etag = String(first.headers['etag']);
      expect(etag).toMatch(/^W\/"[\w-]+"$/);
      const again = await stack.app.inject({ method: 'GET', url: '/brands/acme-rockets.example', headers: { 'if-none-match': etag } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
    });

    it('shows a re-saved record (another process wrote it) once the brand cache has synced', async () => {
      const page = async () => (await stack.app.inject({ method: 'GET', url: '/brands/resaved.example' })).body;
      await save(stack, sampleBrand('resaved.example', { description: 'First description.' }));
      expect(await page()).toContain('First description.');
      // As `brandbase serve` does: the poller that drops brands other processes wrote (ADR 0017).
      await stack.services.cacheSync.start();
      const later = new Date(NOW.getTime() + 60_000);
      const brand = sampleBrand('resaved.example', { description: 'Second description.' });
      await stack.services.stores.brands.saveBrand({ brand, status: 'indexed', crawledAt: later, createdAt: NOW, updatedAt: later }, [{ kind: 'domain', value: brand.domain }], { logoEvidence: EVIDENCE });
      await until(async () => (await page()).includes('Second description.'), 'the page showing the re-saved record');
      expect(await page()).toContain('<h2 id="why-logo">Why this logo</h2><p>The candidates');
    });

    it('answers a brand not held with a 404 page and a search box, and never queues a crawl', async () => {
      const before = await stack.services.queue.depth();
      const res = await stack.app.inject({ method: 'GET', url: '/brands/never-seen.example' });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain('No brand page for never-seen.example');
      expect(res.body).toContain('<form class="search" role="search" action="/brands" method="get">');
      expect(await stack.services.queue.depth()).toBe(before);
      expect(await stack.services.stores.brands.findBrandByIdentifier({ kind: 'domain', value: 'never-seen.example' })).toBeNull();
    });

    it('never shows an NSFW brand, and refuses what is not a domain', async () => {
      expect((await stack.app.inject({ method: 'GET', url: '/brands/adult.example' })).statusCode).toBe(404);
      const bad = await stack.app.inject({ method: 'GET', url: '/brands/not%20a%20domain' });
      expect(bad.statusCode).toBe(404);
      expect(bad.body).toContain('Not a domain');
    });

    it('redirects another spelling of the domain to its canonical page', async () => {
      const res = await stack.app.inject({ method: 'GET', url: '/brands/WWW.Acme-Rockets.example' });
      expect(res.statusCode).toBe(301);
      expect(res.headers['location']).toBe('/brands/acme-rockets.example');
    });

    it('serves the copy script from the service itself', async () => {
      const res = await stack.app.inject({ method: 'GET', url: '/brands/_assets/copy-url.js' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(res.body).toContain('navigator.clipboard.writeText');
    });

    it('searches by name, links results to their pages and escapes the query', async () => {
      const empty = await stack.app.inject({ method: 'GET', url: '/brands' });
      expect(empty.statusCode).toBe(200);
      expect(empty.body).toContain('Search brands by name');
      const res = await stack.app.inject({ method: 'GET', url: `/brands?q=${encodeURIComponent('Acme')}` });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('href="/brands/acme-rockets.example"');
      const hostile = await stack.app.inject({ method: 'GET', url: `/brands?q=${encodeURIComponent('<img src=x onerror=alert(1)>')}` });
      expect(hostile.statusCode).toBe(200);
      expect(hostile.body).not.toContain('<img src=x');
      expect(hostile.body).toContain('&lt;img src=x onerror=alert(1)&gt;');
    });

    it('limits searches per client address, with Retry-After; other addresses still search', async () => {
      const search = (address: string) => stack.app.inject({ method: 'GET', url: '/brands?q=rockets', remoteAddress: address });
      for (let i = 0; i < PAGE_SEARCHES_PER_MINUTE; i++) expect((await search('198.51.100.7')).statusCode).toBe(200);
      const refused = await search('198.51.100.7');
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(refused.body).toContain('Too many searches');
      expect((await search('198.51.100.8')).statusCode).toBe(200);
    });
  });

  describe('the client address behind a load balancer (BRANDBASE_TRUST_PROXY)', () => {
    const search = (stack: TestStack, forwardedFor: string) =>
      stack.app.inject({ method: 'GET', url: '/brands?q=rockets', remoteAddress: '10.0.0.5', headers: { 'x-forwarded-for': forwardedFor } });

    async function exhaust(stack: TestStack, forwardedFor: string): Promise<void> {
      for (let i = 0; i < PAGE_SEARCHES_PER_MINUTE; i++) expect((await search(stack, forwardedFor)).statusCode).toBe(200);
    }

    it('counts the forwarded client address when the balancer is trusted', async () => {
      const stack = await startTestStack({ BRANDBASE_TRUST_PROXY: '10.0.0.0/24' }, { backend, clock: STILL });
      try {
        await exhaust(stack, '198.51.100.7');
        expect((await search(stack, '198.51.100.7')).statusCode).toBe(429);
        expect((await search(stack, '198.51.100.8')).statusCode).toBe(200);
      } finally {
        await stack.close();
      }
    });

    it('ignores X-Forwarded-For from a sender it does not trust: the connection is the client', async () => {
      const stack = await startTestStack({}, { backend, clock: STILL });
      try {
        await exhaust(stack, '198.51.100.7');
        // Another forwarded address does not buy a new limit: the untrusted header is not believed.
        expect((await search(stack, '198.51.100.8')).statusCode).toBe(429);
      } finally {
        await stack.close();
      }
    });
  });

  describe('brand pages when the store is down', () => {
    it('answer a search page with 503, not a JSON error', async () => {
      const broken = await startTestStack({}, { backend });
      await broken.services.close();
      try {
        const res = await broken.app.inject({ method: 'GET', url: '/brands?q=acme' });
        expect(res.statusCode).toBe(503);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(res.body).toContain('Search is unavailable');
      } finally {
        await broken.app.close();
        await broken.database.cleanup();
      }
    });
  });
});
