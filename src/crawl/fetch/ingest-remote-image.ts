/**
 * Downloads an image through the safe fetcher and hands the bytes to the media ingester, which sniffs, decodes,
 * measures and stores it. Nothing about an image is trusted from HTML attributes or Content-Type.
 */
import type { AssetStore } from '../../assets/asset-store.js';
import type { StagedAssetStore } from '../../assets/staged-asset-store.js';
import { ingestImage, type IngestedImage } from '../../media/ingest-image.js';
import type { Fetcher } from '../../platform/fetcher.js';
import { raceAbort, type CrawlBudget } from '../crawl-budget.js';
import { fetchResource } from './fetch-resource.js';

export interface AssetDeps {
  fetcher: Fetcher;
  assets: AssetStore;
  budget: CrawlBudget;
  /**
   * Images already ingested in this scope, by URL: a hero image is usually also a picture of the page, and
   * fetching and decoding it twice was the slowest step of such crawls. Only share one between callers that use
   * the same asset store (the staged copy lives there).
   */
  ingested?: Map<string, Promise<IngestedImage | null>>;
}

/**
 * What one crawl's image extractors share (crawl-brand.ts makes it): candidates are staged in memory until
 * chosen, and a URL that several of them ask for is fetched and decoded once.
 */
export interface CrawlAssetDeps extends AssetDeps {
  assets: StagedAssetStore;
  ingested: Map<string, Promise<IngestedImage | null>>;
}

/** Spec 2.4: images under 16 px on a side are never stored. */
const MIN_SIDE = 16;

export function ingestRemoteImage(url: string, deps: AssetDeps): Promise<IngestedImage | null> {
  const known = deps.ingested?.get(url);
  if (known) return known;
  const ingesting = downloadAndIngest(url, deps);
  deps.ingested?.set(url, ingesting);
  return ingesting;
}

async function downloadAndIngest(url: string, deps: AssetDeps): Promise<IngestedImage | null> {
  const res = await fetchResource(deps.fetcher, deps.budget, url, {
    maxBytes: deps.budget.limits.images.maxBytes,
    accept: 'image/avif,image/webp,image/svg+xml,image/png,image/*;q=0.8,*/*;q=0.1',
  });
  return res ? ingestBytes(res.body, deps) : null;
}

export async function ingestBytes(bytes: Buffer, deps: AssetDeps): Promise<IngestedImage | null> {
  try {
    const options = { minSide: MIN_SIDE, ...deps.budget.limits.images };
    const result = await raceAbort(ingestImage(bytes, deps.assets, options), deps.budget.signal);
    return result.ok ? result.image : null;
  } catch {
    return null;
  }
}
