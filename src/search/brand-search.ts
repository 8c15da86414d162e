/**
 * Search by name (issue 20, docs/search.md, ADR 0033): candidates come from the database's own text index (FTS5
 * trigram on SQLite, pg_trgm on PostgreSQL) through the store port; this service ranks that short list (tens of
 * rows, never the table) by match quality, then prominence, and shapes the answer.
 */
import { ApiError } from '../domain/errors.js';
import type { SearchHit } from '../domain/search-hit.js';
import { matchQuality, normalizeName, tickerQuery, typoVariants } from '../domain/search-text.js';
import type { Logger } from '../platform/logger.js';
import type { SearchIndexStore, SearchNameRow } from './search-store.js';

export type { SearchHit };

export interface BrandSearchOptions {
  /** A search taking longer answers 503 `temporarily_unavailable` (not counted). */
  timeoutMs: number;
  /** How often the reference names are checked against the reference imports (a cheap read when unchanged). */
  referenceCheckMs: number;
  logger: Logger;
  now?: () => number;
}

/** Candidate rows read per index; the ranking needs the best few, the index returns them first. */
const CANDIDATES = 40;
/** Shortest query read for trigram similarity (typos: none below 4 characters, matchQuality). */
const SIMILAR_MIN_LENGTH = 4;
/** Characters of the query whose trigrams are looked up for similar names (the start of a name carries it). */
const SIMILAR_MAX_LENGTH = 10;
/** Lowest matchQuality of a match as typed (a substring); typos score below it. */
const TYPED_MATCH = 0.7;
/** Longest query looked at: names are shorter, and the trigram query grows with it. */
export const MAX_QUERY_LENGTH = 100;

/** 1 for a mega cap … 0 for unknown (not listed, or no size). */
function sizeScore(rank: number): number {
  return rank >= 9 ? 0 : Math.max(0, (7 - rank) / 6);
}

/** 0..1 from how often the brand is looked up: 1 lookup ~0.05, 10 ~0.2, 10,000 ~0.8, a million 1. */
function lookupScore(lookups: number): number {
  return Math.min(1, Math.log10(1 + lookups) / 6);
}

/** How prominent a name is, 0..1: listed size, crawled quality, lookups, and being held at all. */
export function prominence(row: SearchNameRow): number {
  return 0.4 * sizeScore(row.sizeRank) + 0.25 * (row.qualityScore ?? 0) + 0.25 * lookupScore(row.lookups) + (row.brandId ? 0.1 : 0);
}

/**
 * A ticker or crypto symbol typed exactly ("aapl", "btc"): below a name typed exactly (1) and a name's long prefix,
 * above a short prefix of another name (0.9 + 0.05 × typed/length).
 */
const TICKER_MATCH = 0.93;

interface Ranked {
  row: SearchNameRow;
  quality: number;
  score: number;
}

/**
 * Match quality decides; prominence breaks ties and near-ties (it can lift a name by less than the gap between two
 * match tiers, so "app" finds Apple before AppLovin but never a typo before an exact name).
 */
export function rankRows(norm: string, rows: readonly SearchNameRow[]): Ranked[] {
  const best = new Map<string, Ranked>();
  const ticker = tickerQuery(norm);
  for (const row of rows) {
    const quality = row.source === 'ticker' ? (row.norm === ticker ? TICKER_MATCH : 0) : matchQuality(norm, row.norm, row.label);
    if (quality <= 0) continue;
    const current = best.get(row.domain);
    // The held brand's own row names the hit; a reference row may still give the better match.
    const shown = current && (current.row.source === 'brand' || row.source !== 'brand') && current.row.source !== 'ticker' ? current.row : row;
    const q = Math.max(quality, current?.quality ?? 0);
    const merged = { ...shown, sizeRank: Math.min(shown.sizeRank, current?.row.sizeRank ?? 9, row.sizeRank) };
    best.set(row.domain, { row: merged, quality: q, score: q + 0.12 * prominence(merged) });
  }
  return [...best.values()].sort((a, b) => b.score - a.score || a.row.name.length - b.row.name.length || a.row.domain.localeCompare(b.row.domain));
}

export class BrandSearch {
  #referenceCheckedAt = -Infinity;
  #referenceSync: Promise<void> | null = null;
  #firstSync: Promise<void> | null = null;
  #synced = false;
  readonly #now: () => number;

  constructor(
    private readonly store: SearchIndexStore,
    /** Renders an asset key as the URL answers carry (assets/asset-urls.ts). */
    private readonly iconUrl: (key: string) => string,
    private readonly options: BrandSearchOptions,
  ) {
    this.#now = options.now ?? Date.now;
  }

  /** Best first, at most `limit`; empty when nothing matches. 503 `temporarily_unavailable` when the index fails or is slow. */
  async search(query: string, limit: number): Promise<SearchHit[]> {
    const norm = normalizeName(query.slice(0, MAX_QUERY_LENGTH));
    if (norm === '') return [];
    // The first search of a process waits for the reference names, outside the time budget (seconds, once).
    await this.#ready().catch((error: unknown) => this.#unavailable(error));
    return this.#withinBudget(async () => {
      this.#refreshReferenceNames();
      const rows = await this.store.searchNameCandidates({ norm, variants: typoVariants(norm), ticker: tickerQuery(norm), limit: CANDIDATES });
      // Names sharing trigrams (typos the prefix variants miss) cost the most: read only when nothing matched the
      // query as typed (no exact, prefix, word or substring match), and for its first characters only.
      if (norm.length >= SIMILAR_MIN_LENGTH && !rankRows(norm, rows).some((r) => r.quality >= TYPED_MATCH)) {
        rows.push(...(await this.store.similarNameCandidates(norm.slice(0, SIMILAR_MAX_LENGTH), CANDIDATES)));
      }
      const brandIds = [...new Set(rows.map((r) => r.brandId).filter((id): id is string => id !== null))];
      const lookups = await this.store.searchLookups(brandIds);
      for (const row of rows) row.lookups = row.brandId ? (lookups.get(row.brandId) ?? 0) : 0;
      return rankRows(norm, rows).slice(0, limit).map(({ row }) => this.#hit(row));
    });
  }

  /** Syncs the reference names ahead of the first search (optional; a failure is logged and retried by search). */
  async warm(): Promise<void> {
    await this.#ready().catch((err: unknown) => this.options.logger.warn({ err }, 'search reference names could not be synced'));
  }

  #hit(row: SearchNameRow): SearchHit {
    return {
      name: row.name,
      domain: row.domain,
      claimed: row.claimed,
      icon: row.icon === null ? null : this.iconUrl(row.icon),
      brandId: row.brandId,
      qualityScore: row.qualityScore,
    };
  }

  /** Resolves once this process synced the reference names once; a failed sync is tried again by the next search. */
  #ready(): Promise<void> {
    if (this.#synced) return Promise.resolve();
    this.#firstSync ??= this.store
      .syncSearchReferenceNames()
      .then(() => {
        this.#synced = true;
        this.#referenceCheckedAt = this.#now();
      })
      .finally(() => (this.#firstSync = null));
    return this.#firstSync;
  }

  /**
   * Reference names follow imports: checked again every `referenceCheckMs` (a cheap read when nothing was imported),
   * off the request path; a failed check is logged and tried at the next interval, never failing a search.
   */
  #refreshReferenceNames(): void {
    const now = this.#now();
    if (this.#referenceSync !== null || now - this.#referenceCheckedAt < this.options.referenceCheckMs) return;
    this.#referenceCheckedAt = now;
    this.#referenceSync = this.store
      .syncSearchReferenceNames()
      .then(
        () => undefined,
        (err: unknown) => this.options.logger.warn({ err }, 'search reference names could not be synced'),
      )
      .finally(() => (this.#referenceSync = null));
  }

  #unavailable(error: unknown): never {
    if (error instanceof ApiError) throw error;
    this.options.logger.warn({ err: error }, 'search could not answer');
    throw new ApiError('temporarily_unavailable', undefined, { code: 'temporarily_unavailable' }, { 'retry-after': '10' });
  }

  async #withinBudget<T>(work: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ApiError('temporarily_unavailable', undefined, { code: 'temporarily_unavailable' }, { 'retry-after': '10' })), this.options.timeoutMs);
    });
    try {
      return await Promise.race([work(), timeout]);
    } catch (error) {
      this.#unavailable(error);
    } finally {
      clearTimeout(timer);
    }
  }
}
