/**
 * The context's lazy rule (ADR 0035), the palette's (ADR 0023): a brand's context profile is built on the first
 * request that asks for it, from the context evidence its last crawl kept (no new fetch), stored, and read by later
 * requests. A crawl that replaces the evidence drops the old profile (ContextStore). Concurrent requests for one
 * brand in one process share one build. Meta and links are added to the stored profile on every answer, so the
 * answer follows the record (its name, logos and colours) and the configured asset URLs.
 */
import { CONTEXT_EVIDENCE_VERSION, type BrandContext, type ContextLogo, type ContextProfile } from '../domain/brand-context.js';
import type { Logo } from '../domain/brand.js';
import type { Logger } from '../platform/logger.js';
import type { CachedBrand } from '../brands/brand-cache.js';
import type { ContextStore, StoredContext } from './context-store.js';
import { buildContextProfile } from './build-context.js';

/** What the use case asks for a context (the port it sees). */
export interface BrandContexts {
  /** The brand's context, or null when no usable evidence is held (never crawled since contexts exist). */
  contextOf(brand: CachedBrand): Promise<BrandContext | null>;
}

export interface ContextServiceOptions {
  /** BRANDBASE_PUBLIC_URL: the brand record link of each answer. */
  publicUrl: string;
  logger?: Logger;
  now?: () => number;
}

export class ContextService implements BrandContexts {
  private readonly building = new Map<string, Promise<StoredContext>>();
  private readonly now: () => number;

  constructor(
    private readonly store: Pick<ContextStore, 'getStoredContext' | 'saveContextProfile'>,
    private readonly options: ContextServiceOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  async contextOf(brand: CachedBrand): Promise<BrandContext | null> {
    const kept = await this.store.getStoredContext(brand.stored.brand.id);
    if (!kept || kept.evidence.version !== CONTEXT_EVIDENCE_VERSION) return null;
    const built = kept.profile && kept.builtAt ? kept : await this.buildOnce(brand, kept);
    return this.answer(brand, built);
  }

  /** Resolves when no build is running in this process (tests). */
  async idle(): Promise<void> {
    while (this.building.size > 0) await Promise.allSettled([...this.building.values()]);
  }

  private buildOnce(brand: CachedBrand, kept: StoredContext): Promise<StoredContext> {
    const key = `${kept.brandId}@${kept.observedAt.getTime()}`;
    let running = this.building.get(key);
    if (!running) {
      running = this.build(brand, kept).finally(() => this.building.delete(key));
      this.building.set(key, running);
    }
    return running;
  }

  private async build(brand: CachedBrand, kept: StoredContext): Promise<StoredContext> {
    const profile = buildContextProfile(kept.evidence, brand.stored.brand.name);
    const builtAt = new Date(this.now());
    // False when a re-crawl replaced the evidence meanwhile: this answer still matches the evidence it was built from.
    const saved = await this.store.saveContextProfile(kept.brandId, profile, kept.observedAt, builtAt);
    if (!saved) this.options.logger?.info({ brandId: kept.brandId }, 'context evidence replaced during build');
    return { ...kept, profile, builtAt };
  }

  private answer(brand: CachedBrand, built: StoredContext): BrandContext {
    const record = brand.stored.brand;
    const profile = built.profile as ContextProfile;
    return {
      meta: {
        domain: record.domain,
        canonical_name: record.name,
        resolved_at: (built.builtAt ?? new Date(this.now())).toISOString(),
        observed_at: built.observedAt.toISOString(),
        sources: profile.sources,
      },
      identity: profile.identity,
      positioning: profile.positioning,
      brand: profile.brand,
      links: {
        brand: `${this.options.publicUrl}/v2/brands/domain/${encodeURIComponent(record.domain)}`,
        logos: logoLinks(brand.json),
        colors: record.colors.map((c) => ({ hex: c.hex, type: c.type })),
      },
    };
  }
}

/** Every logo file of the answered record, with the URL the record answers (asset URLs rendered, ADR 0011). */
function logoLinks(json: string): ContextLogo[] {
  const { logos } = JSON.parse(json) as { logos: Logo[] };
  return logos.flatMap((logo) => logo.formats.map((f) => ({ type: logo.type, theme: logo.theme ?? null, format: f.format, url: f.src })));
}
