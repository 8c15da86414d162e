/** Card descriptor normalization (src/transactions/descriptor.ts) and the curated alias table's rows. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { registrableDomain } from '../../src/domain/identifiers.js';
import { parseDescriptor } from '../../src/transactions/descriptor.js';
import { AliasTable, aliasFile, parseAliases } from '../../src/transactions/merchant-aliases.js';

const us = { countryCode: 'US' };

describe('parseDescriptor', () => {
  it.each([
    ['SQ *BLUE BOTTLE COF 4', 'square', ['blue', 'bottle', 'cof']],
    ['TST* PHILZ COFFEE - MIS', 'toast', ['philz', 'coffee', 'mis']],
    ['PAYPAL *SPOTIFY', 'paypal', ['spotify']],
    ['GOOGLE *YouTubePremium', 'google', ['you', 'tube', 'premium']],
    ['SP * ALLBIRDS', 'shopify', ['allbirds']],
    ['SP GLOSSIER', 'shopify', ['glossier']],
    ['SUMUP *MONMOUTH COFFEE', 'sumup', ['monmouth', 'coffee']],
  ])('%s: facilitator prefix removed', (label, processor, words) => {
    const d = parseDescriptor(label, us);
    expect(d.processor?.id).toBe(processor);
    expect(d.words).toEqual(words);
  });

  it('a seller-of-record prefix names the merchant itself', () => {
    expect(parseDescriptor('IC* COSTCO BY INSTACAR', us).processor?.seller?.domain).toBe('instacart.com');
    expect(parseDescriptor('DD *DOORDASH BURGERKIN', us).processor?.seller?.domain).toBe('doordash.com');
  });

  it.each([
    ['WAL-MART #1234', ['wal', 'mart']],
    ["MCDONALD'S F12345", ['mcdonalds']],
    ['TARGET T-1234 CHICAGO IL', ['target']],
    ['AT&T*BILL PAYMENT 800-288-2020 TX', ['at', 'and', 't', 'bill', 'payment']],
    ['AMZN Mktp US*2K4AB12C3', ['amzn', 'mktp']],
    ['HULU 877-8244858 HULU.COM/BILLCA', ['hulu', 'hulu', 'billca']],
    ['AMERICAN AIR0012345678', ['american', 'air']],
    ['7-ELEVEN 34567', ['7', 'eleven']],
    ['MSFT *<E0400ABCDE>', ['msft']],
  ])('%s: store numbers, phone numbers and reference codes removed', (label, words) => {
    expect(parseDescriptor(label, us).words).toEqual(words);
  });

  it('card-network noise and its dates and card numbers are removed from the start', () => {
    expect(parseDescriptor('PURCHASE AUTHORIZED ON 03/14 CHIPOTLE 1234 DENVER CO', us).words).toEqual(['chipotle']);
    expect(parseDescriptor('VISA DEBIT PURCHASE CARD 1234 NETFLIX.COM', us).words).toEqual(['netflix']);
    expect(parseDescriptor('POS DEBIT 1234', us).words).toEqual([]);
  });

  it('city, state and country at the end are dropped, by the request country', () => {
    expect(parseDescriptor('SHAKE SHACK 1234 NEW YORK NY', us).words).toEqual(['shake', 'shack']);
    expect(parseDescriptor('TESCO STORES 3456 LONDON GB', { countryCode: 'GB' }).words).toEqual(['tesco', 'stores']);
    expect(parseDescriptor('MARIAS CANTINA SPRINGFIELD', { countryCode: 'US', city: 'Springfield' }).words).toEqual(['marias', 'cantina']);
    // NY is not a state outside the US.
    expect(parseDescriptor('CAFE NY', { countryCode: 'FR' }).words).toEqual(['cafe', 'ny']);
    // One word always stays.
    expect(parseDescriptor('WASHINGTON', us).words).toEqual(['washington']);
  });

  it('a fixed-width statement line: the padded name field is the name', () => {
    expect(parseDescriptor('SQ *BLUE BOTTLE COFFEE  OAKLAND      CA', us).words).toEqual(['blue', 'bottle', 'coffee']);
  });

  it('written domains are read and their top-level-domain words are not name words', () => {
    const d = parseDescriptor('UBER *TRIP HELP.UBER.COM', us);
    expect(d.domains).toEqual(['uber.com']);
    expect(parseDescriptor('NETFLIX.COM 866-579-7172 CA', us)).toMatchObject({ words: ['netflix'], aliasWords: ['netflix', 'com'] });
  });

  it('a long name field may end in a cut word; a short one does not', () => {
    expect(parseDescriptor('LA COLOMBE COFFEE ROAS', us).truncated).toBe(true);
    expect(parseDescriptor('SP GLOSSIER', us).truncated).toBe(false);
  });

  it('German statements spell umlauts out: a folded variant is kept for DE', () => {
    expect(parseDescriptor('ZEIT FUER BROT BERLIN', { countryCode: 'DE' }).folded).toEqual(['zeit', 'fur', 'brot']);
    expect(parseDescriptor('ZEIT FUER BROT', us).folded).toBeNull();
  });

  it('hostile input stays bounded', () => {
    const d = parseDescriptor(`${'A'.repeat(5000)} *${'9'.repeat(5000)}`, us);
    expect(d.words.join('').length).toBeLessThanOrEqual(256);
  });
});

describe('the curated alias table', () => {
  const aliases = parseAliases(readFileSync(aliasFile(), 'utf8'));

  it('every row has a normalized pattern, a registrable domain, countries and provenance', () => {
    expect(aliases.length).toBeGreaterThan(300);
    for (const alias of aliases) {
      expect(registrableDomain(alias.domain), alias.domain).not.toBeNull();
      expect(alias.countries.length, alias.pattern).toBeGreaterThan(0);
      for (const c of alias.countries) expect(c).toMatch(/^(\*|[A-Z]{2})$/);
      for (const m of alias.mcc) expect(m).toMatch(/^\d{4}$/);
      expect(alias.source).toBe('brandbase-curated');
      expect(alias.note.length, alias.pattern).toBeGreaterThan(5);
    }
  });

  it('the row for the request country wins, then an any-country row, then another country flagged', () => {
    const table = AliasTable.load();
    expect(table.match(['amzn', 'mktp', 'uk'], 'GB')?.alias.domain).toBe('amazon.co.uk');
    expect(table.match(['amzn', 'mktp'], 'SE')).toMatchObject({ alias: { domain: 'amazon.com' }, countryListed: false, otherCountry: false });
    expect(table.match(['woolworths'], 'ZA')?.alias.domain).toBe('woolworths.co.za');
    expect(table.match(['woolworths'], 'US')?.otherCountry).toBe(true);
    // Compared without spaces: `wal mart` finds the `walmart` key and the reverse.
    expect(table.match(['walmart'], 'US')?.alias.domain).toBe('walmart.com');
    expect(table.match(['nothing', 'here'], 'US')).toBeNull();
  });

  it('refuses a malformed file', () => {
    expect(() => parseAliases('pattern,domain\nx,y')).toThrow(/columns/);
    expect(() => parseAliases('pattern,domain,name,countries,mcc,source,note\nNot Normal,x.com,X,*,,s,n')).toThrow(/normalized/);
  });
});
