/** The local asset store's variant area (VariantStore, ADR 0034): kept apart from originals, keys checked. */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalAssetStore } from '../../src/assets/local/local-asset-store.js';
import { variantKey } from '../../src/cdn/variant-cache.js';

let dir: string;
let store: LocalAssetStore;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'brandbase-variants-'));
  store = new LocalAssetStore({ dir });
});

afterEach(async () => rm(dir, { recursive: true, force: true }));

describe('LocalAssetStore as a VariantStore', () => {
  it('stores and reads back a variant; replacing it leaves no temporary file', async () => {
    const key = variantKey(['original.png', 64, 64, 64, 64], 'png');
    expect(await store.getVariant(key)).toBeNull();
    await store.putVariant(key, Buffer.from('first'));
    await store.putVariant(key, Buffer.from('second'));
    expect((await store.getVariant(key))?.toString()).toBe('second');
    expect(await readdir(path.join(dir, 'variants'))).toEqual([key]);
  });

  it('keeps variants apart from originals: a variant key is never served as an asset, nor an asset as a variant', async () => {
    const original = await store.put(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'svg');
    expect(await store.getVariant(original.key)).toBeNull();
    const key = variantKey([original.key, null, null, null, null], 'svg');
    await store.putVariant(key, Buffer.from('variant'));
    expect(await store.get(key)).toBeNull();
  });

  it('refuses malformed keys (no path traversal): reads answer null, writes throw and write nothing', async () => {
    for (const bad of ['../secret.png', 'variants/x.png', `${'a'.repeat(64)}.gif`, '']) {
      expect(await store.getVariant(bad)).toBeNull();
      await expect(store.putVariant(bad, Buffer.from('x'))).rejects.toThrow('malformed variant key');
    }
    expect(await readdir(dir)).toEqual([]);
  });

  it('variant keys change with every part and with the format, and are stable', () => {
    const parts = ['a.png', 32, 32, 32, 32] as const;
    expect(variantKey([...parts], 'png')).toBe(variantKey([...parts], 'png'));
    expect(variantKey([...parts], 'png')).not.toBe(variantKey([...parts], 'webp'));
    expect(variantKey([...parts], 'png')).not.toBe(variantKey(['a.png', 32, 32, 32, 31], 'png'));
    expect(variantKey([...parts], 'png')).not.toBe(variantKey(['b.png', 32, 32, 32, 32], 'png'));
  });
});
