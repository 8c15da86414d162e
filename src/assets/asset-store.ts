/**
 * Where logo and image files live. The embedded default is a folder under the data dir served by the API
 * (`local-asset-store.ts`); a fleet shares an S3-compatible bucket (`s3/s3-asset-store.ts`, ADR 0038).
 *
 * A store knows keys, never URLs: brand records hold the key of each file, and every `src` a user sees is
 * rendered from the configured base URL when the record is served (`asset-urls.ts`, ADR 0011).
 */

/** The shape of every key: the only path component ever built from outside input, so it rules out traversal. */
export const ASSET_KEY_PATTERN = /^[0-9a-f]{64}\.(svg|png|webp|jpeg)$/;

export interface StoredAsset {
  /** Content-addressed key: `<sha256 hex>.<ext>`. Storing the same bytes twice yields the same key. */
  key: string;
  size: number;
}

export interface AssetStore {
  put(bytes: Buffer, ext: 'svg' | 'png' | 'webp' | 'jpeg'): Promise<StoredAsset>;
  /** Returns null when the key is unknown or malformed (keys are validated; no path traversal). */
  get(key: string): Promise<{ bytes: Buffer; contentType: string } | null>;
}

/**
 * Files derived from stored originals (the logo CDN's resized variants, ADR 0034), under keys the caller computes
 * from what the file is made of (`<sha256 hex>.<ext>` of the original's key and the variant's parameters, not of
 * the bytes). Kept apart from the content-addressed assets, so a variant key can never shadow an original. A
 * bucket backend implements it beside `AssetStore`, so a fleet of CDN processes renders each variant once.
 */
export interface VariantStore {
  /** Null when no variant is stored under the key, or the key is malformed. */
  getVariant(key: string): Promise<Buffer | null>;
  /** Stores (or replaces) the variant; readers never see a half-written file. */
  putVariant(key: string, bytes: Buffer): Promise<void>;
  /** Removes the variant (evicted past the byte budget, issue 33); nothing when none is stored. */
  deleteVariant(key: string): Promise<void>;
  /**
   * The stored variants, least recently written first, with their sizes: the CDN's byte budget counts them at
   * start. Optional: a backend without it (the bucket) starts counting from what the process writes and reads.
   */
  listVariants?(): Promise<{ key: string; size: number }[]>;
}
