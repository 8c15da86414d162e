/**
 * Where logo and image files live. The embedded default is a folder under the data dir served by the API
 * (`local-asset-store.ts`); a bucket-backed store can implement the same port later.
 */

export interface StoredAsset {
  /** Content-addressed key: `<sha256 hex>.<ext>`. Storing the same bytes twice yields the same key. */
  key: string;
  /** Public URL under BRANDBASE_PUBLIC_URL, e.g. `http://localhost:8787/assets/<key>`. */
  url: string;
  size: number;
}

export interface AssetStore {
  put(bytes: Buffer, ext: 'svg' | 'png' | 'webp' | 'jpeg'): Promise<StoredAsset>;
  /** Returns null when the key is unknown or malformed (keys are validated; no path traversal). */
  get(key: string): Promise<{ bytes: Buffer; contentType: string } | null>;
}
