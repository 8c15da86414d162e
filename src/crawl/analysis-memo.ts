/**
 * The content-hash cache of one crawl (docs/refresh.md, ADR 0030). A re-crawl gets the analyses its domain's last
 * crawl used (loaded from the store by the indexer and sent along with the crawl): any file whose downloaded bytes
 * are the same is not decoded, measured, colour-clustered or classified again. The memo also collects what this
 * crawl used (hits and fresh analyses), which the indexer saves as the domain's entries for the next re-crawl, and
 * the perceptual signature of every file it met (change detection, domain/brand-announcement.ts).
 *
 * Keys carry ANALYSIS_VERSION: raise it when an analysis changes (decoder, colour clustering, theme, model), so
 * entries made by the old code are never reused.
 */
import { createHash } from 'node:crypto';
import type { MarkSignature } from '../domain/brand-announcement.js';
import type { IngestedImage } from '../media/ingest-image.js';
import type { ImageKindVerdict } from '../media/image-kind.js';

export const ANALYSIS_VERSION = 1;

/** One cached analysis as carried between processes and stored: `analysis` is JSON text. */
export interface AnalysisRecord {
  key: string;
  analysis: string;
}

export interface AnalysisCounts {
  /** Files whose analysis was reused. */
  hits: number;
  /** Files analysed by this crawl. */
  misses: number;
}

const INGEST = `ingest:v${ANALYSIS_VERSION}:`;
const KIND = `kind:v${ANALYSIS_VERSION}:`;
const STORED = `stored:v${ANALYSIS_VERSION}:`;
/**
 * Converted or sanitized files (an ICO stored as PNG, a cleaned SVG) up to this size are kept with their analysis:
 * a candidate the record did not list was never written to the asset store (ADR 0009), and without its stored
 * bytes the conversion would have to run again.
 */
export const MAX_KEPT_STORED_BYTES = 256 * 1024;

export function contentHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export class AnalysisMemo {
  private readonly known = new Map<string, string>();
  private readonly used = new Map<string, string>();
  readonly marks = new Map<string, MarkSignature>();
  readonly counts: AnalysisCounts = { hits: 0, misses: 0 };

  constructor(entries: readonly AnalysisRecord[] = []) {
    for (const entry of entries) this.known.set(entry.key, entry.analysis);
  }

  /** The cached ingest of these bytes (by their sha256), or undefined. */
  cachedIngest(sha256: string): IngestedImage | undefined {
    return this.read<IngestedImage>(INGEST + sha256);
  }

  rememberIngest(sha256: string, image: IngestedImage): void {
    this.write(INGEST + sha256, image);
    this.counts.misses++;
  }

  /** Counts a reuse (the caller checked the stored file is still there). */
  reusedIngest(sha256: string, image: IngestedImage): void {
    this.used.set(INGEST + sha256, JSON.stringify(image));
    this.counts.hits++;
  }

  /** Keeps the stored bytes of input that was converted or sanitized (see MAX_KEPT_STORED_BYTES). */
  rememberStored(sha256: string, stored: Uint8Array): void {
    if (stored.byteLength <= MAX_KEPT_STORED_BYTES) this.write(STORED + sha256, Buffer.from(stored).toString('base64'));
  }

  /** The kept stored bytes of converted input with this sha256 (marked used), or undefined. */
  cachedStored(sha256: string): Buffer | undefined {
    const text = this.read<string>(STORED + sha256);
    if (typeof text !== 'string') return undefined;
    this.used.set(STORED + sha256, JSON.stringify(text));
    return Buffer.from(text, 'base64');
  }

  /** The cached image-kind verdict of a stored file (null: classified, nothing found), or undefined. */
  cachedKind(assetKey: string): ImageKindVerdict | null | undefined {
    const verdict = this.read<ImageKindVerdict | null>(KIND + assetKey);
    if (verdict !== undefined) {
      this.used.set(KIND + assetKey, JSON.stringify(verdict));
      this.counts.hits++;
    }
    return verdict;
  }

  rememberKind(assetKey: string, verdict: ImageKindVerdict | null): void {
    this.write(KIND + assetKey, verdict);
    this.counts.misses++;
  }

  /** Keeps the perceptual signature of a stored file (its analysis raster's dHash and aspect ratio). */
  noteMark(image: IngestedImage): void {
    const aspect = image.width !== null && image.height !== null && image.height > 0 ? image.width / image.height : null;
    this.marks.set(image.assetKey, { dhash: image.dhash, aspect });
  }

  /** What this crawl used: the entries the domain keeps for its next re-crawl. */
  entries(): AnalysisRecord[] {
    return [...this.used].map(([key, analysis]) => ({ key, analysis }));
  }

  private read<T>(key: string): T | undefined {
    const text = this.known.get(key);
    if (text === undefined) return undefined;
    try {
      return JSON.parse(text) as T;
    } catch {
      return undefined;
    }
  }

  private write(key: string, value: unknown): void {
    const text = JSON.stringify(value);
    this.known.set(key, text);
    this.used.set(key, text);
  }
}
