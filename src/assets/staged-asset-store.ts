/**
 * An asset store in front of the real one that keeps files in memory until they are chosen. The crawler must
 * decode every candidate (an icon's real size, a logo's pixels) to judge it, but only the few it lists belong
 * in the store: without staging, every rejected favicon size and runner-up picture would stay on disk forever.
 *
 * Staged files already have their final key (content-addressed), so a Format made from one holds that key as
 * its `src` from the start; `commit` writes the file behind it to the real store. (Before records held keys, a
 * staged file had a `staged:` URL that commit replaced; the crawl tests now check that every listed key is in the
 * real store.)
 */
import { createHash } from 'node:crypto';
import type { Format } from '../domain/brand.js';
import type { AssetStore, StoredAsset } from './asset-store.js';

type Ext = Parameters<AssetStore['put']>[1];

const CONTENT_TYPES: Record<Ext, string> = { svg: 'image/svg+xml', png: 'image/png', webp: 'image/webp', jpeg: 'image/jpeg' };

export class StagedAssetStore implements AssetStore {
  private readonly staged = new Map<string, { bytes: Buffer; ext: Ext }>();

  constructor(private readonly target: AssetStore) {}

  put(bytes: Buffer, ext: Ext): Promise<StoredAsset> {
    const key = `${createHash('sha256').update(bytes).digest('hex')}.${ext}`;
    this.staged.set(key, { bytes, ext });
    return Promise.resolve({ key, size: bytes.length });
  }

  async get(key: string): Promise<{ bytes: Buffer; contentType: string } | null> {
    const file = this.staged.get(key);
    return file ? { bytes: file.bytes, contentType: CONTENT_TYPES[file.ext] } : this.target.get(key);
  }

  /** Stores the staged file behind `format` in the real store; formats that are not staged pass through. */
  async commit(format: Format): Promise<Format> {
    const file = this.staged.get(format.src);
    if (!file) return format;
    const stored = await this.target.put(file.bytes, file.ext);
    return { ...format, src: stored.key, size: stored.size };
  }

  /** Commits every format of each entry (logos, banners, pictures). */
  async commitAll<T extends { formats: Format[] }>(entries: T[]): Promise<T[]> {
    return Promise.all(entries.map(async (entry) => ({ ...entry, formats: await Promise.all(entry.formats.map((f) => this.commit(f))) })));
  }
}
