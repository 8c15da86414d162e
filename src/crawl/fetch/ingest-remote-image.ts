/**
 * Downloads an image through the safe fetcher and hands the bytes to the media ingester, which sniffs, decodes,
 * measures and stores it. Nothing about an image is trusted from HTML attributes or Content-Type.
 */
import type { AssetStore } from '../../assets/asset-store.js';
import type { StagedAssetStore } from '../../assets/staged-asset-store.js';
import { ingestImage, type IngestedImage } from '../../media/ingest-image.js';
import type { Fetcher } from '../../platform/fetcher.js';
import { contentHash, type AnalysisMemo } from '../analysis-memo.js';
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
  /** The crawl's content-hash cache (analysis-memo.ts): unchanged bytes are not analysed again. */
  analyses?: AnalysisMemo;
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
    const memo = deps.analyses;
    const sha256 = memo ? contentHash(bytes) : '';
    const reused = memo ? await reuseIngest(bytes, sha256, memo, deps.assets) : null;
    if (reused) return noted(reused, memo);
    const options = { minSide: MIN_SIDE, ...deps.budget.limits.images };
    const result = await raceAbort(ingestImage(bytes, deps.assets, options), deps.budget.signal);
    if (!result.ok) return null;
    if (memo) await remember(memo, sha256, result.image, deps.assets);
    return noted(result.image, memo);
  } catch {
    return null;
  }
}

function noted(image: IngestedImage, memo: AnalysisMemo | undefined): IngestedImage {
  memo?.noteMark(image);
  return image;
}

async function remember(memo: AnalysisMemo, sha256: string, image: IngestedImage, assets: AssetStore): Promise<void> {
  memo.rememberIngest(sha256, image);
  // Converted or sanitized input: its stored bytes are kept too, in case this crawl does not list (write) the file.
  if (image.sha256 !== sha256) {
    const stored = await assets.get(image.assetKey);
    if (stored) memo.rememberStored(sha256, stored.bytes);
  }
}

/**
 * The cached analysis of these bytes, with the stored file put in the crawl's store again (staged until chosen).
 * The stored file is the input itself (PNG, JPEG, WebP) or, for converted or sanitized input, read back from the
 * store; when it is gone the bytes are analysed again.
 */
async function reuseIngest(bytes: Buffer, sha256: string, memo: AnalysisMemo, assets: AssetStore): Promise<IngestedImage | null> {
  const cached = memo.cachedIngest(sha256);
  if (!cached) return null;
  const ext = cached.original.format;
  const kept = cached.sha256 === sha256 ? undefined : memo.cachedStored(sha256);
  const stored = cached.sha256 === sha256 ? bytes : ((await assets.get(cached.assetKey))?.bytes ?? kept);
  if (!stored) return null;
  const asset = await assets.put(stored, ext);
  if (asset.key !== cached.assetKey) return null;
  memo.reusedIngest(sha256, cached);
  return cached;
}
