/**
 * The checks that catch the sources' known errors (shared/refdata README; docs/reference-data.md):
 * - ISIN check digits (ISO 6166): a bad one is dropped and reported;
 * - ADR ISINs on foreign listings: a US ISIN on the listing of a non-US company is the ADR's, not the listing's;
 * - websites copied onto unrelated companies: a domain shared by listings of many unrelated names is dropped
 *   from every row whose name does not carry the domain's name (two passes: `CopiedWebsites`).
 */
import { isValidIsin } from '../../domain/identifiers.js';
import type { ImportReport } from './import-report.js';

/** Upper-cased ISIN, or null when empty; a bad check digit is reported and null. */
export function checkedIsin(raw: string | null | undefined, report: ImportReport, example: string): string | null {
  const isin = (raw ?? '').trim().toUpperCase();
  if (!isin) return null;
  if (isValidIsin(isin)) return isin;
  report.correct('bad-isin-check-digit', `${example}: ${isin}`);
  return null;
}

/** Drops a US ADR's ISIN from the listing of a company from elsewhere (FinanceDatabase: 6758.T → a US ISIN). */
export function withoutAdrIsin(isin: string | null, companyCountry: string | null, exchangeCountry: string | null, report: ImportReport, example: string): string | null {
  if (isin === null || !isin.startsWith('US')) return isin;
  if (companyCountry === 'US' || exchangeCountry === 'US') return isin;
  report.correct('adr-isin-on-foreign-listing', `${example}: ${isin}`);
  return null;
}

const LEGAL_WORDS = /\b(inc|corp|corporation|co|ltd|limited|plc|sa|se|ag|nv|bv|ab|asa|oyj|spa|berhad|bhd|tbk|pt|the|group|holdings?|company)\b/g;

/** A name's first significant word, lower-case: "The Walt Disney Company" → "walt". Groups spellings of one company. */
export function nameKey(name: string): string {
  const words = name.toLowerCase().replace(/[^a-z0-9 ]+/g, ' ').replace(LEGAL_WORDS, ' ').trim().split(/\s+/);
  return words[0] ?? '';
}

/** Lower-case letters and digits only: `AT&T Inc.` → `attinc`. */
export function compact(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '');
}

/** A domain seen on this many unrelated names is a copied website (real companies keep one name across exchanges). */
const COPIED_AT = 3;

export class CopiedWebsites {
  private readonly names = new Map<string, Set<string>>();

  /** First pass: one call per row with a domain. */
  observe(domain: string, name: string): void {
    const set = this.names.get(domain) ?? new Set<string>();
    if (set.size <= COPIED_AT) set.add(nameKey(name));
    this.names.set(domain, set);
  }

  /** True when the domain was copied onto unrelated names (the row's other labels are suspect too). */
  isCopied(domain: string | null, name: string): boolean {
    return domain !== null && this.check(domain, name, null, '') === null;
  }

  /** Second pass: the domain, or null when it is a copied one and the row's name does not carry its label. */
  check(domain: string | null, name: string, report: ImportReport | null, example: string): string | null {
    if (domain === null) return null;
    if ((this.names.get(domain)?.size ?? 0) < COPIED_AT) return domain;
    // The label must start the name or be one of its words: "rh" is not in "Wang-Zheng Berhad".
    const label = compact(domain.split('.')[0] ?? '');
    const words = name.toLowerCase().split(/[^a-z0-9]+/);
    if (label.length >= 2 && (compact(name).startsWith(label) || words.includes(label))) return domain;
    report?.correct('copied-website', `${example}: ${domain}`);
    return null;
  }
}

/** FinanceDatabase's market-cap class → rank (lower is bigger). */
export function capRank(marketCap: string | null | undefined): number {
  switch ((marketCap ?? '').trim().toLowerCase()) {
    case 'mega cap':
      return 1;
    case 'large cap':
      return 2;
    case 'mid cap':
      return 3;
    case 'small cap':
      return 4;
    case 'micro cap':
      return 5;
    case 'nano cap':
      return 6;
    default:
      return 9;
  }
}
