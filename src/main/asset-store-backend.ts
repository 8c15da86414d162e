import type { AssetStore, VariantStore } from '../assets/asset-store.js';
import { LocalAssetStore } from '../assets/local/local-asset-store.js';
import { S3AssetStore } from '../assets/s3/s3-asset-store.js';
import type { Config } from '../config/config.js';

export type AssetBackend = AssetStore & VariantStore & { close?(): void };

/**
 * The asset store the configuration names (ADR 0038): the local folder `dir` (the embedded default) or the S3
 * bucket. The API process and its crawl workers each open one over the same settings, so crawls write where the
 * API's `/assets/{key}` route and the logo CDN read.
 */
export function openAssetStore(config: Readonly<Pick<Config, 'assetStore'>>, dir: string): AssetBackend {
  const s3 = config.assetStore.s3;
  if (config.assetStore.backend === 's3' && s3 !== null) return new S3AssetStore(s3);
  return new LocalAssetStore({ dir });
}
