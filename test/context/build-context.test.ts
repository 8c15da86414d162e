/**
 * The context profile, built from what real crawls of sites on loopback kept (crawlBrand, SafeFetcher with the host
 * map, the real asset store): traceable to the site's pages on every site (the purpose-written one, a near-empty one
 * and the labelled eval sites), the facts a site states found, the noise around them (menus, footer, cookie banner,
 * newsletter form) never taken, and nothing filled in where a site says nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlBrand, type CrawlOutcome } from '../../src/crawl/crawl-brand.js';
import { buildContextProfile } from '../../src/context/build-context.js';
import { contextEvidence, CONTEXT_LIMITS } from '../../src/crawl/fields/context-evidence.js';
import { parseHtmlPage } from '../../src/crawl/page/html-page.js';
import type { ContextEvidence, ContextProfile } from '../../src/domain/brand-context.js';
import { SafeFetcher } from '../../src/platform/safe-fetcher.js';
import { tempAssets } from '../helpers/temp-assets.js';
import { FERNHOLLOW, QUIETPINE, startContextSites, type ContextSites } from './context-sites.js';
import { profileTexts, untraceable } from './context-trace.js';

let sites: ContextSites;
const crawled = new Map<string, Extract<CrawlOutcome, { ok: true }>>();

beforeAll(async () => {
  sites = await startContextSites();
  const fetcher = new SafeFetcher({ hostMap: sites.served.hostMap });
  const assets = tempAssets();
  const hosts = sites.sites.map((s) => s.host);
  // Four crawls at a time: the sites are on loopback, the machine is shared.
  for (let i = 0; i < hosts.length; i += 4) {
    await Promise.all(
      hosts.slice(i, i + 4).map(async (host) => {
        const outcome = await crawlBrand(host, { fetcher, assets }, { timeoutMs: 60_000 });
        if (outcome.ok) crawled.set(host, outcome);
      }),
    );
  }
}, 300_000);

afterAll(async () => {
  await sites?.served.close();
});

function profileOf(host: string): ContextProfile {
  const outcome = crawled.get(host);
  if (!outcome?.contextEvidence) throw new Error(`no context evidence for ${host}`);
  return buildContextProfile(outcome.contextEvidence, outcome.draft.name);
}

describe('traceability on every site', () => {
  it('crawled every site and kept its context evidence', () => {
    expect(crawled.size).toBe(sites.sites.length);
    for (const outcome of crawled.values()) expect(outcome.contextEvidence?.pages[0]?.kind).toBe('home');
  });

  it('every non-null text of every profile is found on the page its source names', () => {
    let checked = 0;
    for (const host of crawled.keys()) {
      const profile = profileOf(host);
      expect(untraceable(profile, sites.pages(host)), host).toEqual([]);
      // Every text has its source, and no source points at nothing.
      expect(profile.sources.map((s) => s.field).sort(), host).toEqual(profileTexts(profile).map((t) => t.field).sort());
      checked += profile.sources.length;
    }
    // The eval sites state descriptions, taglines and values: the check ran on real fields.
    expect(checked).toBeGreaterThan(crawled.size * 2);
  });
});

describe('a site that states everything (fernhollow.test)', () => {
  let profile: ContextProfile;
  beforeAll(() => {
    profile = profileOf(FERNHOLLOW);
  });

  it('reads its home, about, product and pricing pages', () => {
    const pages = crawled.get(FERNHOLLOW)?.contextEvidence?.pages.map((p) => `${p.kind} ${p.path}`);
    expect(pages).toEqual(expect.arrayContaining(['home /', 'about /about', 'product /product', 'pricing /pricing']));
  });

  it('identity: the JSON-LD slogan and description, the stated mission, the listed keywords', () => {
    expect(profile.identity.tagline).toBe('Books closed by Friday.');
    expect(profile.identity.description).toBe('Fernhollow makes accounting software and runs bookkeeping services for small businesses and freelancers in Europe.');
    expect(profile.identity.mission).toBe('Our mission is to give every small business the books of a large one, without the paperwork.');
    expect(profile.identity.tags).toEqual(['bookkeeping', 'accounting software', 'invoicing', 'payroll', 'tax reminders']);
  });

  it('positioning: the hero, the audiences it names, its products and its service', () => {
    expect(profile.positioning.value_proposition).toBe('Connect your bank, snap your receipts and let Fernhollow reconcile every transaction before you finish your coffee.');
    expect(profile.positioning.target_audience).toEqual([
      { segment: 'freelancers', description: 'Send invoices in two clicks and know what to set aside for taxes.' },
      { segment: 'small businesses', description: 'Run payroll, track expenses and share clean books with your accountant.' },
      { segment: 'independent retailers', description: 'Fernhollow is built for independent retailers, cafés and studios across Europe.' },
    ]);
    const offers = profile.positioning.products_and_services.map((o) => `${o.type}: ${o.name}`);
    expect(offers).toEqual(['product: Fernhollow Invoices', 'product: Fernhollow Ledger', 'product: Fernhollow Payroll', 'service: Bookkeeping Services', 'product: Starter', 'product: Growth']);
    expect(profile.positioning.products_and_services[3]?.description).toBe('Our certified bookkeepers close your books every month and file your VAT return.');
  });

  it('brand: the voice and design it states, with the qualities it lists', () => {
    expect(profile.brand.voice).toEqual({
      summary: 'Our voice is plain, warm and direct, and we never use accounting jargon.',
      attributes: ['plain', 'warm', 'direct'],
      avoid: ['use accounting jargon'],
    });
    expect(profile.brand.style).toEqual({ summary: 'Our design is calm, bright and uncluttered.', attributes: ['calm', 'bright', 'uncluttered'] });
  });

  it('never takes the menus, the footer, the cookie banner or the newsletter form', () => {
    const text = JSON.stringify(profile);
    for (const noise of ['cookies', 'newsletter', 'All rights reserved', 'Careers', 'Log in', 'Frequently asked', 'Why teams switch']) expect(text).not.toContain(noise);
    const evidence = JSON.stringify(crawled.get(FERNHOLLOW)?.contextEvidence);
    expect(evidence).not.toContain('cookies');
    expect(evidence).not.toContain('newsletter');
  });
});

describe('a site that states almost nothing (quietpine.test)', () => {
  it('answers null and empty lists, not guesses', () => {
    const profile = profileOf(QUIETPINE);
    expect(profile.identity).toEqual({ tagline: null, mission: null, description: null, tags: [] });
    expect(profile.positioning).toEqual({ value_proposition: null, target_audience: [], products_and_services: [] });
    expect(profile.brand).toEqual({ voice: { summary: null, attributes: [], avoid: [] }, style: { summary: null, attributes: [] } });
    expect(profile.sources).toEqual([]);
  });
});

describe('evidence bounds', () => {
  it('a page of endless paragraphs, headings and JSON-LD is cut to the fixed bounds', () => {
    const para = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(30);
    const nodes = Array.from({ length: 100 }, (_, i) => ({ '@type': 'Product', name: `Thing ${i}`, description: para }));
    const html = `<html><head><title>${'T'.repeat(5000)}</title><script type="application/ld+json">${JSON.stringify(nodes)}</script></head><body>${'<h2>Heading</h2><p>' + para + '</p>'.repeat(1)}${Array.from({ length: 2000 }, (_, i) => `<h3>H${i}</h3><p>${para}</p>`).join('')}</body></html>`;
    const page = parseHtmlPage(Buffer.from(html), 'https://huge.test/');
    const evidence: ContextEvidence = contextEvidence([{ page, kind: 'home' }]);
    const kept = evidence.pages[0];
    expect(kept?.headings.length).toBeLessThanOrEqual(CONTEXT_LIMITS.headingsPerPage);
    expect(kept?.blocks.length).toBeLessThanOrEqual(CONTEXT_LIMITS.blocksPerPage);
    expect(kept?.blocks.reduce((n, b) => n + b.text.length, 0)).toBeLessThanOrEqual(CONTEXT_LIMITS.pageChars);
    expect(kept?.title?.length).toBeLessThanOrEqual(CONTEXT_LIMITS.textChars);
    expect(kept?.jsonLd.length).toBeLessThanOrEqual(CONTEXT_LIMITS.jsonLdPerPage);
    expect(JSON.stringify(evidence).length).toBeLessThan(64 * 1024);
  });

  it('keeps only pages of the home page domain, each path once, and no full URL or query', () => {
    const home = parseHtmlPage(Buffer.from('<title>A</title><p>Hello there, this is home.</p>'), 'https://acme.test/?utm=1');
    const other = parseHtmlPage(Buffer.from('<p>Elsewhere.</p>'), 'https://elsewhere.test/about');
    const evidence = contextEvidence([{ page: home, kind: 'home' }, { page: other, kind: 'about' }, { page: home, kind: 'product' }]);
    expect(evidence.pages.map((p) => p.path)).toEqual(['/']);
    expect(JSON.stringify(evidence)).not.toContain('https://');
    expect(JSON.stringify(evidence)).not.toContain('utm');
  });
});
