import { describe, expect, it } from 'vitest';
import { emptyCompany, type Brand } from '../../src/domain/brand.js';
import { isPlaceholderText, nameMatchesDomain, qualityScore, type QualityInput } from '../../src/domain/quality-score.js';

const now = new Date('2026-06-01T00:00:00Z');
const format = { src: `${'a'.repeat(64)}.png`, format: 'png' as const, width: 64, height: 64, size: 10, background: null };
const industry = { id: 'ind_software', slug: 'software', name: 'Software & SaaS', emoji: '🧩', score: 0.8, parent: null };

function empty(): QualityInput {
  return {
    name: null, description: null, longDescription: null, logos: [], colors: [], fonts: [], links: [], images: [],
    company: emptyCompany(), claimed: false, crawledAt: now, now,
  };
}

function complete(): QualityInput {
  const company: Brand['company'] = { ...emptyCompany(), foundedYear: 2010, employees: 51, kind: 'PRIVATELY_HELD', industries: [industry] };
  company.location.countryCode = 'US';
  return {
    ...empty(),
    domain: 'acme.com',
    name: 'Acme', description: 'Rockets.', longDescription: 'Rockets for everyone.',
    logos: [{ type: 'logo', theme: null, tags: [], formats: [format] }, { type: 'icon', theme: null, tags: [], formats: [format] }],
    colors: [{ hex: '#635bff', type: 'accent', brightness: 99 }],
    fonts: [{ name: 'Inter', type: 'body', origin: 'google', originId: 'Inter', weights: [] }],
    links: [{ name: 'twitter', url: 'https://twitter.com/acme' }, { name: 'github', url: 'https://github.com/acme' }],
    images: [{ type: 'banner', tags: [], formats: [format] }],
    company,
  };
}

/** What a crawl of a real brand site without company facts typically yields. */
function typicalSite(): QualityInput {
  const c = complete();
  return { ...c, longDescription: null, company: emptyCompany() };
}

describe('qualityScore thirds', () => {
  it('is 0 for an empty record and in the lower third for a title-and-description page', () => {
    expect(qualityScore(empty())).toBe(0);
    expect(qualityScore({ ...empty(), name: 'Acme', description: 'A page.', domain: 'acme.com' })).toBeLessThan(1 / 3);
  });

  it('puts a complete real brand in the upper third, and a typical brand site without company facts too', () => {
    expect(qualityScore(complete())).toBeGreaterThanOrEqual(2 / 3);
    expect(qualityScore(typicalSite())).toBeGreaterThanOrEqual(2 / 3);
  });

  it('keeps a parked domain in the lower third even when the page carries a logo and colours', () => {
    const parked = { ...complete(), name: 'acme.com', description: 'This domain is for sale! Make an offer.' };
    expect(qualityScore(parked)).toBeLessThan(1 / 3);
  });

  it('puts a placeholder page below the upper third, and a bare one in the lower third', () => {
    expect(qualityScore({ ...complete(), description: 'Coming soon. Our new website is under construction.' })).toBeLessThan(2 / 3);
    expect(qualityScore({ ...empty(), name: 'Welcome to nginx!', description: 'If you see this page, the nginx web server is installed.' })).toBeLessThan(1 / 3);
  });

  it('counts claimed status and manual verification: a claimed, verified, complete brand scores 1', () => {
    const base = qualityScore(complete());
    expect(qualityScore({ ...complete(), claimed: true })).toBeCloseTo(base + 0.06, 5);
    expect(qualityScore({ ...complete(), claimed: true, verified: true })).toBe(1);
  });

  it('rewards a name consistent with the domain', () => {
    expect(qualityScore({ ...complete(), domain: 'zenith.io' })).toBeCloseTo(qualityScore(complete()) - 0.04, 5);
    expect(nameMatchesDomain('Acme Rockets', 'acmerockets.io')).toBe(true);
    expect(nameMatchesDomain('Acme', 'acme.co.uk')).toBe(true);
    expect(nameMatchesDomain('Welcome', 'acme.com')).toBe(false);
  });
});

describe('qualityScore recency', () => {
  it('decays with age to 0.7× after a year and not at all in the first 30 days', () => {
    const fresh = qualityScore(complete());
    const old = qualityScore({ ...complete(), crawledAt: new Date('2025-01-01T00:00:00Z') });
    expect(old).toBeCloseTo(fresh * 0.7, 2);
    expect(qualityScore({ ...complete(), crawledAt: new Date('2026-05-10T00:00:00Z') })).toBe(fresh);
  });

  it('drops a complete record out of the upper third after a year without re-crawl', () => {
    expect(qualityScore({ ...typicalSite(), crawledAt: new Date('2025-01-01T00:00:00Z') })).toBeLessThan(2 / 3);
  });
});

describe('qualityScore evidence rules', () => {
  it('ignores logos without formats and neutral accents', () => {
    const base = qualityScore(empty());
    expect(qualityScore({ ...empty(), logos: [{ type: 'logo', theme: null, tags: [], formats: [] }] })).toBe(base);
    expect(qualityScore({ ...empty(), colors: [{ hex: '#000000', type: 'accent', brightness: 0 }] })).toBe(0.05);
  });

  it('recognises parked and placeholder text', () => {
    for (const text of ['This domain is for sale', 'Buy this domain', 'Related searches: flights', 'Coming soon', 'Welcome to nginx!', 'Future home of something quite cool']) {
      expect(isPlaceholderText(text)).toBe(true);
    }
    for (const text of ['Rockets for everyone.', 'We sell domains and hosting to small businesses.']) expect(isPlaceholderText(text)).toBe(false);
  });
});
