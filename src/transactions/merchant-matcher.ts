/**
 * Matches a card descriptor to a merchant (issue 21, docs/transactions.md, ADR 0036): a seller-of-record prefix,
 * the curated alias table, held brands' and reference-data names through the store's name index (FTS5 / pg_trgm
 * and B-tree prefixes: the search-by-name index of ADR 0033, never a scan), and a domain the descriptor spells out.
 * Every candidate gets a confidence from 0 to 1: how much of the descriptor and of the name the match covers, a cut
 * last word, the country (alias rows list theirs; a country-code domain names one), the MCC when the alias lists
 * its codes, and the source. Below the threshold there is no match: precision over recall, because a wrong
 * merchant's logo on a statement is worse than none.
 */
import { normalizeName } from '../domain/search-text.js';
import type { SearchIndexStore, SearchNameRow } from '../search/search-store.js';
import { parseDescriptor, squash, type Descriptor } from './descriptor.js';
import type { AliasHit, AliasTable } from './merchant-aliases.js';
import { nonMerchantLine } from './non-merchant-lines.js';
import { admitPayees } from './payees.js';
import type { Processor } from './processors.js';
import { GENERIC_WORDS, NAME_TAIL_WORDS } from './word-lists.js';

export interface TransactionInput {
  transactionLabel: string;
  /** ISO 3166 alpha-2, upper case. */
  countryCode: string;
  /** ISO 18245 merchant category code, four digits. */
  mcc?: string;
  city?: string;
}

export type MatchSource = 'processor' | 'alias' | 'brand' | 'listing' | 'crypto' | 'domain';

export interface MerchantMatch {
  domain: string;
  name: string;
  /** 0..1, two decimals. */
  confidence: number;
  /** What matched: the alias pattern, the indexed name, the seller prefix or the written domain. */
  alias: string;
  source: MatchSource;
  /**
   * The facilitator that carried the payment for this merchant (a processors.ts id: `paypal`, `square`, ...);
   * absent when nothing did, when the prefix is the seller of record, or when the answer is the facilitator itself.
   */
  processor?: string;
}

export interface MerchantMatcherOptions {
  /** Lowest confidence answered (default MATCH_THRESHOLD). */
  threshold?: number;
  /** How often the reference names of the index are checked against the imports (ms). */
  referenceCheckMs?: number;
  now?: () => number;
  onSyncError?: (error: unknown) => void;
}

export const MATCH_THRESHOLD = 0.85;
/** Longest leading span looked up by name, in words. */
const MAX_SPAN_WORDS = 4;
/** Candidate rows per index read. */
const CANDIDATES = 20;

/** Country-code top-level domains sold as generic names (`zoom.us`, `bolt.eu` is not one: `eu` is not a country). */
const GENERIC_COUNTRY_TLDS = new Set(['io', 'co', 'ai', 'tv', 'me', 'us', 'fm', 'ly', 'gg', 'to']);

/** A country-code domain (`.co.uk`, `.de`) names its country: a bonus there, a heavy cost elsewhere. */
function countryWeight(domain: string, countryCode: string): number {
  const tld = domain.slice(domain.lastIndexOf('.') + 1);
  if (tld.length !== 2) return 0;
  if ((tld === 'uk' ? 'GB' : tld.toUpperCase()) === countryCode) return 0.02;
  return GENERIC_COUNTRY_TLDS.has(tld) ? 0 : -0.25;
}

function round(value: number): number {
  return Math.max(0, Math.min(1, Math.round(value * 100) / 100));
}

/** Confidence of an alias hit: curated rows are trusted, unless the country or the MCC says otherwise. */
function aliasConfidence(hit: AliasHit, mcc: string | undefined): number {
  let score = hit.countryListed ? 0.98 : 0.96;
  if (hit.otherCountry) score = 0.6;
  if (mcc !== undefined && hit.alias.mcc.length > 0) score += hit.alias.mcc.includes(mcc) ? 0.01 : -0.3;
  return score;
}

/** Descriptor words left after the matched span: cheap for one (a branch or a suburb), then expensive. */
function leftoverPenalty(leftover: number): number {
  return leftover === 0 ? 0 : 0.06 + 0.1 * (leftover - 1);
}

interface NameFit {
  score: number;
  /** The span's last word is a cut prefix of the name's word. */
  cut: boolean;
}

/**
 * How well the span names `row`: the whole name (or the domain label) exactly; or the name's leading words with the
 * last one cut (only when nothing follows in the descriptor: cuts happen at the end of the name field); or the
 * name's leading words with words missing at the end (cheap for "coffee", "company"...).
 */
function nameFit(span: readonly string[], row: SearchNameRow, atEnd: boolean, truncated: boolean): NameFit | null {
  const name = row.norm.split(' ').filter(Boolean);
  if (squash(span) === squash(name) || squash(span) === row.label) return { score: 1, cut: false };
  if (span.length > name.length) return null;
  for (let i = 0; i < span.length - 1; i++) if (span[i] !== name[i]) return null;
  const last = span[span.length - 1] ?? '';
  const word = name[span.length - 1] ?? '';
  let score = 1;
  let cut = false;
  if (last !== word) {
    if (!atEnd || last.length < 3 || !word.startsWith(last)) return null;
    cut = true;
    score -= truncated ? 0.02 : 0.1;
  }
  for (const extra of name.slice(span.length)) score -= NAME_TAIL_WORDS.has(extra) ? 0.04 : 0.08;
  return { score, cut };
}

function sourceWeight(row: SearchNameRow): number {
  if (row.source === 'brand') return 0;
  if (row.source === 'crypto') return -0.15;
  return row.sizeRank <= 3 ? 0 : row.sizeRank <= 5 ? -0.03 : -0.05;
}

/** A span worth looking up: at least one word that can name a merchant, and not a lone short word. */
function searchable(span: readonly string[]): boolean {
  if (!span.some((w) => !GENERIC_WORDS.has(w) && !/^\d+$/.test(w))) return false;
  return squash(span).length >= (span.length === 1 ? 4 : 3);
}

export class MerchantMatcher {
  readonly threshold: number;
  #referenceCheckedAt = -Infinity;
  #referenceSync: Promise<void> | null = null;
  readonly #now: () => number;

  constructor(
    private readonly store: SearchIndexStore,
    private readonly aliases: AliasTable,
    private readonly options: MerchantMatcherOptions = {},
  ) {
    this.threshold = options.threshold ?? MATCH_THRESHOLD;
    this.#now = options.now ?? Date.now;
  }

  /** The best candidate and its confidence, or null when none reaches the threshold. */
  async match(input: TransactionInput): Promise<MerchantMatch | null> {
    const best = await this.bestCandidate(input);
    return best && best.confidence >= this.threshold ? best : null;
  }

  /** The best candidate whatever its confidence (the eval and the docs show the near misses). */
  async bestCandidate(input: TransactionInput): Promise<MerchantMatch | null> {
    // People, transfers, fees, interest, cash, cheques and pay name no merchant (issue 34): nothing is looked up.
    if (nonMerchantLine(input)) return null;
    const descriptor = parseDescriptor(input.transactionLabel, { countryCode: input.countryCode, city: input.city });
    const seller = descriptor.processor?.seller;
    if (seller) return { domain: seller.domain, name: seller.name, confidence: 0.97, alias: descriptor.processor?.id ?? '', source: 'processor' };
    const candidates: MerchantMatch[] = [];
    for (const words of [descriptor.aliasWords, descriptor.words, descriptor.folded]) {
      const hit = words && words.length > 0 ? this.aliases.match(words, input.countryCode) : null;
      if (hit) candidates.push({ domain: hit.alias.domain, name: hit.alias.name, confidence: round(aliasConfidence(hit, input.mcc)), alias: hit.alias.pattern, source: 'alias' });
    }
    if (!candidates.some((c) => c.confidence >= this.threshold)) {
      candidates.push(...(await this.#nameCandidates(descriptor, input)));
      const written = this.#writtenDomain(descriptor, input);
      if (written) candidates.push(written);
    }
    // After a facilitator the payee may be a person (transactions/payees.ts).
    const admitted = admitPayees(descriptor.processor, descriptor.words, candidates);
    if (admitted.length === 0 && descriptor.processor?.fallback) {
      const hit = this.aliases.match([descriptor.processor.fallback], input.countryCode);
      if (hit) admitted.push({ domain: hit.alias.domain, name: hit.alias.name, confidence: 0.86, alias: hit.alias.pattern, source: 'alias' });
    }
    return carriedBy(pickBest(capRefused(admitted, this.threshold)), descriptor.processor);
  }

  /** A domain written in the descriptor whose label is the descriptor's first word ("NETFLIX.COM", "ZOOM.US"). */
  #writtenDomain(descriptor: Descriptor, input: TransactionInput): MerchantMatch | null {
    const first = descriptor.words[0];
    const domain = descriptor.domains.find((d) => normalizeName(d.split('.')[0] ?? '') === first);
    if (!domain || !first || GENERIC_WORDS.has(first)) return null;
    return { domain, name: domain, confidence: round(0.88 + countryWeight(domain, input.countryCode)), alias: domain, source: 'domain' };
  }

  /** Leading spans of the descriptor, longest first, through the store's name index. */
  async #nameCandidates(descriptor: Descriptor, input: TransactionInput): Promise<MerchantMatch[]> {
    await this.#referenceNames();
    const out: MerchantMatch[] = [];
    for (const words of [descriptor.words, descriptor.folded]) {
      if (!words) continue;
      for (let k = Math.min(words.length, MAX_SPAN_WORDS); k >= 1; k--) {
        const span = words.slice(0, k);
        if (!searchable(span)) continue;
        const norm = span.join(' ');
        const rows = await this.store.searchNameCandidates({ norm, variants: k > 1 ? [squash(span)] : [], limit: CANDIDATES });
        const leftover = words.length - k;
        for (const row of rows) {
          // A ticker symbol is not what a statement prints (and would make "CVS" or "KO" collide with words).
          if (row.source !== 'brand' && row.source !== 'listing' && row.source !== 'crypto') continue;
          const fit = nameFit(span, row, leftover === 0, descriptor.truncated);
          if (!fit) continue;
          let score = fit.score - leftoverPenalty(leftover) + sourceWeight(row) + countryWeight(row.domain, input.countryCode);
          // Words missing at both ends: the descriptor and the name say different things.
          if (leftover > 0 && fit.score < 1 && !fit.cut) score -= 0.15;
          if (descriptor.domains.includes(row.domain)) score += 0.05;
          out.push({ domain: row.domain, name: row.name, confidence: round(score), alias: row.name, source: row.source });
        }
        if (out.some((c) => c.confidence >= 0.95)) return out;
      }
    }
    return out;
  }

  /**
   * Reference names follow imports, as search does (ADR 0033): checked on the first match and every
   * `referenceCheckMs` after, off the request path after the first time (search may sync the same rows too).
   */
  async #referenceNames(): Promise<void> {
    const now = this.#now();
    if (now - this.#referenceCheckedAt < (this.options.referenceCheckMs ?? 60_000)) return;
    const first = this.#referenceCheckedAt === -Infinity;
    this.#referenceCheckedAt = now;
    this.#referenceSync ??= this.store
      .syncSearchReferenceNames()
      .then(() => undefined)
      .finally(() => (this.#referenceSync = null));
    // A failed sync never fails a match: the names already in the index answer, and the next interval tries again.
    const sync = this.#referenceSync?.catch((error: unknown) => this.options.onSyncError?.(error));
    if (first) await sync;
  }
}

/** The facilitator that carried the payment, named on a merchant other than itself and other than a seller of record. */
function carriedBy(match: MerchantMatch | null, processor: Processor | null): MerchantMatch | null {
  if (!match || !processor || processor.seller || match.domain === processor.domain) return match;
  return { ...match, processor: processor.id };
}

/**
 * An alias the country or the MCC refused also caps the same merchant found by name: "SHELL" with a restaurant's
 * MCC is not the oil company, however exactly the listing's name matches.
 */
function capRefused(candidates: readonly MerchantMatch[], threshold: number): MerchantMatch[] {
  const refused = new Map<string, number>();
  for (const c of candidates) if (c.source === 'alias' && c.confidence < threshold) refused.set(c.domain, Math.min(c.confidence, refused.get(c.domain) ?? 1));
  return candidates.map((c) => {
    const cap = c.source === 'alias' ? undefined : refused.get(c.domain);
    return cap === undefined || c.confidence <= cap ? c : { ...c, confidence: cap };
  });
}

/**
 * The best candidate per domain, then overall. Two different merchants within 0.03 of each other make the answer
 * a guess: the best one loses 0.1.
 */
export function pickBest(candidates: readonly MerchantMatch[]): MerchantMatch | null {
  const byDomain = new Map<string, MerchantMatch>();
  for (const c of candidates) {
    const current = byDomain.get(c.domain);
    if (!current || c.confidence > current.confidence) byDomain.set(c.domain, c);
  }
  const ranked = [...byDomain.values()].sort((a, b) => b.confidence - a.confidence || a.domain.localeCompare(b.domain));
  const [best, second] = ranked;
  if (!best) return null;
  if (second && best.source !== 'alias' && best.confidence - second.confidence < 0.03) return { ...best, confidence: round(best.confidence - 0.1) };
  return best;
}
