import { describe, expect, it } from 'vitest';
import { emptyCompany, type Brand } from '../../src/domain/brand.js';
import { qualityScore, type QualityInput } from '../../src/domain/quality-score.js';

const now = new Date('2026-06-01T00:00:00Z');
const format = { src: 'https://a.test/assets/x.png', format: 'png' as const, width: 64, height: 64, size: 10, background: null };

function empty(): QualityInput {
  return {
    name: null, description: null, longDescription: null, logos: [], colors: [], fonts: [], links: [], images: [],
    company: emptyCompany(), claimed: false, crawledAt: now, now,
  };
}

function complete(): QualityInput {
  const company: Brand['company'] = { ...emptyCompany(), foundedYear: 2010, employees: 51, kind: 'PRIVATELY_HELD' };
  company.location.countryCode = 'US';
  return {
    ...empty(),
    name: 'Acme', description: 'Rockets.', longDescription: 'Rockets for everyone.',
    logos: [{ type: 'logo', theme: null, tags: [], formats: [format] }, { type: 'icon', theme: null, tags: [], formats: [format] }],
    colors: [{ hex: '#635bff', type: 'accent', brightness: 99 }],
    fonts: [{ name: 'Inter', type: 'body', origin: 'google', originId: 'Inter', weights: [] }],
    links: [{ name: 'twitter', url: 'https://twitter.com/acme' }, { name: 'github', url: 'https://github.com/acme' }],
    images: [{ type: 'banner', tags: [], formats: [format] }],
    company,
  };
}

describe('qualityScore', () => {
  it('is 0 for an empty record and in the lower third for a title-and-description page', () => {
    expect(qualityScore(empty())).toBe(0);
    expect(qualityScore({ ...empty(), name: 'Acme', description: 'A page.' })).toBeLessThan(1 / 3);
  });

  it('puts a complete real brand in the upper third, and 1 when also claimed', () => {
    expect(qualityScore(complete())).toBeGreaterThanOrEqual(2 / 3);
    expect(qualityScore({ ...complete(), claimed: true })).toBe(1);
  });

  it('decays with age to 0.7× after a year', () => {
    const fresh = qualityScore(complete());
    const old = qualityScore({ ...complete(), crawledAt: new Date('2025-01-01T00:00:00Z') });
    expect(old).toBeCloseTo(fresh * 0.7, 2);
    expect(qualityScore({ ...complete(), crawledAt: new Date('2026-05-10T00:00:00Z') })).toBe(fresh);
  });

  it('halves parking and placeholder pages', () => {
    expect(qualityScore({ ...complete(), description: 'This domain is for sale!' })).toBeLessThan(2 / 3);
  });

  it('ignores logos without formats and neutral accents', () => {
    const base = qualityScore(empty());
    expect(qualityScore({ ...empty(), logos: [{ type: 'logo', theme: null, tags: [], formats: [] }] })).toBe(base);
    expect(qualityScore({ ...empty(), colors: [{ hex: '#000000', type: 'accent', brightness: 0 }] })).toBe(0.06);
  });

  it('has weights that sum to 1', () => {
    const all = { ...complete(), claimed: true };
    expect(qualityScore(all)).toBe(1);
  });
});
