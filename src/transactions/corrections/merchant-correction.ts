/**
 * Merchant corrections (issue 34, docs/transactions.md#corrections, ADR 0053): what a correction is and the key a
 * descriptor is filed under. An organization's correction, or an alias the operator added (`brandbase merchants
 * add`), names the merchant of a descriptor (a domain) or says it names none; it wins over every matching rule of
 * merchant-matcher.ts until it is removed. Pure: no store, no clock.
 *
 * The key is the descriptor's merchant words as descriptor.ts reads them (card-network noise, the facilitator prefix,
 * reference codes, phone, store and terminal numbers, dates and the location at the end removed, normalized like
 * search), so `SQ *BLUE BOTTLE COF 4` and `SQ *BLUE BOTTLE COF 7` share the key `blue bottle cof`. A cut word is kept
 * as printed (`cof` is not `coffee`): the key matches exactly, never as a prefix.
 */
import { parseDescriptor } from '../descriptor.js';

/** The scope of the operator's aliases (`brandbase merchants`), beside organizations' ids (`org_…`). */
export const OPERATOR_SCOPE = 'operator';
/** The `country` column of a correction for every country. */
export const ANY_COUNTRY = '*';
/**
 * The country a correction for every country is read with: ISO 3166 reserves ZZ for user assignment, so it names no
 * country and no country's states or cities are dropped from the end of the descriptor.
 */
const NO_COUNTRY = 'ZZ';

export interface MerchantCorrection {
  /** `mco_` + 24 base32 characters. */
  id: string;
  /** The organization's id, or OPERATOR_SCOPE for an operator's alias. */
  scope: string;
  /** The descriptor as it was sent (trimmed). */
  label: string;
  /** The merchant words it is filed under (correctionKey). */
  key: string;
  /** ISO 3166 alpha-2 (upper case), or null for every country. */
  countryCode: string | null;
  /** The merchant's registrable domain, or null: the descriptor names no merchant. */
  domain: string | null;
  /** Who added it: an API key id (`key_…`), a dashboard user id (`usr_…`) or `cli`. */
  createdBy: string;
  createdAt: Date;
  /** Who removed it (the same kinds of actor), or null while it applies. */
  removedBy: string | null;
  removedAt: Date | null;
}

/** The merchant words of `label` read as a transaction of `countryCode` (null: of no particular country). */
export function correctionKey(label: string, countryCode: string | null, city?: string): string {
  const descriptor = parseDescriptor(label, { countryCode: countryCode ?? NO_COUNTRY, ...(city === undefined ? {} : { city }) });
  return descriptor.words.join(' ');
}

/**
 * The keys a transaction may be corrected under: its merchant words read in its country (with its city, and without
 * it, since a correction has no city), and read as of no country (how a correction for every country was filed, its
 * location words kept). A correction for one country is filed under the first kind only, but its key is compared with
 * all of them: a key read as of no country that equals it names the same words.
 */
export function lookupKeys(label: string, countryCode: string, city?: string): string[] {
  const keys = new Set([correctionKey(label, countryCode, city), correctionKey(label, countryCode), correctionKey(label, null)]);
  keys.delete('');
  return [...keys];
}

/**
 * Which of the corrections found for a transaction applies: the organization's own before the operator's, one for
 * the transaction's country before one for every country, the longer key (more words: more specific) first, then the
 * newest. Null when none was found.
 */
export function applicableCorrection(found: readonly MerchantCorrection[], orgScope: string | null): MerchantCorrection | null {
  const rank = (c: MerchantCorrection): number[] => [c.scope === orgScope ? 0 : 1, c.countryCode === null ? 1 : 0, -c.key.length, -c.createdAt.getTime()];
  const sorted = [...found].sort((a, b) => {
    const [ra, rb] = [rank(a), rank(b)];
    for (let i = 0; i < ra.length; i++) if ((ra[i] ?? 0) !== (rb[i] ?? 0)) return (ra[i] ?? 0) - (rb[i] ?? 0);
    return a.id.localeCompare(b.id);
  });
  return sorted[0] ?? null;
}
