/**
 * Firmographics (spec 2.7) from the site's own JSON-LD Organization node. Only stated facts are used: a field
 * without evidence stays null (no defaulting kind to PRIVATELY_HELD, no guessing employees from page size).
 * Not done yet: region/subregion (need a country→UN region table), industries (need the classifier), about-page
 * text patterns ("founded in 1999").
 */
import { emptyCompany, type Company, type CompanyKind, type Location } from '../domain/brand.js';
import { findOrganization, nodeTypes, nodeValue, stringValue, type JsonLdNode } from './json-ld.js';

const EMPLOYEE_BANDS = [10001, 5001, 1001, 501, 201, 51, 11, 2, 1] as const;
const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

export function extractCompany(jsonLd: JsonLdNode[], label: string): Company {
  const org = findOrganization(jsonLd, label);
  if (!org) return emptyCompany();
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

function companyKind(org: JsonLdNode, listed: boolean): CompanyKind | null {
  const types = nodeTypes(org);
  if (types.some((t) => ['EducationalOrganization', 'CollegeOrUniversity', 'School', 'HighSchool', 'ElementarySchool', 'MiddleSchool', 'Preschool'].includes(t))) return 'EDUCATIONAL';
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
 * Headquarters from `address` (or `location.address`): city, state, and the country as ISO 3166-1 alpha-2 when
 * given as a code, or matched from its English name via ICU's region names. region/subregion stay null.
 */
export function location(org: JsonLdNode): Location {
  const address = nodeValue(org['address']) ?? nodeValue(nodeValue(org['location'])?.['address']);
  const loc: Location = { city: null, country: null, countryCode: null, region: null, state: null, subregion: null };
  if (!address) return loc;
  loc.city = stringValue(address['addressLocality']);
  loc.state = stringValue(address['addressRegion']);
  const countryValue = address['addressCountry'];
  const country = stringValue(nodeValue(countryValue)?.['name'] ?? countryValue);
  const code = country ? countryCode(country) : null;
  loc.countryCode = code;
  loc.country = code ? (regionNames.of(code) ?? country) : country;
  return loc;
}

let namesToCodes: Map<string, string> | null = null;

/** ISO-2 code for a code ("us", "GB") or an English country name ("United States"); null when unknown. */
export function countryCode(value: string): string | null {
  const text = value.trim();
  if (/^[A-Za-z]{2}$/.test(text)) {
    const code = text.toUpperCase();
    return isCountryCode(code) ? code : null;
  }
  namesToCodes ??= buildNameIndex();
  return namesToCodes.get(normalizeName(text)) ?? null;
}

function buildNameIndex(): Map<string, string> {
  const index = new Map<string, string>([['usa', 'US'], ['uk', 'GB'], ['england', 'GB'], ['unitedstatesofamerica', 'US']]);
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  for (const a of letters) {
    for (const b of letters) {
      const name = isCountryCode(a + b) ? regionNames.of(a + b) : undefined;
      if (name && !index.has(normalizeName(name))) index.set(normalizeName(name), a + b);
    }
  }
  return index;
}

/** ICU knows some codes that are not countries (EU, UN, pseudo-locales, ZZ "Unknown Region"). */
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'UN', 'QO', 'XA', 'XB', 'ZZ']);

/** A current ISO code: known to ICU and not a deprecated alias (DD → DE, YU, ...), which ICU renames silently. */
function isCountryCode(code: string): boolean {
  if (NOT_COUNTRIES.has(code) || regionNames.of(code) === undefined) return false;
  try {
    return Intl.getCanonicalLocales(`und-${code}`)[0] === `und-${code}`;
  } catch {
    return false;
  }
}

function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[^a-z]/g, '');
}
