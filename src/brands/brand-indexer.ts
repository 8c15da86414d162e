import type { Brand, Logo } from '../domain/brand.js';
import type { CrawlFailureReason } from '../domain/crawl-failures.js';
import { brandIdForDomain, brandUrn } from '../domain/ids.js';
import type { Logger } from '../platform/logger.js';
import type { BrandStore, IdentifierRef, StoredBrand } from '../store/store.js';
import type { CrawlOutcome } from '../crawl/crawl-brand.js';
import { mergeRecrawledLogos } from '../crawl/fields/logos/logo-history.js';
import { keepCuratedFields } from './curated-fields.js';

/** Crawls a registrable domain; `owner` (an organization id, null for the operator's own work) takes fair turns. */
export type Crawl = (domain: string, owner?: string | null) => Promise<CrawlOutcome>;

export type IndexOutcome = { ok: true; stored: StoredBrand } | { ok: false; reason: CrawlFailureReason; message: string };

export interface IndexerOptions {
  now?: () => Date;
  /** Called after each save, e.g. to put the record in the brand cache. */
  onSaved?: (stored: StoredBrand, domains: string[]) => void;
  /**
   * The logos with the renditions they lack (media/logo-renditions.ts), or null when none lacks any. Runs after
   * the previous record's renditions were carried over, so only new files are encoded (ADR 0008).
   */
  completeLogos?: (logos: readonly Logo[]) => Promise<Logo[] | null>;
}

/**
 * Turns a crawl of a registrable domain into a stored brand. Concurrent requests for the same domain share one
 * crawl (single flight): two lookups of an unindexed domain start one crawl, and both get its result.
 */
export class BrandIndexer {
  private readonly inFlight = new Map<string, Promise<IndexOutcome>>();
  /**
   * Domains whose last crawls failed: until when the failure is answered without crawling again, and how many
   * failures in a row (`strikes`). Kept past `until` (the strikes count) until a crawl succeeds; bounded.
   */
  private readonly failures = new Map<string, { until: number; outcome: IndexOutcome; strikes: number }>();
  /** How long a failed crawl is remembered: repeated lookups of a dead or hostile site must not crawl it each time. */
  failureTtlMs = 10 * 60_000;
  /** A domain that keeps failing (timing out) is backed off: each failure in a row doubles the memory, up to this. */
  failureTtlMaxMs = 6 * 3_600_000;

  private readonly now: () => Date;

  constructor(
    private readonly store: BrandStore,
    private readonly crawl: Crawl,
    private readonly logger: Logger,
    private readonly options: IndexerOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
  }

  /**
   * `retry`: a queued job retrying on purpose, so a remembered failure must not short-circuit it. `owner`: who the
   * crawl is for, so crawls wait for a crawl worker in fair turns between organizations (ADR 0015).
   */
  index(domain: string, options: { retry?: boolean; owner?: string | null } = {}): Promise<IndexOutcome> {
    const failed = options.retry ? null : this.recentFailure(domain);
    if (failed) return Promise.resolve(failed);
    const running = this.inFlight.get(domain);
    if (running) return running;
    const started = this.run(domain, options.owner ?? null).finally(() => this.inFlight.delete(domain));
    this.inFlight.set(domain, started);
    return started;
  }

  /** The outcome of a crawl of `domain` that failed within `failureTtlMs`, or null. */
  recentFailure(domain: string): IndexOutcome | null {
    const entry = this.failures.get(domain);
    return entry && entry.until > this.now().getTime() ? entry.outcome : null;
  }

  /** Number of crawls running in this process. */
  get running(): number {
    return this.inFlight.size;
  }

  private async run(domain: string, owner: string | null): Promise<IndexOutcome> {
    const startedAt = Date.now();
    let outcome: CrawlOutcome;
    try {
      outcome = await this.crawl(domain, owner);
    } catch (error) {
      this.logger.error({ domain, err: error }, 'crawl crashed');
      return { ok: false, reason: 'crawl_error', message: 'The brand website could not be indexed.' };
    }
    if (!outcome.ok) {
      this.logger.info({ domain, reason: outcome.reason, ms: Date.now() - startedAt }, 'crawl failed');
      return this.remember(domain, { ok: false, reason: outcome.reason, message: outcome.message });
    }
    const stored = await this.save(domain, outcome.domain, outcome.draft);
    this.failures.delete(domain);
    this.logger.info({ domain, brandId: stored.brand.id, finalDomain: outcome.domain, ms: Date.now() - startedAt }, 'brand indexed');
    return { ok: true, stored };
  }

  private remember(domain: string, outcome: IndexOutcome): IndexOutcome {
    if (this.failures.size > 10_000) this.failures.clear();
    const strikes = (this.failures.get(domain)?.strikes ?? 0) + 1;
    const ttl = Math.min(this.failureTtlMaxMs, this.failureTtlMs * 2 ** Math.min(strikes - 1, 30));
    this.failures.set(domain, { until: this.now().getTime() + ttl, outcome, strikes });
    return outcome;
  }

  private async save(requested: string, finalDomain: string, draft: Omit<Brand, 'id' | 'urn' | 'palette'>): Promise<StoredBrand> {
    const existing =
      (await this.store.findBrandByIdentifier({ kind: 'domain', value: finalDomain })) ??
      (await this.store.findBrandByIdentifier({ kind: 'domain', value: requested }));
    const id = existing?.brand.id ?? brandIdForDomain(finalDomain);
    const now = this.now();
    const crawled: Brand = { ...draft, id, domain: finalDomain, urn: brandUrn(id) };
    // A re-crawl keeps what people set (claimed, curated industries) and lists retired logos as `other`.
    const merged = existing ? { ...keepCuratedFields(existing.brand, crawled, now), logos: mergeRecrawledLogos(existing.brand.logos, crawled.logos) } : crawled;
    const brand = { ...merged, logos: await this.withRenditions(merged.logos, id) };
    const stored: StoredBrand = { brand, status: 'indexed', crawledAt: now, createdAt: existing?.createdAt ?? now, updatedAt: now };
    const domains = [...new Set([finalDomain, requested])];
    const identifiers: IdentifierRef[] = domains.map((value) => ({ kind: 'domain', value }));
    await this.store.saveBrand(stored, identifiers);
    this.options.onSaved?.(stored, domains);
    return stored;
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
