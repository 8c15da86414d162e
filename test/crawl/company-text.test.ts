import { describe, expect, it } from 'vitest';
import { bodyText, employeesInText, foundedYearInText, selfStatements, textFacts } from '../../src/crawl/fields/company/company-text.js';
import { isValidIsin } from '../../src/domain/identifiers.js';
import { extractCompany } from '../../src/crawl/fields/company/company.js';
import { countryCode, countryInfo } from '../../src/crawl/fields/company/countries.js';
import { htmlPageOf } from './html-page-of.js';

const now = new Date('2026-06-01T00:00:00Z');

describe('founded year in text', () => {
  it.each([
    ['Acme was founded in 2009 in Berlin.', 2009],
    ['Founded 1998 by two engineers.', 1998],
    ['Established in March 1921.', 1921],
    ['Est. 1887', 1887],
    ['In 2011, three friends founded Acme.', 2011],
    ['Since 1969, DHL has delivered parcels.', 1969],
    ['Family-owned and serving Ohio since 1952.', 1952],
  ])('%s → %i', (text, year) => {
    expect(foundedYearInText(text, now)).toBe(year);
  });

  it.each([
    'New: smarter search, available since 2024.',
    'Prices unchanged since 2019 for our customers',
    'Founded in 2031',
    'Rated 4.8 by 12,000 reviewers in 2025.',
  ])('no founding year in: %s', (text) => {
    expect(foundedYearInText(text, now)).toBeNull();
  });

  it('never reads the footer copyright year', () => {
    const page = htmlPageOf('<main><p>We build rockets.</p></main><footer><p>Founded 2009. © 2009–2026 Acme Inc.</p></footer><div class="legal">© 2012 Acme</div>');
    expect(bodyText(page)).not.toMatch(/2009|2012/);
    expect(extractCompany([], 'acme', bodyText(page), now).foundedYear).toBeNull();
  });
});

describe('employees, listings and non-profit status in text', () => {
  it('reads head counts the company states about itself', () => {
    expect(employeesInText('Today more than 3,400 employees work on our mission.')).toBe(3400);
    expect(employeesInText('We are a team of 45 people in Lisbon.')).toBe(45);
    expect(employeesInText('Acme employs about 1.200 people.')).toBe(1200);
  });

  it('ignores customer and audience numbers', () => {
    expect(employeesInText('Used by more than 40,000 employees at 300 companies worldwide.')).toBeNull();
    expect(employeesInText('Trusted by 2,000,000+ people and teams.')).toBeNull();
  });

  it('tickers and valid ISINs make a public company; charity wording a non-profit', () => {
    const listed = textFacts('Our shares trade on the Nasdaq (NASDAQ: ACME). ISIN: US0378331005. Bad ISIN: US0378331006.', now);
    expect(listed).toMatchObject({ tickers: ['ACME'], isins: ['US0378331005'], kind: 'PUBLIC_COMPANY' });
    expect(isValidIsin('US0378331006')).toBe(false);
    expect(textFacts('Acme Trust is a registered charity number 1098765.', now).kind).toBe('NON_PROFIT');
    expect(textFacts('We sell rockets.', now).kind).toBeNull();
  });

  it('on a homepage only first-person or brand-named statements count', () => {
    const text = 'YouTube was founded in 2005.\nWe were founded in 2012.\nAcme employs 300 people.';
    expect(selfStatements(text, ['acme'])).toBe('We were founded in 2012.\nAcme employs 300 people.');
  });

  it('JSON-LD wins over text; text fills the gaps', () => {
    const org = { '@type': 'Organization', name: 'Acme', foundingDate: '2001' };
    const company = extractCompany([org], 'acme', 'Acme was founded in 1999. We are a team of 12 people.', now);
    expect(company.foundedYear).toBe(2001);
    expect(company.employees).toBe(11);
  });
});

describe('countries', () => {
  it('region and subregion come from the country (world-countries)', () => {
    expect(countryInfo('NL')).toEqual({ code: 'NL', name: 'Netherlands', region: 'Europe', subregion: 'Western Europe' });
    expect(countryInfo('US')).toMatchObject({ region: 'Americas', subregion: 'North America' });
    expect(countryInfo('JP')).toMatchObject({ region: 'Asia', subregion: 'Eastern Asia' });
  });

  it('resolves codes, alpha-3, English, official and native names', () => {
    expect(countryCode('GBR')).toBe('GB');
    expect(countryCode('UK')).toBe('GB');
    expect(countryCode('Deutschland')).toBe('DE');
    expect(countryCode('United States of America')).toBe('US');
    expect(countryCode('Côte d’Ivoire')).toBe('CI');
    expect(countryCode('Atlantis')).toBeNull();
  });
});

describe('kind from the legal form', () => {
  it('reads unambiguous legal forms that follow the brand name', async () => {
    const { legalFormKind } = await import('../../src/crawl/fields/company/company-text.js');
    expect(legalFormKind('© 2026 Northwind Logistics B.V. All rights reserved.', ['Northwind'])).toBe('PRIVATELY_HELD');
    expect(legalFormKind('Acme GmbH, Musterstraße 1, Berlin', ['Acme'])).toBe('PRIVATELY_HELD');
    expect(legalFormKind('Acme Partners LLP', ['Acme'])).toBe('PARTNERSHIP');
    expect(legalFormKind('Inhaber: Acme Design e.K.', ['Acme'])).toBe('SELF_EMPLOYED');
  });

  it('ignores ambiguous forms and other companies’ legal names', async () => {
    const { legalFormKind } = await import('../../src/crawl/fields/company/company-text.js');
    expect(legalFormKind('© 2026 Acme, Inc.', ['Acme'])).toBeNull();
    expect(legalFormKind('Acme AG', ['Acme'])).toBeNull();
    expect(legalFormKind('Hosted by Foo GmbH. Acme', ['Acme'])).toBeNull();
  });

  it('JSON-LD type and listings win over the legal form', () => {
    const org = { '@type': 'NGO', name: 'Acme', legalName: 'Acme gGmbH Ltd' };
    expect(extractCompany([org], 'acme', '', now).kind).toBe('NON_PROFIT');
    expect(extractCompany([{ '@type': 'Organization', name: 'Acme', legalName: 'Acme Rockets Ltd' }], 'acme', '', now).kind).toBe('PRIVATELY_HELD');
  });
});

describe('legal forms are case-sensitive', () => {
  it('running text with "kg" or "lp" is not a legal form', async () => {
    const { legalFormKind } = await import('../../src/crawl/fields/company/company-text.js');
    expect(legalFormKind('Acme sells 5 kg bags of rice', ['Acme'])).toBeNull();
    expect(legalFormKind('Acme Müller KG, Hamburg', ['Acme'])).toBe('PARTNERSHIP');
  });
});
