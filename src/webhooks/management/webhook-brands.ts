/**
 * What webhook management needs of brands: whether a domain's brand is held (and as GET would answer it, for the
 * test event), and queueing the indexing of one that is not (like a HEAD prefetch: spec 6 rule 5 "brands not yet
 * held are queued for indexing").
 */
import type { AssetUrls } from '../../assets/asset-urls.js';
import type { CrawlScheduler } from '../../brands/crawl-scheduler.js';
import { currentQualityScore } from '../../brands/refresh.js';
import type { Brand } from '../../domain/brand.js';
import type { BrandStore } from '../../brands/brand-store.js';

export interface WebhookBrands {
  /** The held brand of a registrable domain, serialized as GET answers it (asset URLs rendered); null when not held. */
  heldBrand(domain: string): Promise<Brand | null>;
  /**
   * Queues a crawl of a domain not held, owned by the organization (its share of the queue); 'full' when refused.
   * `requestId`: the API request that asked, named in the crawl's log lines (`reqId`, ADR 0039).
   */
  queueIndexing(domain: string, orgId: string, requestId?: string): Promise<'queued' | 'full'>;
}

export class StoreWebhookBrands implements WebhookBrands {
  constructor(
    private readonly store: Pick<BrandStore, 'findBrandByIdentifier'>,
    private readonly assetUrls: AssetUrls,
    private readonly scheduler: CrawlScheduler,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async heldBrand(domain: string): Promise<Brand | null> {
    const stored = await this.store.findBrandByIdentifier({ kind: 'domain', value: domain });
    if (!stored || stored.status !== 'indexed') return null;
    // The same rendering as the lookup cache (brand-cache.ts): asset keys as URLs, the quality score as of now.
    return this.assetUrls.renderBrand({ ...stored.brand, qualityScore: currentQualityScore(stored, this.clock()) });
  }

  async queueIndexing(domain: string, orgId: string, requestId?: string): Promise<'queued' | 'full'> {
    return this.scheduler.schedule(domain, orgId, requestId);
  }
}
