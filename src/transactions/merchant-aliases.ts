/**
 * The curated alias table of well-known merchant descriptors (refdata/curated/merchant-aliases.csv, issue 21,
 * docs/transactions.md): `pattern` (the descriptor's leading words, normalized), the merchant's `domain` and `name`,
 * the `countries` it trades under that domain (`*` any), the MCCs its charges carry, and per row its `source` and a
 * `note` saying which descriptor form it covers. Written by us from the merchants' and processors' public descriptor
 * conventions; a few hundred rows, held in memory and looked up by key (never scanned).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { normalizeName } from '../domain/search-text.js';
import { squash } from './descriptor.js';

export interface MerchantAlias {
  pattern: string;
  domain: string;
  name: string;
  /** ISO 3166 alpha-2 codes, or `*` for any country. */
  countries: readonly string[];
  mcc: readonly string[];
  source: string;
  note: string;
}

export interface AliasHit {
  alias: MerchantAlias;
  /** Leading descriptor words the pattern covered. */
  words: number;
  /** The row's country list names the request's country (`*` rows: false). */
  countryListed: boolean;
  /** Rows of this pattern exist only for other countries. */
  otherCountry: boolean;
}

/** Two levels below the repo root from src/transactions/ and from dist/ chunks alike (scripts/build.mjs). */
export function aliasFile(): string {
  return fileURLToPath(new URL('../../refdata/curated/merchant-aliases.csv', import.meta.url));
}

/** RFC 4180 fields of one line (quoted fields may hold commas and doubled quotes; no newlines inside fields). */
function csvFields(line: string): string[] {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      out.push(field);
      field = '';
    } else field += ch;
  }
  out.push(field);
  return out;
}

const COLUMNS = ['pattern', 'domain', 'name', 'countries', 'mcc', 'source', 'note'] as const;

export function parseAliases(text: string): MerchantAlias[] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const header = csvFields(lines[0] ?? '');
  if (COLUMNS.some((c, i) => header[i] !== c)) throw new Error(`merchant aliases: expected columns ${COLUMNS.join(',')}`);
  return lines.slice(1).map((line, i) => {
    const [pattern = '', domain = '', name = '', countries = '', mcc = '', source = '', note = ''] = csvFields(line);
    if (normalizeName(pattern) !== pattern || !domain || !source) throw new Error(`merchant aliases line ${i + 2}: pattern must be normalized, domain and source set`);
    return { pattern, domain, name, countries: countries.split('|').filter(Boolean), mcc: mcc.split('|').filter(Boolean), source, note };
  });
}

/** Longest pattern tried, in words. */
const MAX_PATTERN_WORDS = 5;

export class AliasTable {
  readonly #byKey = new Map<string, MerchantAlias[]>();
  readonly size: number;

  constructor(aliases: readonly MerchantAlias[]) {
    for (const alias of aliases) {
      const key = squash(alias.pattern);
      const rows = this.#byKey.get(key) ?? [];
      rows.push(alias);
      this.#byKey.set(key, rows);
    }
    this.size = aliases.length;
  }

  static load(file = aliasFile()): AliasTable {
    return new AliasTable(parseAliases(readFileSync(file, 'utf8')));
  }

  /**
   * The longest pattern the descriptor starts with (compared without spaces, so `wal mart` finds `walmart`), and
   * among its rows the one for the request's country, else an any-country row, else (flagged) another country's.
   */
  match(words: readonly string[], countryCode: string): AliasHit | null {
    for (let k = Math.min(words.length, MAX_PATTERN_WORDS); k >= 1; k--) {
      const rows = this.#byKey.get(squash(words.slice(0, k)));
      if (!rows) continue;
      const listed = rows.find((r) => r.countries.includes(countryCode));
      if (listed) return { alias: listed, words: k, countryListed: true, otherCountry: false };
      const any = rows.find((r) => r.countries.includes('*'));
      if (any) return { alias: any, words: k, countryListed: false, otherCountry: false };
      return { alias: rows[0] as MerchantAlias, words: k, countryListed: false, otherCountry: true };
    }
    return null;
  }
}
