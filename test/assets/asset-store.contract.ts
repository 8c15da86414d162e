/**
 * The asset-store contract (AssetStore and VariantStore, src/assets/asset-store.ts), run on every backend: the local
 * folder (local-asset-store.test.ts) and an S3-compatible server reached with the real AWS SDK over HTTP
 * (s3-asset-store.test.ts). Records keep keys, so both backends must answer the same keys the same way (ADR 0038).
 */
import { createHash, randomBytes } from 'node:crypto';
import { siGithub } from 'simple-icons';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AssetStore, VariantStore } from '../../src/assets/asset-store.js';
import { variantKey } from '../../src/cdn/variant-cache.js';

type Store = AssetStore & VariantStore;

export interface AssetStoreUnderTest {
  store: Store;
  /** A second store over the same files (another process of a fleet). */
  twin(): Store;
  /** The names of the originals the backend holds, read from the backend itself (folder listing, bucket listing). */
  originals(): Promise<string[]>;
  /** Writes a file/object under a raw name in the store's area, bypassing the store (what a key must not reach). */
  plant(name: string, bytes: Buffer): Promise<void>;
  dispose(): Promise<void>;
}

const sha = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

export function assetStoreContract(backend: string, open: () => Promise<AssetStoreUnderTest>): void {
  describe(`asset store contract: ${backend}`, () => {
    let subject: AssetStoreUnderTest;
    let store: Store;

    beforeEach(async () => {
      subject = await open();
      store = subject.store;
    });
    afterEach(async () => subject.dispose());

    it('stores content-addressed files and reads them back with their content type', async () => {
      const bytes = Buffer.from(siGithub.svg);
      const stored = await store.put(bytes, 'svg');
      expect(stored).toEqual({ key: `${sha(bytes)}.svg`, size: bytes.length });
      const read = await store.get(stored.key);
      expect(read?.contentType).toBe('image/svg+xml');
      expect(read?.bytes.equals(bytes)).toBe(true);
      expect(await subject.originals()).toEqual([stored.key]);
    });

    it('answers the content type of each kind of file from its key', async () => {
      const types = { svg: 'image/svg+xml', png: 'image/png', webp: 'image/webp', jpeg: 'image/jpeg' } as const;
      for (const [ext, type] of Object.entries(types) as [keyof typeof types, string][]) {
        const stored = await store.put(Buffer.from(`bytes of a ${ext}`), ext);
        expect(stored.key).toMatch(new RegExp(`^[0-9a-f]{64}\\.${ext}$`));
        expect((await store.get(stored.key))?.contentType).toBe(type);
      }
      await expect(store.put(Buffer.from('x'), 'gif' as 'png')).rejects.toThrow('unsupported asset extension');
      expect(await subject.originals()).toHaveLength(4);
    });

    it('gives the same key for the same bytes and stores them once; other bytes or another kind get another key', async () => {
      const bytes = Buffer.from('fake png bytes');
      const first = await store.put(bytes, 'png');
      const again = await store.put(Buffer.from(bytes), 'png');
      expect(again).toEqual(first);
      const other = await store.put(Buffer.from('other png bytes'), 'png');
      const asWebp = await store.put(bytes, 'webp');
      expect(new Set([first.key, other.key, asWebp.key]).size).toBe(3);
      expect((await subject.originals()).sort()).toEqual([first.key, other.key, asWebp.key].sort());
      expect((await store.get(first.key))?.bytes.toString()).toBe('fake png bytes');
    });

    it('stores one file when the same bytes are put concurrently, by one store and by another process', async () => {
      const bytes = randomBytes(64 * 1024);
      const twin = subject.twin();
      const puts = await Promise.all([...Array(6).keys()].map((i) => (i % 2 === 0 ? store : twin).put(bytes, 'png')));
      expect(new Set(puts.map((p) => p.key))).toEqual(new Set([`${sha(bytes)}.png`]));
      expect(await subject.originals()).toEqual([puts[0]?.key]);
      expect((await twin.get(`${sha(bytes)}.png`))?.bytes.equals(bytes)).toBe(true);
    });

    it('stores and reads back a large file whole', async () => {
      const big = randomBytes(6 * 1024 * 1024 + 123);
      const stored = await store.put(big, 'jpeg');
      expect(stored.size).toBe(big.length);
      const read = await store.get(stored.key);
      expect(read?.bytes.length).toBe(big.length);
      expect(read?.bytes.equals(big)).toBe(true);
    });

    it('answers null for an unknown key', async () => {
      expect(await store.get(`${'0'.repeat(64)}.png`)).toBeNull();
      expect(await store.getVariant(`${'0'.repeat(64)}.png`)).toBeNull();
    });

    it('answers null for malformed and traversal keys, even when something exists under that name', async () => {
      await subject.plant('notes.png', Buffer.from('not an asset'));
      await subject.plant(`${'A'.repeat(64)}.png`, Buffer.from('upper-case name'));
      const bad = ['notes.png', '../notes.png', '..%2Fnotes.png', `${'a'.repeat(64)}.exe`, `${'A'.repeat(64)}.png`, `/${'a'.repeat(64)}.png`, `variants/${'a'.repeat(64)}.png`, ''];
      for (const key of bad) {
        expect(await store.get(key)).toBeNull();
        expect(await store.getVariant(key)).toBeNull();
      }
    });

    it('stores, replaces and reads back a variant', async () => {
      const key = variantKey(['original.png', 64, 64, 64, 64], 'png');
      expect(await store.getVariant(key)).toBeNull();
      await store.putVariant(key, Buffer.from('first'));
      expect((await store.getVariant(key))?.toString()).toBe('first');
      await store.putVariant(key, Buffer.from('second'));
      expect((await subject.twin().getVariant(key))?.toString()).toBe('second');
    });

    it('keeps variants apart from originals: a variant key is never served as an asset, nor an asset as a variant', async () => {
      const original = await store.put(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'svg');
      expect(await store.getVariant(original.key)).toBeNull();
      // A variant stored under the very key of an original shadows nothing.
      await store.putVariant(original.key, Buffer.from('a variant'));
      expect((await store.get(original.key))?.bytes.toString()).toBe('<svg xmlns="http://www.w3.org/2000/svg"/>');
      const key = variantKey([original.key, null, null, null, null], 'svg');
      await store.putVariant(key, Buffer.from('variant'));
      expect(await store.get(key)).toBeNull();
      expect(await subject.originals()).toEqual([original.key]);
    });

    it('refuses malformed variant keys: writes throw and store nothing', async () => {
      for (const bad of ['../secret.png', 'variants/x.png', `${'a'.repeat(64)}.gif`, '']) {
        await expect(store.putVariant(bad, Buffer.from('x'))).rejects.toThrow('malformed variant key');
      }
      expect(await subject.originals()).toEqual([]);
    });
  });
}
