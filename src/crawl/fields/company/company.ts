/**
 * Firmographics (spec 2.7) from what the site states: the JSON-LD Organization node of the homepage or of its
 * about/contact pages (subtypes map to `kind`), then the running text of those pages (company-text.ts) for
 * facts JSON-LD left out. Only stated facts are used: a field without evidence stays null (no defaulting kind to
 * PRIVATELY_HELD, no guessing employees from page size). Industries are filled by the caller (industries/).
 */
import { emptyCompany, type Company, type CompanyKind, type Location } from '../../../domain/brand.js';
import { legalFormKind, textFacts, type TextFacts } from './company-text.js';
import { countryCode as codeOfCountry, countryInfo } from './countries.js';
import { findOrganization, nodeTypes, nodeValue, stringValue, type JsonLdNode } from '../../page/json-ld.js';

const EMPLOYEE_BANDS = [10001, 5001, 1001, 501, 201, 51, 11, 2, 1] as const;

export interface LegalNameEvidence {
  /** Text that states the legal entity: footer © lines and imprint text (company-text.ts legalNameText). */
  text: string;
  /** The brand's name and domain label, which the legal form must follow. */
  names: string[];
}

/**
 * `jsonLd` holds the nodes of every fetched page (homepage first); `text` the running text of those pages
 * without footers (company-text.ts bodyText). JSON-LD wins over text for every field it states. `kind` comes from
 * the schema.org type, a listing or non-profit wording, and last from an unambiguous legal form (legalFormKind).
 */
export function extractCompany(jsonLd: JsonLdNode[], label: string, text = '', now: Date = new Date(), legal?: LegalNameEvidence): Company {
  const org = findOrganization(jsonLd, label);
  const facts = textFacts(text, now);
  const company = mergeTextFacts(org ? fromOrganization(org) : emptyCompany(), facts);
  if (company.kind !== null) return company;
  const names = [...(legal?.names ?? []), stringValue(org?.['name']) ?? '', label];
  const legalText = [stringValue(org?.['legalName']) ?? '', legal?.text ?? ''].join('\n');
  return { ...company, kind: legalFormKind(legalText, names) };
}

function fromOrganization(org: JsonLdNode): Company {
  const financialIdentifiers = financialIds(org);
  return {
    employees: employeeBand(org['numberOfEmployees']),
    financialIdentifiers,
    foundedYear: foundedYear(org['foundingDate']),
    industries: [],
    kind: companyKind(org, financialIdentifiers !== null),
    location: location(org),
  };
}

function mergeTextFacts(company: Company, facts: TextFacts): Company {
  const ids = company.financialIdentifiers;
  const ticker = [...new Set([...(ids?.ticker ?? []), ...facts.tickers])];
  const isin = [...new Set([...(ids?.isin ?? []), ...facts.isins])];
  return {
    ...company,
    employees: company.employees ?? (facts.employees !== null ? employeeBand(facts.employees) : null),
    foundedYear: company.foundedYear ?? facts.foundedYear,
    financialIdentifiers: ticker.length || isin.length ? { isin, ticker } : null,
    kind: company.kind ?? facts.kind,
  };
}

export function foundedYear(value: unknown): number | null {
  const match = /\b(1[0-9]{3}|20[0-9]{2})\b/.exec(stringValue(value) ?? '');
  const year = match ? Number(match[1]) : null;
  return year !== null && year <= new Date().getUTCFullYear() ? year : null;
}

/** numberOfEmployees as a number, a numeric string, or a QuantitativeValue (value, or minValue–maxValue). */
export function employeeBand(value: unknown): number | null {
  const node = nodeValue(value);
  let count: number | null;
  if (node) {
    const exact = toNumber(node['value']);
    const min = toNumber(node['minValue']);
    const max = toNumber(node['maxValue']);
    // A range that spans bands is represented by its midpoint (extraction notes 1.9).
    count = exact ?? (min !== null && max !== null ? (min + max) / 2 : (min ?? max));
  } else {
    count = toNumber(value);
  }
  if (count === null || count < 1) return null;
  return EMPLOYEE_BANDS.find((band) => count >= band) ?? null;
}

function toNumber(value: unknown): number | null {
  const text = typeof value === 'number' ? String(value) : (stringValue(value) ?? '');
  const n = Number(text.replace(/[,\s+]/g, ''));
  return text && Number.isFinite(n) ? n : null;
}

const EDUCATIONAL_TYPES = ['EducationalOrganization', 'CollegeOrUniversity', 'School', 'HighSchool', 'ElementarySchool', 'MiddleSchool', 'Preschool'];

/** kind from the schema.org type, nonprofitStatus, a listing, or an explicit `kind`-like property; else null. */
function companyKind(org: JsonLdNode, listed: boolean): CompanyKind | null {
  const types = nodeTypes(org);
  if (types.some((t) => EDUCATIONAL_TYPES.includes(t))) return 'EDUCATIONAL';
  if (types.includes('GovernmentOrganization')) return 'GOVERNMENT_AGENCY';
  if (types.includes('NGO') || types.includes('NonprofitOrganization') || org['nonprofitStatus'] !== undefined) return 'NON_PROFIT';
  if (listed) return 'PUBLIC_COMPANY';
  return null;
}

function financialIds(org: JsonLdNode): Company['financialIdentifiers'] {
  const ticker = listOf(org['tickerSymbol']).map((t) => t.replace(/^[A-Z]+:\s*/, '').toUpperCase());
  const isin = listOf(org['isin']).map((i) => i.toUpperCase()).filter((i) => /^[A-Z]{2}[A-Z0-9]{9}[0-9]$/.test(i));
  return ticker.length || isin.length ? { isin, ticker } : null;
}

function listOf(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((v) => stringValue(v)).filter((v): v is string => Boolean(v));
}

/**
 * Headquarters from `address` (or `location.address`, or the first `department`-less address list entry): city,
 * state (addressRegion), the country as ISO 3166-1 alpha-2 from a code or a name, and region/subregion of that
 * country from world-countries ("Europe" / "Western Europe").
 */
export function location(org: JsonLdNode): Location {
  const address = nodeValue(org['address']) ?? nodeValue(nodeValue(org['location'])?.['address']);
  const loc: Location = { city: null, country: null, countryCode: null, region: null, state: null, subregion: null };
  if (!address) return loc;
  loc.city = stringValue(address['addressLocality']);
  loc.state = stringValue(address['addressRegion']);
  const countryValue = address['addressCountry'];
  const country = stringValue(nodeValue(countryValue)?.['name'] ?? countryValue);
  const info = country ? countryInfo(codeOfCountry(country) ?? '') : null;
  loc.countryCode = info?.code ?? null;
  loc.country = info?.name ?? country;
  loc.region = info?.region ?? null;
  loc.subregion = info?.subregion ?? null;
  return loc;
}

/** ISO-2 code for a code ("us", "GB") or a country name ("United States"); null when unknown. */
export function countryCode(value: string): string | null {
  return codeOfCountry(value);
}
