import { describe, expect, it } from 'vitest';
import type { AssetStore, StoredAsset } from '../../src/assets/asset-store.js';
import { STAGED_URL_PREFIX, StagedAssetStore } from '../../src/assets/staged-asset-store.js';

function memoryStore(): AssetStore & { keys: string[] } {
  const files = new Map<string, Buffer>();
  return {
    keys: [],
    put(bytes, ext): Promise<StoredAsset> {
      const key = `k${files.size}.${ext}`;
      files.set(key, bytes);
      this.keys.push(key);
      return Promise.resolve({ key, url: `https://a.test/assets/${key}`, size: bytes.length });
    },
    get: (key) => Promise.resolve(files.has(key) ? { bytes: files.get(key) ?? Buffer.alloc(0), contentType: 'image/png' } : null),
  };
}

describe('StagedAssetStore', () => {
  it('keeps files in memory until committed, then stores exactly the committed ones', async () => {
    const target = memoryStore();
    const staging = new StagedAssetStore(target);
    const a = await staging.put(Buffer.from('a'), 'png');
    const b = await staging.put(Buffer.from('b'), 'svg');
    expect(a.url.startsWith(STAGED_URL_PREFIX)).toBe(true);
    expect((await staging.get(b.key))?.contentType).toBe('image/svg+xml');
    expect(target.keys).toEqual([]);
    const [entry] = await staging.commitAll([{ formats: [{ src: a.url, format: 'png' as const, width: 1, height: 1, size: 1, background: null }] }]);
    expect(entry?.formats[0]?.src).toBe('https://a.test/assets/k0.png');
    expect(target.keys).toEqual(['k0.png']);
  });

  it('passes through formats that were never staged and reads through to the real store', async () => {
    const target = memoryStore();
    const stored = await target.put(Buffer.from('x'), 'png');
    const staging = new StagedAssetStore(target);
    const format = { src: stored.url, format: 'png' as const, width: 1, height: 1, size: 1, background: null };
    expect(await staging.commit(format)).toBe(format);
    expect((await staging.get(stored.key))?.bytes.toString()).toBe('x');
  });
});
