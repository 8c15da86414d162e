/**
 * "Why this logo" from a real crawl (ADR 0044): the service crawls a loopback fixture site (a <picture> logo with a
 * dark-scheme variant, a 32 px favicon and an apple-touch-icon), keeps the decision with the brand, and the brand
 * page shows it. The evidence names candidates by source, never by the site's URLs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Brand } from '../../src/domain/brand.js';
import type { LogoEvidence } from '../../src/domain/logo-evidence.js';
import { FIXTURE_HOSTS, startFixtureSites, type FixtureSites } from '../helpers/fixture-sites.js';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';
import { describeEachBackend } from '../helpers/backends.js';

describeEachBackend('logo evidence crawl', (backend) => {
  let sites: FixtureSites;
  let stack: TestStack;
  let brand: Brand;
  let evidence: LogoEvidence;

  beforeAll(async () => {
    sites = await startFixtureSites();
    stack = await startTestStack({ BRANDBASE_CRAWL_HOSTS: JSON.stringify(sites.hostMap) }, { backend });
    const { key } = await stack.newKey({ quota: 100 });
    const res = await stack.app.inject({ method: 'GET', url: `/v2/brands/${FIXTURE_HOSTS.lumen}`, headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    brand = res.json();
    const kept = await stack.services.stores.logoEvidence.getLogoEvidence(brand.id);
    if (!kept) throw new Error('no logo evidence kept with the crawl');
    evidence = kept.evidence;
  });

  afterAll(async () => {
    await stack?.close();
    await sites?.close();
  });

  describe('the logo decision of a crawl', () => {
    it('says which candidate won and why', () => {
      const summary = evidence.candidates.map((c) => [c.source, c.scheme, c.outcome, c.reason, c.role]);
      expect(summary).toEqual([
        ['header-img', 'light', 'chosen', 'primary-mark', 'logo'],
        ['picture-source', 'dark', 'chosen', 'scheme-variant', 'logo'],
        ['apple-touch-icon', null, 'chosen', 'best-icon', 'icon'],
        ['link-icon', null, 'rejected', 'smaller-icon', null],
      ]);
      expect(evidence.candidates.map((c) => c.format)).toEqual(['svg', 'svg', 'png', 'png']);
      expect(evidence.candidates.find((c) => c.source === 'apple-touch-icon')?.width).toBe(180);
      // The mark's score is its placement score (header, home link, logo-named, alt naming the brand).
      expect(evidence.candidates[0]?.score).toBeGreaterThan(evidence.candidates[1]?.score ?? Infinity);
    });

    it('names the kept files by the asset keys the record lists', () => {
      const recordSrcs = brand.logos.flatMap((l) => l.formats.map((f) => f.src));
      const chosen = evidence.candidates.filter((c) => c.outcome === 'chosen');
      expect(chosen).toHaveLength(3);
      for (const c of chosen) expect(recordSrcs).toContain(`http://brandbase.test/assets/${c.assetKey}`);
      for (const c of evidence.candidates.filter((x) => x.outcome === 'rejected')) expect(c.assetKey).toBeNull();
    });

    it('stores no URL of the site', () => {
      const json = JSON.stringify(evidence);
      expect(json).not.toContain(FIXTURE_HOSTS.lumen);
      expect(json).not.toMatch(/https?:|\/img\/|favicon-32/);
    });

    it('is shown on the brand page', async () => {
      const res = await stack.app.inject({ method: 'GET', url: `/brands/${FIXTURE_HOSTS.lumen}` });
      expect(res.statusCode).toBe(200);
      const rows = [...res.body.matchAll(/<tr data-outcome="(\w+)" data-reason="([\w-]+)">/g)].map((m) => `${m[1]}:${m[2]}`);
      expect(rows).toEqual(['chosen:primary-mark', 'chosen:scheme-variant', 'chosen:best-icon', 'rejected:smaller-icon']);
      expect(res.body).toContain('Rejected: a larger or better icon was chosen');
    });
  });
});
