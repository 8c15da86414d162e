/**
 * Country names as the sources write them ("United States", "South Korea") to ISO 3166 alpha-2. Built from the
 * runtime's own region names (Intl.DisplayNames, English) plus the aliases the sources use that ICU spells
 * differently.
 */

const ALIASES: Readonly<Record<string, string>> = {
  'south korea': 'KR', korea: 'KR', 'republic of korea': 'KR', 'hong kong': 'HK', macau: 'MO', macao: 'MO', taiwan: 'TW',
  'czech republic': 'CZ', turkey: 'TR', russia: 'RU', 'united states of america': 'US', usa: 'US', uk: 'GB', 'great britain': 'GB',
  'ivory coast': 'CI', "cote d'ivoire": 'CI', 'bosnia and herzegovina': 'BA', 'british virgin islands': 'VG', 'cayman islands': 'KY',
  vietnam: 'VN', 'viet nam': 'VN', 'the netherlands': 'NL', netherlands: 'NL', 'united arab emirates': 'AE', 'uae': 'AE',
  'curacao': 'CW', 'macedonia': 'MK', 'swaziland': 'SZ', 'burma': 'MM', 'palestine': 'PS', 'falkland islands': 'FK',
};

/** Codes ICU still names that are not current ISO 3166 countries (East Germany "Germany"?, EU, UN, …). */
const NOT_COUNTRIES = new Set(['DD', 'YU', 'CS', 'SU', 'ZR', 'BU', 'TP', 'FX', 'UK', 'EU', 'EZ', 'UN', 'QO', 'AN', 'NT', 'XA', 'XB']);

let byName: Map<string, string> | undefined;

function names(): Map<string, string> {
  if (byName) return byName;
  const display = new Intl.DisplayNames(['en'], { type: 'region' });
  const map = new Map<string, string>();
  const A = 65;
  for (let i = 0; i < 26; i++) {
    for (let j = 0; j < 26; j++) {
      const code = String.fromCharCode(A + i, A + j);
      if (NOT_COUNTRIES.has(code)) continue;
      const name = display.of(code);
      // Unknown codes come back as the code itself.
      // First code wins: ICU also names reserved codes (UK, EU…) and GB must keep "United Kingdom".
      if (name && name !== code && !map.has(name.toLowerCase())) map.set(name.toLowerCase(), code);
    }
  }
  for (const [alias, code] of Object.entries(ALIASES)) map.set(alias, code);
  byName = map;
  return map;
}

/** `Japan` → `JP`; an alpha-2 code passes through upper-cased; null when unknown or empty. */
export function countryCode(value: string | null | undefined): string | null {
  const text = (value ?? '').trim();
  if (!text) return null;
  // Some sources write the EU's codes for the UK and Greece (UK, EL) where ISO 3166 says GB, GR.
  if (/^[A-Za-z]{2}$/.test(text)) return ({ UK: 'GB', EL: 'GR' } as Record<string, string>)[text.toUpperCase()] ?? text.toUpperCase();
  return names().get(text.toLowerCase()) ?? null;
}

/** Region codes that are no country: private use (AA, QM-QZ, XA-XZ but Kosovo's XK, ZZ) and groupings (EU, EZ, UN). */
const NOT_A_COUNTRY = /^(?:AA|Q[M-Z]|X[A-JL-Z]|ZZ|EU|EZ|UN)$/;

/**
 * An ISO 3166 alpha-2 country code, upper-cased, or null when `code` is none (a private-use code, EU, UN). Withdrawn
 * and exceptional codes are read as today's (`UK` → GB, `FX` → FR, `NH` → VU, through the runtime's locale aliases);
 * `EL` (the EU's Greece) → GR.
 */
export function isoCountry(code: string): string | null {
  const upper = code.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(upper)) return null;
  const region = new Intl.Locale(`und-${upper === 'EL' ? 'GR' : upper}`).region ?? upper;
  if (NOT_A_COUNTRY.test(region)) return null;
  return displayNames().of(region) === region ? null : region;
}

let regionNames: Intl.DisplayNames | undefined;

function displayNames(): Intl.DisplayNames {
  regionNames ??= new Intl.DisplayNames(['en'], { type: 'region' });
  return regionNames;
}
