/**
 * Integration: labelled fixture sites built from real brand data (eval/record), served on loopback and crawled
 * with the real crawlBrand and SafeFetcher. Checks the paths one by one, then the eval targets as a guard.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { BrandDraft } from '../../src/crawl/crawl-brand.js';
import { deltaE } from '../../src/domain/color-math.js';
import { BRANDS } from '../../eval/record/brands.js';
import { controlSites } from '../../eval/record/control-sites.js';
import { buildBrandSite, type GeneratedSite } from '../../eval/record/site-generator.js';
import { crawlSites, run } from '../../eval/record/suite.js';

const byHost = new Map<string, { site: GeneratedSite; draft: BrandDraft | null }>();
const pick = ['stripe', 'notion', 'spotify', 'khanacademy', 'dhl', 'ryanair', 'deliveroo', 'github'];

beforeAll(async () => {
  const chosen = BRANDS.map((b, i) => ({ b, i })).filter(({ b }) => pick.includes(b.slug));
  const sites = [...(await Promise.all(chosen.map(({ b, i }) => buildBrandSite(b, i)))), ...controlSites()];
  for (const r of await crawlSites(sites)) byHost.set(r.site.host, r);
}, 300_000); // a hang guard sized for a busy machine (14 sites built and crawled), not a speed target

function draftOf(host: string): BrandDraft {
  const draft = byHost.get(host)?.draft;
  if (!draft) throw new Error(`${host} was not crawled`);
  return draft;
}

describe('record extraction on generated brand sites', () => {
  it('finds the official brand hex as the accent (token, theme-color, logo-only variants)', () => {
    for (const host of ['stripe.test', 'spotify.test', 'deliveroo.test']) {
      const hex = byHost.get(host)?.site.truth?.brandHex ?? '';
      const accent = draftOf(host).colors.find((c) => c.type === 'accent');
      expect(accent && deltaE(accent.hex, hex)).toBeLessThanOrEqual(0.05);
    }
  });

  it('keeps monochrome brands monochrome', () => {
    for (const host of ['notion.test', 'github.test']) expect(draftOf(host).colors.some((c) => c.type === 'accent')).toBe(false);
  });

  it('reads founded year and head count from the about page text, never the footer ©', () => {
    const dhl = draftOf('dhl.test');
    expect(dhl.company.foundedYear).toBe(1969);
    expect(dhl.company.employees).toBe(10001);
  });

  it('reads location with region and subregion from broken JSON-LD, and a listing from text', () => {
    expect(draftOf('ryanair.test').company.location).toEqual({
      city: 'Dublin', state: null, countryCode: 'IE', country: 'Ireland', region: 'Europe', subregion: 'Northern Europe',
    });
    expect(draftOf('spotify.test').company).toMatchObject({ kind: 'PUBLIC_COMPANY', financialIdentifiers: { ticker: ['SPOT'] } });
    expect(draftOf('khanacademy.test').company.kind).toBe('NON_PROFIT');
  });

  it('an Adobe Fonts title family is custom and the Google body family google', () => {
    expect(draftOf('dhl.test').fonts.map((f) => `${f.type}=${f.name}/${f.origin}`)).toEqual(['title=brandon-grotesque/custom', 'body=Open Sans/google']);
  });

  it('predicts industries with calibrated scores and flags no clean site', () => {
    // The classifier abstains below its answer threshold (ADR 0025): Ryanair's one-line "book cheap flights" page
    // gets the top-level travel industry only, calibrated below 1; DHL's logistics page is answered with its sub-industry.
    const ryanair = draftOf('ryanair.test').company.industries;
    expect(ryanair.map((i) => i.id)).toEqual(['ind_travel']);
    expect(ryanair[0]?.score).toBeLessThan(1);
    expect(draftOf('dhl.test').company.industries.map((i) => i.id)).toEqual(expect.arrayContaining(['ind_logistics', 'ind_transport']));
    for (const [host, r] of byHost) if (!r.site.nsfw) expect(r.draft?.isNsfw, host).toBe(false);
    expect(draftOf('velvetnights.test').isNsfw).toBe(true);
    expect(draftOf('hotcams.test').isNsfw).toBe(true);
  });

  it('scores real brands in the upper third and parked/placeholder pages in the lower third', () => {
    expect(draftOf('stripe.test').qualityScore).toBeGreaterThanOrEqual(2 / 3);
    expect(draftOf('bestdeals-domain.test').qualityScore).toBeLessThan(1 / 3);
    expect(draftOf('comingsoon.test').qualityScore).toBeLessThan(1 / 3);
    expect(draftOf('bestdeals-domain.test').company.industries).toEqual([]);
  });
});

describe('npm run eval (record suite)', () => {
  it('meets every target it declares', async () => {
    const report = await run({ realCorpus: null });
    const missed = report.metrics.filter((m) => m.target && (m.target.direction === 'higher' ? m.value < m.target.value : m.value > m.target.value));
    expect(missed.map((m) => `${m.name}: ${m.value}`)).toEqual([]);
    expect(report.sites).toBeGreaterThanOrEqual(40);
  }, 600_000); // a hang guard: 58 sites built and crawled on a possibly busy machine
});
