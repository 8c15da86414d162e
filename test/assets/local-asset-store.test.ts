/** The local folder backend: the asset-store contract, plus what only a folder has (its own creation, temp files). */
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalAssetStore, SYNC_WRITE_MAX_BYTES } from '../../src/assets/local/local-asset-store.js';
import { assetStoreContract } from './asset-store.contract.js';

async function listing(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

assetStoreContract('local folder', async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'brandbase-assets-'));
  const dir = path.join(root, 'assets');
  return {
    store: new LocalAssetStore({ dir }),
    twin: () => new LocalAssetStore({ dir }),
    // Everything in the folder but the variants' sub-folder: a leftover temp file would show here.
    originals: async () => (await listing(dir)).filter((name) => name !== 'variants'),
    // In the folder and beside it, where `../name` would lead.
    plant: async (name, bytes) => {
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, name), bytes);
      await writeFile(path.join(root, name), bytes);
    },
    dispose: () => rm(root, { recursive: true, force: true }),
  };
});

describe('LocalAssetStore (folder specifics)', () => {
  let root: string;
  let store: LocalAssetStore;

  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'brandbase-assets-'));
    store = new LocalAssetStore({ dir: path.join(root, 'assets') });
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('recreates its folder when it is removed while the store is in use, and retries a failed mkdir', async () => {
    await store.put(Buffer.from('first'), 'png');
    await rm(path.join(root, 'assets'), { recursive: true });
    const second = await store.put(Buffer.from('second'), 'png');
    expect((await store.get(second.key))?.bytes.toString()).toBe('second');

    // A file where the folder should be: mkdir fails, and is tried again once the path is free.
    const blocked = new LocalAssetStore({ dir: path.join(root, 'blocked') });
    await writeFile(path.join(root, 'blocked'), 'not a folder');
    await expect(blocked.put(Buffer.from('third'), 'png')).rejects.toThrow();
    await rm(path.join(root, 'blocked'));
    const third = await blocked.put(Buffer.from('third'), 'png');
    expect((await blocked.get(third.key))?.bytes.toString()).toBe('third');
  });

  it('writes files over the synchronous-write size the asynchronous way, with the same guarantees', async () => {
    const big = Buffer.alloc(SYNC_WRITE_MAX_BYTES + 1, 7);
    const [a, b] = await Promise.all([store.put(big, 'jpeg'), store.put(big, 'jpeg')]);
    expect(a).toEqual(b);
    expect(await readdir(path.join(root, 'assets'))).toEqual([a.key]);

    await rm(path.join(root, 'assets'), { recursive: true });
    const again = await store.put(Buffer.alloc(SYNC_WRITE_MAX_BYTES * 2, 9), 'png');
    expect((await store.get(again.key))?.bytes.length).toBe(SYNC_WRITE_MAX_BYTES * 2);
    expect(await readdir(path.join(root, 'assets'))).toEqual([again.key]);
  });

  it('never reads outside its folder through a traversal key', async () => {
    await writeFile(path.join(root, 'secret.png'), 'secret');
    for (const key of ['../secret.png', '..%2Fsecret.png', `../${'a'.repeat(64)}.png`]) expect(await store.get(key)).toBeNull();
  });

  it('keeps variants in their own sub-folder and creates nothing for a refused variant key', async () => {
    const key = `${'b'.repeat(64)}.png`;
    await store.putVariant(key, Buffer.from('first'));
    await store.putVariant(key, Buffer.from('second'));
    expect(await readdir(path.join(root, 'assets', 'variants'))).toEqual([key]);

    const fresh = await mkdtemp(path.join(tmpdir(), 'brandbase-variants-'));
    const empty = new LocalAssetStore({ dir: fresh });
    await expect(empty.putVariant('../x.png', Buffer.from('x'))).rejects.toThrow('malformed variant key');
    expect(await readdir(fresh)).toEqual([]);
    await rm(fresh, { recursive: true, force: true });
  });
});
