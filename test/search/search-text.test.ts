/**
 * The text rules of search by name (src/domain/search-text.ts) and the ranking (src/search/brand-search.ts
 * rankRows): normalization, names shown for listed companies, match tiers, and prominence that breaks ties
 * without ever lifting a typo over an exact name.
 */
import { describe, expect, it } from 'vitest';
import { displayCompanyName, matchQuality, normalizeName, tickerNorm, tickerQuery, typoVariants } from '../../src/domain/search-text.js';
import { rankRows } from '../../src/search/brand-search.js';
import type { SearchNameRow } from '../../src/search/search-store.js';

function row(name: string, domain: string, overrides: Partial<SearchNameRow> = {}): SearchNameRow {
  return { domain, source: 'listing', name, norm: normalizeName(name), label: normalizeName(domain.split('.')[0] ?? ''), brandId: null, claimed: false, icon: null, qualityScore: null, sizeRank: 9, lookups: 0, ...overrides };
}

describe('normalizeName', () => {
  it('folds case, accents, ligatures, & and punctuation', () => {
    expect(normalizeName('Nestlé S.A.')).toBe('nestle s a');
    expect(normalizeName("L'Oréal")).toBe('loreal');
    expect(normalizeName('Procter & Gamble')).toBe('procter and gamble');
    expect(normalizeName('Straße Œuvre Ørsted')).toBe('strasse oeuvre orsted');
    expect(normalizeName('  --  ')).toBe('');
  });
});

describe('displayCompanyName', () => {
  it('shows a listed name as a brand name', () => {
    expect(displayCompanyName('APPLE INC')).toBe('Apple');
    expect(displayCompanyName('Amazon.com, Inc.')).toBe('Amazon.com');
    expect(displayCompanyName('AMAZON COM INC')).toBe('Amazon');
    expect(displayCompanyName('Opple Lighting Co.,LTD')).toBe('Opple Lighting');
    expect(displayCompanyName('The Coca-Cola Company')).toBe('Coca-Cola');
    expect(displayCompanyName('Quizzle Systems Inc. - Class B')).toBe('Quizzle Systems');
    // Never the first word, even when it looks like a legal form.
    expect(displayCompanyName('Group')).toBe('Group');
  });
});

describe('tickers', () => {
  it('reads a ticker without its share class, and a query as a possible ticker', () => {
    expect(tickerNorm('BRK.B')).toBe('brk');
    expect(tickerNorm('BRK/A')).toBe('brk');
    expect(tickerQuery(normalizeName('BRK.B'))).toBe('brk');
    expect(tickerQuery('aapl')).toBe('aapl');
    expect(tickerQuery('bank of america')).toBeNull();
  });
});

describe('matchQuality and rankRows', () => {
  it('orders the tiers: exact > prefix > label prefix > word > substring > typo', () => {
    const exact = matchQuality('stripe', 'stripe', 'stripe');
    const prefix = matchQuality('stri', 'stripe', 'stripe');
    const label = matchQuality('cocacolac', 'the coke', 'cocacolacompany');
    const word = matchQuality('hathaway', 'berkshire hathaway', 'berkshirehathaway');
    const inside = matchQuality('hath', 'berkshirehathaway', 'brk');
    const typo = matchQuality('goolge', 'google', 'google');
    expect(exact).toBe(1);
    for (const [a, b] of [[exact, prefix], [prefix, label], [label, word], [word, inside], [inside, typo]] as const) expect(a).toBeGreaterThan(b);
    expect(typo).toBeGreaterThan(0);
    expect(matchQuality('gog', 'google', 'google')).toBe(0);
  });

  it('proposes one-edit variants of short queries', () => {
    expect(typoVariants('nkie')).toContain('nike');
    expect(typoVariants('ab')).toEqual([]);
  });

  it('lets prominence order a tier but never lift a typo over an exact name', () => {
    const big = row('Apple', 'apple.com', { sizeRank: 1, brandId: 'brd_a', qualityScore: 0.9, lookups: 1_000_000 });
    const small = row('AppLovin', 'applovin.com', { sizeRank: 5 });
    expect(rankRows('app', [small, big]).map((r) => r.row.domain)).toEqual(['apple.com', 'applovin.com']);
    const exactSmall = row('Nikora', 'nikora.test');
    const typoBig = row('Nikon', 'nikon.com', { sizeRank: 1, brandId: 'brd_n', qualityScore: 1, lookups: 1_000_000 });
    expect(rankRows('nikora', [typoBig, exactSmall])[0]?.row.domain).toBe('nikora.test');
  });

  it('merges the rows of one domain, showing the held brand', () => {
    const listing = row('Alphabet', 'google.com', { sizeRank: 1, brandId: 'brd_g' });
    const held = row('Google', 'google.com', { source: 'brand', brandId: 'brd_g', qualityScore: 0.9 });
    const ranked = rankRows('google', [listing, held]);
    expect(ranked).toHaveLength(1);
    expect(ranked[0]?.row).toMatchObject({ name: 'Google', sizeRank: 1 });
  });

  it('matches a ticker row only when the query is that ticker', () => {
    const ticker = row('Apple', 'apple.com', { source: 'ticker', norm: 'aapl', sizeRank: 1 });
    expect(rankRows('aapl', [ticker]).map((r) => r.row.domain)).toEqual(['apple.com']);
    expect(rankRows('aap', [ticker])).toEqual([]);
  });
});
