import type { Brand, FinancialIdentifiers, Logo } from '../domain/brand.js';
import type { PaletteEvidence } from '../domain/palette.js';
import type { ContextEvidence } from '../domain/brand-context.js';
import type { LogoEvidence } from '../domain/logo-evidence.js';
import { brandIdForDomain, brandUrn } from '../domain/ids.js';
import type { Logger } from '../platform/logger.js';
import type { BrandStore, IdentifierRef, RefreshStore, StoredBrand } from './brand-store.js';
import type { CrawlOutcome } from '../crawl/crawl-brand.js';
import type { AnalysisCounts, AnalysisRecord } from '../crawl/analysis-memo.js';
import { AnalysisCache, DEFAULT_ANALYSIS_CACHE_ROWS } from './analysis-cache.js';
import { mergeRecrawledLogos } from '../crawl/fields/logos/logo-history.js';
import { keepCuratedFields } from './curated-fields.js';
import { DEFAULT_FAILURE_MEMORY, FailureMemory, type FailureMemorySettings, type RememberedFailure } from './failure-memory.js';

/**
 * Crawls a registrable domain; `owner` (an organization id, null for the operator's own work) takes fair turns;
 * `known`: the analyses the domain's last crawl used (content-hash cache, ADR 0030).
 */
export type Crawl = (domain: string, owner?: string | null, known?: readonly AnalysisRecord[]) => Promise<CrawlOutcome>;

export type IndexFailure = RememberedFailure;
/** `analysis`: files whose analysis the crawl reused (hits) or made (misses), when the crawler reports it. */
export type IndexOutcome = { ok: true; stored: StoredBrand; analysis?: AnalysisCounts } | IndexFailure;

export interface IndexerOptions {
  now?: () => Date;
  /** Called after each save, e.g. to put the record in the brand cache. */
  onSaved?: (stored: StoredBrand, domains: string[]) => void;
  /**
   * The logos with the renditions they lack (media/logo-renditions.ts), or null when none lacks any. Runs after
   * the previous record's renditions were carried over, so only new files are encoded (ADR 0008).
   */
  completeLogos?: (logos: readonly Logo[]) => Promise<Logo[] | null>;
  /** How long failed crawls are answered from memory (defaults: 60 s doubling up to 6 h). */
  failureMemory?: FailureMemorySettings;
  /**
   * Identifier rows a crawled brand names itself (JSON-LD `tickerSymbol`, `isin`), attached when it is saved
   * (brands/financial-resolver.ts `declaredRefs`).
   */
  declaredIdentifiers?: (brand: Brand) => Promise<IdentifierRef[]>;
  /**
   * Called once the crawl's palette evidence is stored, e.g. to queue the palette's background render when the crawl
   * kept only CSS evidence (palette/palette-render-scheduler.ts, ADR 0023). Must not throw.
   */
  onPaletteEvidence?: (stored: StoredBrand, evidence: PaletteEvidence) => Promise<unknown>;
  /** Rows the content-hash analysis cache keeps across all domains (BRANDBASE_ANALYSIS_CACHE_ROWS, ADR 0030). */
  analysisCacheRows?: number;
  /**
   * Called once per crawl this process ran, with `indexed` or the failure reason (a fixed set: domain/crawl-failures.ts)
   * and its duration in milliseconds (`/metrics`, ADR 0039).
   */
  onCrawled?: (outcome: string, ms: number) => void;
}

export interface IndexOptions {
  /** Crawl even when a failure is remembered: a queued job retrying on purpose, or `brandbase crawl`. */
  retry?: boolean;
  /** Who the crawl is for, so crawls wait for a crawl worker in fair turns between organizations (ADR 0015). */
  owner?: string | null;
  /** False when the caller logs the failure itself (the worker pool logs one line per job attempt). */
  logFailure?: boolean;
  /** The id of the request the crawl is for (a queued job carries it): the crawl's log lines carry it as `reqId`. */
  requestId?: string;
}

/**
 * Turns a crawl of a registrable domain into a stored brand. Concurrent requests for the same domain share one
 * crawl (single flight): two lookups of an unindexed domain start one crawl, and both get its result. A failed
 * crawl is remembered in the store (shared by every process, ADR 0016) and answered from there for a while.
 */
export class BrandIndexer {
  private readonly inFlight = new Map<string, Promise<IndexOutcome>>();
  private readonly now: () => Date;
  private readonly memory: FailureMemory;
  private readonly analyses: AnalysisCache | null;

  constructor(
    /** With the RefreshStore parts, re-crawls reuse unchanged files' analyses and mark signatures are kept. */
    private readonly store: BrandStore & Partial<Pick<RefreshStore, 'loadAnalyses' | 'saveAnalyses' | 'saveMarkSignatures'>>,
    private readonly crawl: Crawl,
    private readonly logger: Logger,
    private readonly options: IndexerOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.memory = new FailureMemory(store, logger, options.failureMemory ?? DEFAULT_FAILURE_MEMORY, this.now);
    const { loadAnalyses, saveAnalyses, saveMarkSignatures } = store;
    this.analyses =
      loadAnalyses && saveAnalyses && saveMarkSignatures
        ? new AnalysisCache({ loadAnalyses: loadAnalyses.bind(store), saveAnalyses: saveAnalyses.bind(store), saveMarkSignatures: saveMarkSignatures.bind(store) }, logger, {
            maxRows: options.analysisCacheRows ?? DEFAULT_ANALYSIS_CACHE_ROWS,
            now: this.now,
          })
        : null;
  }

  async index(domain: string, options: IndexOptions = {}): Promise<IndexOutcome> {
    if (!options.retry) {
      const remembered = await this.recentFailure(domain);
      if (remembered) return remembered;
    }
    // No await between reading and setting inFlight: concurrent callers share one crawl.
    const running = this.inFlight.get(domain);
    if (running) return running;
    const started = this.run(domain, options.owner ?? null, options.logFailure ?? true, options.requestId).finally(() => this.inFlight.delete(domain));
    this.inFlight.set(domain, started);
    return started;
  }

  /** The remembered failure of a crawl of `domain` still within its window, or null (one primary-key read). */
  recentFailure(domain: string): Promise<IndexFailure | null> {
    return this.memory.recall(domain);
  }

  /** Number of crawls running in this process. */
  get running(): number {
    return this.inFlight.size;
  }

  private async run(domain: string, owner: string | null, logFailure: boolean, requestId: string | undefined): Promise<IndexOutcome> {
    const startedAt = Date.now();
    const req = requestId === undefined ? {} : { reqId: requestId };
    const finished = (outcome: string): void => this.options.onCrawled?.(outcome, Date.now() - startedAt);
    let outcome: CrawlOutcome;
    // The analyses the domain's last crawl used: files with the same bytes are not analysed again (ADR 0030).
    const known = (await this.analyses?.known(domain)) ?? [];
    try {
      outcome = await this.crawl(domain, owner, known);
    } catch (error) {
      // A bug, not a site's doing: its stack is logged here, once; callers only see `crawl_error`.
      this.logger.error({ ...req, domain, err: error }, 'crawl crashed');
      finished('crawl_error');
      return { ok: false, reason: 'crawl_error', message: 'The brand website could not be indexed.' };
    }
    if (!outcome.ok) {
      if (logFailure) this.logger.info({ ...req, domain, reason: outcome.reason, ms: Date.now() - startedAt }, 'crawl failed');
      finished(outcome.reason);
      const failure: IndexFailure = { ok: false, reason: outcome.reason, message: outcome.message };
      await this.memory.remember(domain, failure);
      return failure;
    }
    // Mark signatures first: the save's change detection reads them in its transaction (brands/store/kysely-brand-store.ts).
    if (outcome.analysis) await this.analyses?.keepMarks(outcome.analysis);
    const stored = await this.save(domain, outcome.domain, outcome.draft, outcome.paletteEvidence, outcome.contextEvidence, outcome.logoEvidence);
    if (outcome.paletteEvidence) await this.afterPaletteEvidence(stored, outcome.paletteEvidence);
    if (outcome.analysis) await this.analyses?.keep(outcome.domain, outcome.analysis);
    await this.memory.forget([...new Set([domain, outcome.domain])]);
    const counts = outcome.analysis?.counts;
    finished('indexed');
    this.logger.info({ ...req, domain, brandId: stored.brand.id, finalDomain: outcome.domain, ms: Date.now() - startedAt, ...(counts ? { reused: counts.hits, analysed: counts.misses } : {}) }, 'brand indexed');
    return counts ? { ok: true, stored, analysis: counts } : { ok: true, stored };
  }

  /** The crawl's palette evidence was saved with its record (ADR 0023): e.g. queue its background render. */
  private async afterPaletteEvidence(stored: StoredBrand, evidence: PaletteEvidence): Promise<void> {
    try {
      await this.options.onPaletteEvidence?.(stored, evidence);
    } catch (error) {
      // Costs only the rendered evidence: the palette is built from the crawl's own.
      this.logger.warn({ brandId: stored.brand.id, err: error instanceof Error ? error.message : String(error) }, 'palette evidence hook failed');
    }
  }

  private async save(
    requested: string,
    finalDomain: string,
    draft: Omit<Brand, 'id' | 'urn' | 'palette'>,
    paletteEvidence?: PaletteEvidence,
    contextEvidence?: ContextEvidence,
    logoEvidence?: LogoEvidence,
  ): Promise<StoredBrand> {
    const existing =
      (await this.store.findBrandByIdentifier({ kind: 'domain', value: finalDomain })) ??
      (await this.store.findBrandByIdentifier({ kind: 'domain', value: requested }));
    const id = existing?.brand.id ?? brandIdForDomain(finalDomain);
    const now = this.now();
    const crawled: Brand = { ...draft, id, domain: finalDomain, urn: brandUrn(id) };
    // A re-crawl keeps what people set (claimed, curated industries) and lists retired logos as `other`.
    const merged = existing ? { ...keepCuratedFields(existing.brand, crawled, now), logos: mergeRecrawledLogos(existing.brand.logos, crawled.logos) } : crawled;
    // Tickers and ISINs attached by lookups (rule 7) stay when the site does not name them.
    const company = { ...merged.company, financialIdentifiers: mergeFinancialIdentifiers(existing?.brand.company.financialIdentifiers ?? null, merged.company.financialIdentifiers) };
    const brand = { ...merged, company, logos: await this.withRenditions(merged.logos, id) };
    const stored: StoredBrand = { brand, status: 'indexed', crawledAt: now, createdAt: existing?.createdAt ?? now, updatedAt: now };
    const domains = [...new Set([finalDomain, requested])];
    const identifiers: IdentifierRef[] = [...domains.map((value): IdentifierRef => ({ kind: 'domain', value })), ...(await this.declared(brand))];
    // The crawl's palette, context and logo evidence commit with the record they were observed with (ADR 0023, 0035, 0044).
    await this.store.saveBrand(stored, identifiers, {
      ...(paletteEvidence ? { paletteEvidence } : {}),
      ...(contextEvidence ? { contextEvidence } : {}),
      ...(logoEvidence ? { logoEvidence } : {}),
    });
    this.options.onSaved?.(stored, domains);
    return stored;
  }

  /**
   * Attaches identifier rows (a resolved ticker, ISIN or crypto symbol, rule 7) to a held brand and adds `financial`
   * to its `company.financialIdentifiers`. Reads the record again first, so a save made meanwhile is not undone.
   * Returns the record as saved, or null when the brand is gone.
   */
  async attach(brandId: string, refs: IdentifierRef[], financial: FinancialIdentifiers | null): Promise<StoredBrand | null> {
    const current = await this.store.getBrand(brandId);
    if (!current) return null;
    const ids = mergeFinancialIdentifiers(current.brand.company.financialIdentifiers, financial);
    const changed = JSON.stringify(ids) !== JSON.stringify(current.brand.company.financialIdentifiers);
    const stored: StoredBrand = changed ? { ...current, brand: { ...current.brand, company: { ...current.brand.company, financialIdentifiers: ids } }, updatedAt: this.now() } : current;
    await this.store.saveBrand(stored, refs);
    this.options.onSaved?.(stored, [stored.brand.domain]);
    return stored;
  }

  private async declared(brand: Brand): Promise<IdentifierRef[]> {
    try {
      return (await this.options.declaredIdentifiers?.(brand)) ?? [];
    } catch (error) {
      // The brand is saved without them: a lookup by ticker resolves through the reference data instead.
      this.logger.error({ domain: brand.domain, err: error }, 'declared identifiers could not be checked');
      return [];
    }
  }

  /** Renditions are a convenience: when they cannot be made, the record lists the originals alone. */
  private async withRenditions(logos: Logo[], brandId: string): Promise<Logo[]> {
    try {
      return (await this.options.completeLogos?.(logos)) ?? logos;
    } catch (error) {
      this.logger.error({ brandId, err: error }, 'logo renditions failed');
      return logos;
    }
  }
}

/** Union of two `financialIdentifiers` values, first-seen order; null when both are empty. */
export function mergeFinancialIdentifiers(a: FinancialIdentifiers | null, b: FinancialIdentifiers | null): FinancialIdentifiers | null {
  const ticker = [...new Set([...(a?.ticker ?? []), ...(b?.ticker ?? [])])];
  const isin = [...new Set([...(a?.isin ?? []), ...(b?.isin ?? [])])];
  return ticker.length || isin.length ? { isin, ticker } : null;
}
