/**
 * Card descriptor normalization (issue 21, docs/transactions.md): a raw statement line ("SQ *BLUE BOTTLE COF 4",
 * "AMZN Mktp US*2K4AB12C3", "POS DEBIT STARBUCKS 1234 SEATTLE WA") to the merchant words a matcher can look up.
 * Pure: no store, no clock. Steps, in order: card-network noise at the start, the facilitator prefix (processors.ts),
 * reference codes after a star, phone numbers, dates and times, store numbers, written domains, then the location
 * words at the end (city, state or province, country). The 22-character name field of card networks cuts the last
 * word of a long name short: `truncated` says the last word may be a prefix.
 */
import { registrableDomain } from '../domain/identifiers.js';
import { normalizeName } from '../domain/search-text.js';
import { PROCESSORS, type Processor } from './processors.js';
import { CITIES, COUNTRY_WORDS, DOMAIN_WORDS, NOISE_PREFIX, NOISE_WORDS, STATE_CODES } from './word-lists.js';

/** Longest descriptor read: statement lines are far shorter; the rest is ignored. */
export const MAX_LABEL_LENGTH = 256;
/** Card networks' merchant-name field: a name field this long may end in a cut word. */
const NAME_FIELD = 22;

export interface DescriptorContext {
  /** ISO 3166 alpha-2, upper case. */
  countryCode: string;
  /** The city the caller knows, dropped from the end of the descriptor. */
  city?: string;
}

export interface Descriptor {
  /** The facilitator whose prefix was removed (`square`, `toast`, ...), or null. */
  processor: Processor | null;
  /** Merchant words (normalized), noise, numbers and location removed. */
  words: string[];
  /** The same with the top-level-domain words of written domains kept (`apple com bill`): what aliases are written as. */
  aliasWords: string[];
  /** The same words with German transliterations folded (`fuer` → `fur`), when they differ; else null. */
  folded: string[] | null;
  /** Registrable domains written in the descriptor (`NETFLIX.COM`, `HELP.UBER.COM` → uber.com). */
  domains: string[];
  /** The name field was long enough to be cut: the last word may be a prefix of the merchant's word. */
  truncated: boolean;
}

const REFERENCE_CODE = /\*\s*(?=[A-Z0-9-]*\d)[A-Z0-9-]{3,}/g;
const BRACKETED = /<[^>]*>/g;
const PHONE = [/(?:\+?\d{1,3}[ .-]?)?\(?\d{3}\)?[ .-]?\d{3}[ .-]?\d{4}\b/g, /\b\d{3}-\d{7}\b/g, /\b8\d\d-[A-Z]{4,7}\b/g];
const DATE_TIME = [/\b\d{1,2}[/.-]\d{1,2}(?:[/.-]\d{2,4})?\b/g, /\b\d{1,2}:\d{2}\b/g, /\b\d{1,2}(?:AM|PM)\b/g];
/** `#1234`, `F12345`, `T-1234`, `CD1234567`, `XXXX1234`: store, terminal and card numbers. */
const STORE_NUMBER = /(?:#\s*\d+|\b[A-Z]{1,2}-?\d{3,}[A-Z]?\b|\bX{2,}\d+\b)/g;
const DOMAIN = /\b[A-Z0-9][A-Z0-9-]*(?:\.[A-Z0-9-]+)*\.[A-Z]{2,}(?=[/\s*#,]|$)/g;

/** Card-network noise at the start, and the card numbers and dates that follow it. */
export function stripNoise(text: string): string {
  let rest = text;
  for (let i = 0; i < 8; i++) {
    const next = rest.replace(NOISE_PREFIX, '');
    if (next === rest) break;
    // What follows a noise word may be its date or card number ("CHECKCARD 0314", "CARD 1234", "ON 03/14").
    rest = next.replace(/^(?:ON\s+)?(?:\d{1,2}[/.-]\d{1,2}(?:[/.-]\d{2,4})?|X*\d{2,})(?=\s|$)\s*/, '');
  }
  return rest;
}

export function stripProcessor(text: string): { processor: Processor | null; rest: string } {
  for (const processor of PROCESSORS) {
    const match = processor.prefix.exec(text);
    if (match) return { processor, rest: text.slice(match[0].length) };
  }
  return { processor: null, rest: text };
}

function writtenDomains(text: string): string[] {
  const out: string[] = [];
  for (const token of text.match(DOMAIN) ?? []) {
    const domain = registrableDomain(token.toLowerCase());
    if (domain && !out.includes(domain)) out.push(domain);
  }
  return out;
}

/** Mixed-case words split where case changes ("YouTubePremium" → "You Tube Premium"), before upper-casing. */
function splitCamelCase(text: string): string {
  return /[a-z]/.test(text) ? text.replace(/([a-z])([A-Z])/g, '$1 $2') : text;
}

/** Letters glued to a long number ("AIR0012345678"): the number is a ticket, the letters are the name. */
function splitGluedNumbers(text: string): string {
  return text.replace(/\b([A-Z]{3,})(\d{3,})\b/g, '$1 $2');
}

function withoutNumbers(text: string): string {
  let out = text.replace(BRACKETED, ' ').replace(REFERENCE_CODE, ' ');
  for (const re of [...PHONE, ...DATE_TIME]) out = out.replace(re, ' ');
  return splitGluedNumbers(out).replace(STORE_NUMBER, ' ');
}

/**
 * Words of the name: digits only at the start ("7 ELEVEN"), no noise words; `name` also drops the top-level-domain
 * words after a written domain's label (`NETFLIX.COM` names Netflix, `com` does not), `alias` keeps them.
 */
function nameWords(text: string, domains: readonly string[]): { name: string[]; alias: string[] } {
  const words = normalizeName(text).split(' ').filter(Boolean);
  const labels = new Set(domains.map((d) => d.split('.')[0]));
  const suffixWords = new Set([...DOMAIN_WORDS, ...domains.flatMap((d) => d.split('.').slice(1))]);
  const name: string[] = [];
  const alias: string[] = [];
  for (const [i, word] of words.entries()) {
    if (NOISE_WORDS.has(word)) continue;
    if (/^\d+$/.test(word) && (alias.length > 0 || i === words.length - 1)) continue;
    alias.push(word);
    if (suffixWords.has(word) && name.length > 0 && labels.has(name[name.length - 1] ?? '')) continue;
    name.push(word);
  }
  return { name, alias };
}

function endsWith(words: readonly string[], tail: readonly string[]): boolean {
  if (tail.length === 0 || tail.length >= words.length) return false;
  return tail.every((word, i) => words[words.length - tail.length + i] === word);
}

/** A cut city at the very end ("SAN FRANCISC") counts as the city. */
function endsWithCity(words: readonly string[], city: readonly string[]): number {
  if (endsWith(words, city)) return city.length;
  if (city.length === 0 || city.length >= words.length) return 0;
  const tail = words.slice(words.length - city.length);
  const last = tail[tail.length - 1] ?? '';
  const cut = tail.slice(0, -1).every((w, i) => w === city[i]) && last.length >= 4 && (city[city.length - 1] ?? '').startsWith(last);
  return cut ? city.length : 0;
}

/** City, state or province, and country words at the end; at least one word is always kept. */
function dropLocation(words: string[], context: DescriptorContext): string[] {
  const out = [...words];
  const country = context.countryCode;
  const states = STATE_CODES[country];
  const countryWords = new Set([country.toLowerCase(), ...(COUNTRY_WORDS[country] ?? [])]);
  const cities = [...(context.city ? [normalizeName(context.city)] : []), ...(CITIES[country] ?? [])].filter(Boolean).map((c) => c.split(' '));
  for (let changed = true; changed && out.length > 1; ) {
    changed = false;
    const last = out[out.length - 1] ?? '';
    if (countryWords.has(last) || states?.has(last)) {
      out.pop();
      changed = true;
      continue;
    }
    for (const city of cities) {
      const n = endsWithCity(out, city);
      if (n > 0) {
        out.splice(out.length - n, n);
        changed = true;
        break;
      }
    }
  }
  return out;
}

/** German, Danish and Nordic statements spell umlauts out (`FUER`); names are indexed without them (`fur`). */
function fold(words: readonly string[], countryCode: string): string[] | null {
  if (!['DE', 'AT', 'CH', 'DK', 'SE', 'NO'].includes(countryCode)) return null;
  const folded = words.map((w) => w.replace(/ue/g, 'u').replace(/oe/g, 'o').replace(/ae/g, 'a'));
  return folded.some((w, i) => w !== words[i]) ? folded : null;
}

export function parseDescriptor(label: string, context: DescriptorContext): Descriptor {
  const raw = splitCamelCase(label.normalize('NFKC').slice(0, MAX_LABEL_LENGTH)).toUpperCase().trim();
  const cleaned = stripNoise(raw.replace(/\t/g, ' '));
  // Fixed-width statements pad the 22-character name field with spaces before the city: the first field is the name.
  const fields = cleaned.split(/\s{2,}/).filter(Boolean);
  const nameField = fields[0] ?? '';
  const { processor, rest } = stripProcessor(nameField);
  const domains = writtenDomains(cleaned);
  const found = nameWords(withoutNumbers(rest).replace(/\*/g, ' '), domains);
  const words = dropLocation(found.name, context);
  const aliasWords = dropLocation(found.alias, context);
  const truncated = nameField.length >= NAME_FIELD - 4;
  return { processor, words, aliasWords, folded: fold(words, context.countryCode), domains, truncated };
}

/** `wal mart` and `walmart` alike: names are compared without spaces. */
export function squash(words: readonly string[] | string): string {
  return (typeof words === 'string' ? words : words.join(' ')).replace(/ /g, '');
}
