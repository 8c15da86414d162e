/**
 * The brands product's storage port (issue 30: each product owns its storage): brand records and their
 * identifiers, the crawl failure memory, the brand write log, and scheduled refresh with popularity, the analysis
 * cache and mark signatures. Brands code depends on this file; `store/kysely-brand-store.ts` (KyselyBrandStore)
 * implements it over the kernel's Database; callers take it as `stores.brands` (main/product-stores.ts).
 * Every method is atomic on its own: a method that writes several rows writes all or none.
 */
import type { MarkSignature } from '../domain/brand-announcement.js';
import type { Brand } from '../domain/brand.js';
import type { PaletteEvidence } from '../domain/palette.js';
import type { ContextEvidence } from '../domain/brand-context.js';
import type { LogoEvidence } from '../domain/logo-evidence.js';
import type { BrandSavedEvent } from '../domain/brand-changes.js';
import type { CrawlFailureReason } from '../domain/crawl-failures.js';

export type IdentifierKind = 'domain' | 'ticker' | 'isin' | 'crypto';
export type BrandStatus = 'indexed' | 'removed';

/** The record as stored: the Brand without its per-request parts (palette) plus bookkeeping. */
export interface StoredBrand {
  brand: Brand;
  status: BrandStatus;
  /** When the record was last built from the brand's website. */
  crawledAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

export interface IdentifierRef {
  kind: IdentifierKind;
  /** Normalised value: lower-case registrable domain; upper-case ticker/ISIN/crypto symbol. */
  value: string;
}

/** The last failed crawl of a domain (the crawl failure memory, ADR 0016). */
export interface CrawlFailure {
  domain: string;
  reason: CrawlFailureReason;
  /** What went wrong, for logs and the operator; never sent to API clients. */
  message: string;
  /** Failures in a row, this one included (1 on the first). */
  strikes: number;
  failedAt: Date;
}

export interface SaveBrandOptions {
  /** The palette evidence the crawl that built this record kept. */
  paletteEvidence?: PaletteEvidence;
  /** The context evidence (page text) the same crawl kept (ADR 0035): saved like the palette evidence. */
  contextEvidence?: ContextEvidence;
  /** How the same crawl chose the logos (ADR 0044): kept with the record, replacing the previous crawl's. */
  logoEvidence?: LogoEvidence;
}

export interface BrandStore {
  getBrand(id: string): Promise<StoredBrand | null>;
  findBrandByIdentifier(ref: IdentifierRef): Promise<StoredBrand | null>;
  /**
   * Insert or replace the brand (keyed by `brand.id`) and attach the identifiers to it, in one transaction.
   * An identifier already attached to another brand is moved to this one.
   * The same transaction writes the `brand.saved` event (what changed against the record it replaces, read under
   * the write lock) and one delivery per subscribed consumer; the event is returned. No commit, no event.
   * It also appends the save to the brand write log (BrandWriteLog).
   * With `options.paletteEvidence` (a crawl's, ADR 0023) the same transaction keeps that evidence as observed at
   * `brand.crawledAt` and drops a palette built from older evidence (PaletteStore.savePaletteEvidence); with
   * `options.contextEvidence` likewise for the context (ContextStore.saveContextEvidence, ADR 0035).
   */
  saveBrand(brand: StoredBrand, identifiers: IdentifierRef[], options?: SaveBrandOptions): Promise<BrandSavedEvent>;
  /** Returns false for an unknown brand. A status change is appended to the brand write log in the same transaction. */
  setBrandStatus(id: string, status: BrandStatus, at: Date): Promise<boolean>;
  /**
   * Inserts new brands in bulk, in one transaction (`brandbase generate-brands`): the rows `saveBrand` writes for a
   * new brand (brand, identifiers, search row, one brand write log entry for the batch), no `brand.saved` event. A
   * brand whose id or domain is held already is skipped, an identifier held by another brand stays there. Returns
   * how many were inserted (brands/store/bulk-brand-rows.ts).
   */
  insertBrands(brands: readonly { stored: StoredBrand; identifiers: IdentifierRef[] }[]): Promise<number>;
  listIdentifiers(brandId: string): Promise<IdentifierRef[]>;
  /** The domain's remembered crawl failure, or null (a primary-key read). */
  getCrawlFailure(domain: string): Promise<CrawlFailure | null>;
  /**
   * Remembers a failed crawl: inserts the row with one strike, or replaces reason, message and time and adds a
   * strike, in one statement (two processes failing at once both count). Returns the row as written.
   */
  recordCrawlFailure(failure: Omit<CrawlFailure, 'strikes'>): Promise<CrawlFailure>;
  /** Forgets the domains' failures (a crawl succeeded). */
  clearCrawlFailures(domains: readonly string[]): Promise<void>;
  /** Deletes failures older than `before`; returns how many. */
  pruneCrawlFailures(before: Date): Promise<number>;
}

/** One committed write of a brand (a save or a status change), numbered in commit order (ADR 0017). */
export interface BrandWrite {
  /** 1, 2, 3, ... with no gaps: every write has a higher number than every write committed before it. */
  seq: number;
  brandId: string;
  /** Domains the write attached to the brand (its own and its domain identifiers); empty for a status change. */
  domains: string[];
  /** The writing process's clock. */
  at: Date;
}

/**
 * The brand write log: what API processes poll to drop cached brands that another process wrote
 * (brands/brand-cache-sync.ts). `saveBrand` and `setBrandStatus` append to it in their own transaction. Rows older
 * than an hour are pruned by later writes, except the newest one, so `latestBrandWrite` never goes back.
 */
export interface BrandWriteLog {
  /** `seq` of the newest write; 0 when nothing was ever written. */
  latestBrandWrite(): Promise<number>;
  /** Writes with `seq > after`, oldest first, at most `limit`. */
  brandWritesAfter(after: number, limit: number): Promise<BrandWrite[]>;
}

/** Lookups counted for one brand since the last flush (brands/popularity-counter.ts). */
export interface BrandLookupCount {
  brandId: string;
  lookups: number;
  lastLookupAt: Date;
}

/** A cached image analysis: `key` = analysis version + sha256 of the downloaded bytes; `analysis` is JSON text. */
export interface AnalysisEntry {
  key: string;
  analysis: string;
}

/** A held brand due for refresh, with what orders it (docs/refresh.md). */
export interface DueBrand {
  brandId: string;
  domain: string;
  crawledAt: Date;
  lookups: number;
  /** Some webhook subscribes to its domain. */
  subscribed: boolean;
}

export interface RefreshLease {
  holder: string;
  until: Date;
}

/** What one scheduler tick did (kept as the schedule's last run). */
export interface RefreshRun {
  startedAt: Date;
  finishedAt: Date;
  /** Refresh crawls this tick queued. */
  queued: number;
  /** Stale brands it left for later ticks (budget or queue bound). */
  deferred: number;
  /** Who ran it: a process's holder id, or `cli`. */
  by: string;
}

export interface RefreshState {
  holder: string | null;
  leaseUntil: Date | null;
  lastRun: RefreshRun | null;
}

/**
 * Scheduled refresh, popularity, the analysis cache and mark signatures (migration 0014, ADR 0030,
 * src/brands/store/refresh-rows.ts).
 */
export interface RefreshStore {
  /** Adds counted lookups to `brand_popularity` (one batch per flush). */
  addBrandLookups(counts: readonly BrandLookupCount[]): Promise<void>;
  brandLookups(brandId: string): Promise<number>;
  /** Perceptual signatures of stored files by content key; a key's first signature stays. */
  saveMarkSignatures(marks: ReadonlyMap<string, MarkSignature>, at: Date): Promise<void>;
  markSignatures(keys: readonly string[]): Promise<Map<string, MarkSignature>>;
  /** The analyses a domain's last crawl used, marked used at `at`. */
  loadAnalyses(domain: string, at: Date): Promise<AnalysisEntry[]>;
  /** Replaces the domain's analyses and evicts the least recently used rows beyond `maxRows`. */
  saveAnalyses(domain: string, entries: readonly AnalysisEntry[], at: Date, maxRows: number): Promise<void>;
  analysisCacheSize(): Promise<number>;
  /** Stale held brands without an active crawl (nor a crawl failure since `failedSince`), in refresh order. */
  dueBrands(staleBefore: Date, limit: number, failedSince?: Date): Promise<DueBrand[]>;
  refreshCounts(staleBefore: Date): Promise<{ stale: number; queued: number; running: number }>;
  acquireRefreshLease(name: string, holder: string, leaseMs: number, now: Date): Promise<RefreshLease | null>;
  releaseRefreshLease(name: string, holder: string, now: Date): Promise<void>;
  recordRefreshRun(name: string, run: RefreshRun): Promise<void>;
  refreshState(name: string): Promise<RefreshState>;
}
