import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AssetStore, StoredAsset } from '../../src/assets/asset-store.js';
import { StagedAssetStore } from '../../src/assets/staged-asset-store.js';

function memoryStore(): AssetStore & { keys: string[] } {
  const files = new Map<string, Buffer>();
  return {
    keys: [],
    put(bytes, ext): Promise<StoredAsset> {
      const key = `${createHash('sha256').update(bytes).digest('hex')}.${ext}`;
      files.set(key, bytes);
      this.keys.push(key);
      return Promise.resolve({ key, size: bytes.length });
    },
    get: (key) => Promise.resolve(files.has(key) ? { bytes: files.get(key) ?? Buffer.alloc(0), contentType: 'image/png' } : null),
  };
}

const formatOf = (src: string) => ({ src, format: 'png' as const, width: 1, height: 1, size: 1, background: null });

describe('StagedAssetStore', () => {
  it('keeps files in memory until committed, then stores exactly the committed ones under the same key', async () => {
    const target = memoryStore();
    const staging = new StagedAssetStore(target);
    const a = await staging.put(Buffer.from('a'), 'png');
    const b = await staging.put(Buffer.from('b'), 'svg');
    expect(a.key).toBe(`${createHash('sha256').update('a').digest('hex')}.png`);
    expect((await staging.get(b.key))?.contentType).toBe('image/svg+xml');
    expect(target.keys).toEqual([]);
    const [entry] = await staging.commitAll([{ formats: [formatOf(a.key)] }]);
    expect(entry?.formats[0]?.src).toBe(a.key);
    expect(target.keys).toEqual([a.key]);
    expect((await target.get(a.key))?.bytes.toString()).toBe('a');
  });

  it('passes through formats that were never staged and reads through to the real store', async () => {
    const target = memoryStore();
    const stored = await target.put(Buffer.from('x'), 'png');
    const staging = new StagedAssetStore(target);
    const format = formatOf(stored.key);
    expect(await staging.commit(format)).toBe(format);
    expect(target.keys).toEqual([stored.key]);
    expect((await staging.get(stored.key))?.bytes.toString()).toBe('x');
  });
});
