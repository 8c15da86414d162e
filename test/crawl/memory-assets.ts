import { createHash } from 'node:crypto';
import type { AssetStore, StoredAsset } from '../../src/media/asset-store.js';

/** An in-memory asset store for crawl tests that do not look at files. */
export class MemoryAssets implements AssetStore {
  readonly files = new Map<string, Buffer>();

  async put(bytes: Buffer, ext: 'svg' | 'png' | 'webp' | 'jpeg'): Promise<StoredAsset> {
    const key = `${createHash('sha256').update(bytes).digest('hex')}.${ext}`;
    this.files.set(key, bytes);
    return { key, url: `https://assets.test/assets/${key}`, size: bytes.length };
  }

  async get(key: string): Promise<{ bytes: Buffer; contentType: string } | null> {
    const bytes = this.files.get(key);
    return bytes ? { bytes, contentType: 'application/octet-stream' } : null;
  }
}
