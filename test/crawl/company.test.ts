import { describe, expect, it } from 'vitest';
import { countryCode, employeeBand, extractCompany, foundedYear } from '../../src/crawl/fields/company/company.js';
import { readJsonLd, type JsonLdNode } from '../../src/crawl/page/json-ld.js';
import { htmlPageOf } from './html-page-of.js';

function companyOf(node: JsonLdNode) {
  const page = htmlPageOf(`<script type="application/ld+json">${JSON.stringify(node)}</script>`);
  return extractCompany(readJsonLd(page.$), 'acme');
}

describe('employeeBand', () => {
  it.each([
    [1, 1], [2, 2], [10, 2], [11, 11], [50, 11], [51, 51], [200, 51], [201, 201], [500, 201], [501, 501],
    [1000, 501], [1001, 1001], [5000, 1001], [5001, 5001], [10000, 5001], [10001, 10001], [250000, 10001],
  ])('%i employees → band %i', (n, band) => {
    expect(employeeBand(n)).toBe(band);
  });

  it('reads QuantitativeValue value, min/max ranges and numeric strings', () => {
    expect(employeeBand({ '@type': 'QuantitativeValue', value: 69 })).toBe(51);
    expect(employeeBand({ '@type': 'QuantitativeValue', minValue: 11, maxValue: 50 })).toBe(11);
    expect(employeeBand({ '@type': 'QuantitativeValue', minValue: 1001 })).toBe(1001);
    expect(employeeBand('1,200')).toBe(1001);
    expect(employeeBand('many')).toBeNull();
    expect(employeeBand(0)).toBeNull();
  });
});

describe('company facts', () => {
  it('foundedYear from a date or year, never from the future', () => {
    expect(foundedYear('2014-03-01')).toBe(2014);
    expect(foundedYear(1998)).toBe(1998);
    expect(foundedYear('3021')).toBeNull();
  });

  it('country codes from codes or English names', () => {
    expect(countryCode('nl')).toBe('NL');
    expect(countryCode('United States')).toBe('US');
    expect(countryCode('Germany')).toBe('DE');
    expect(countryCode('Atlantis')).toBeNull();
    expect(countryCode('ZZ')).toBeNull();
  });

  it('kind only from evidence', () => {
    expect(companyOf({ '@type': 'Organization', name: 'Acme' }).kind).toBeNull();
    expect(companyOf({ '@type': 'CollegeOrUniversity', name: 'Acme U' }).kind).toBe('EDUCATIONAL');
    expect(companyOf({ '@type': 'GovernmentOrganization', name: 'Acme Agency' }).kind).toBe('GOVERNMENT_AGENCY');
    expect(companyOf({ '@type': 'NGO', name: 'Acme Fund' }).kind).toBe('NON_PROFIT');
    const listed = companyOf({ '@type': 'Corporation', name: 'Acme', tickerSymbol: 'NYSE: ACME', isin: 'US0000000001' });
    expect(listed.kind).toBe('PUBLIC_COMPANY');
    expect(listed.financialIdentifiers).toEqual({ ticker: ['ACME'], isin: ['US0000000001'] });
  });

  it('location from address with a Country object; region and subregion from the country', () => {
    const company = companyOf({
      '@type': 'Organization',
      name: 'Acme',
      address: { '@type': 'PostalAddress', addressLocality: 'Berlin', addressRegion: 'Berlin', addressCountry: { '@type': 'Country', name: 'DE' } },
    });
    expect(company.location).toEqual({ city: 'Berlin', state: 'Berlin', country: 'Germany', countryCode: 'DE', region: 'Europe', subregion: 'Western Europe' });
  });

  it('no organization → the empty company', () => {
    expect(companyOf({ '@type': 'WebPage', name: 'x' })).toEqual({
      employees: null, financialIdentifiers: null, foundedYear: null, industries: [], kind: null,
      location: { city: null, country: null, countryCode: null, region: null, state: null, subregion: null },
    });
  });
});
