/**
 * What an import did: rows read, rows skipped per reason and fields corrected per reason (each with the first
 * few examples), and what the store did with the rest (inserted, updated, unchanged = already stored, as on a
 * re-import; contradictions between sources, with the value kept).
 */
import type { Contradiction, ReplaceCounts, UpsertCounts } from '../reference-data.js';

const EXAMPLES = 5;

interface Tally {
  count: number;
  examples: string[];
}

export interface ImportReportJson {
  format: string;
  source: string;
  file: string;
  sourceDate: string;
  rowsRead: number;
  inserted: number;
  updated: number;
  unchanged: number;
  /** Rows a snapshot import (the brand knowledge set) took out because the new snapshot no longer has them. */
  removed: number;
  /** Keyed by reason: rows not imported at all. */
  skipped: Record<string, Tally>;
  /** Keyed by reason: rows imported with a field dropped or fixed (an ADR's ISIN, a copied website, XJPX). */
  corrected: Record<string, Tally>;
  contradictions: { count: number; examples: Contradiction[] };
}

function add(map: Map<string, Tally>, reason: string, example: string): void {
  const tally = map.get(reason) ?? { count: 0, examples: [] };
  tally.count += 1;
  if (tally.examples.length < EXAMPLES) tally.examples.push(example);
  map.set(reason, tally);
}

export class ImportReport {
  rowsRead = 0;
  private readonly skips = new Map<string, Tally>();
  private readonly fixes = new Map<string, Tally>();
  private readonly store: ReplaceCounts = { inserted: 0, updated: 0, unchanged: 0, removed: 0, contradictions: [] };
  private contradictionCount = 0;

  constructor(private readonly meta: { format: string; source: string; file: string; sourceDate: string }) {}

  skip(reason: string, example: string): void {
    add(this.skips, reason, example);
  }

  correct(reason: string, example: string): void {
    add(this.fixes, reason, example);
  }

  skippedCount(reason?: string): number {
    if (reason !== undefined) return this.skips.get(reason)?.count ?? 0;
    return [...this.skips.values()].reduce((n, t) => n + t.count, 0);
  }

  addStoreCounts(counts: UpsertCounts | ReplaceCounts): void {
    if ('removed' in counts) this.store.removed += counts.removed;
    this.store.inserted += counts.inserted;
    this.store.updated += counts.updated;
    this.store.unchanged += counts.unchanged;
    this.contradictionCount += counts.contradictions.length;
    for (const c of counts.contradictions) if (this.store.contradictions.length < EXAMPLES) this.store.contradictions.push(c);
  }

  toJSON(): ImportReportJson {
    return {
      ...this.meta,
      rowsRead: this.rowsRead,
      inserted: this.store.inserted,
      updated: this.store.updated,
      unchanged: this.store.unchanged,
      removed: this.store.removed,
      skipped: Object.fromEntries(this.skips),
      corrected: Object.fromEntries(this.fixes),
      contradictions: { count: this.contradictionCount, examples: this.store.contradictions },
    };
  }
}
