/**
 * Countries from the `world-countries` package (maintained, ISO 3166-1 based): alpha-2 codes from a code or a
 * name (common, official, alternative spellings and the English ICU name), and the UN-style region/subregion
 * of a country ("Europe" / "Western Europe") that spec 2.7's Location carries.
 */
import type { Country } from 'world-countries';
import data from 'world-countries/countries.json' with { type: 'json' };

const countries = data as unknown as Country[];

export interface CountryInfo {
  code: string;
  /** English common name, e.g. "Netherlands", "United States". */
  name: string;
  region: string | null;
  subregion: string | null;
}

const byCode = new Map<string, CountryInfo>();
const byName = new Map<string, string>();
const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

for (const c of countries) {
  byCode.set(c.cca2, { code: c.cca2, name: c.name.common, region: c.region || null, subregion: c.subregion || null });
  const native = Object.values(c.name.native ?? {}).map((n) => n.common);
  const names = [c.name.common, c.name.official, c.cca3, ...c.altSpellings, regionNames.of(c.cca2) ?? '', ...native];
  for (const name of names) {
    const key = normalizeName(name);
    if (key.length > 2 && !byName.has(key)) byName.set(key, c.cca2);
  }
}
for (const [alias, code] of [['usa', 'US'], ['uk', 'GB'], ['england', 'GB'], ['scotland', 'GB'], ['wales', 'GB']] as const) {
  byName.set(alias, code);
}

/** ISO 3166-1 alpha-2 for a code ("us", "GBR") or a country name ("United States"); null when unknown. */
export function countryCode(value: string): string | null {
  const text = value.trim();
  if (/^[A-Za-z]{2}$/.test(text)) {
    if (byCode.has(text.toUpperCase())) return text.toUpperCase();
    return text.toLowerCase() === 'uk' ? 'GB' : null;
  }
  return byName.get(normalizeName(text)) ?? null;
}

export function countryInfo(code: string): CountryInfo | null {
  return byCode.get(code.toUpperCase()) ?? null;
}

function normalizeName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/^the\s+/, '')
    .replace(/[^a-z]/g, '');
}
