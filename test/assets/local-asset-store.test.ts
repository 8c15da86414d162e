import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { siGithub } from 'simple-icons';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalAssetStore, SYNC_WRITE_MAX_BYTES } from '../../src/assets/local/local-asset-store.js';

describe('LocalAssetStore', () => {
  let root: string;
  let store: LocalAssetStore;

  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'brandbase-assets-'));
    store = new LocalAssetStore({ dir: path.join(root, 'assets') });
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('stores content-addressed files and reads them back with their content type', async () => {
    const bytes = Buffer.from(siGithub.svg);
    const sha = createHash('sha256').update(bytes).digest('hex');
    const stored = await store.put(bytes, 'svg');
    expect(stored).toEqual({ key: `${sha}.svg`, size: bytes.length });
    const read = await store.get(stored.key);
    expect(read?.contentType).toBe('image/svg+xml');
    expect(read?.bytes.equals(bytes)).toBe(true);
  });

  it('is idempotent and leaves no temp files behind', async () => {
    const bytes = Buffer.from('fake png bytes');
    const [a, b] = await Promise.all([store.put(bytes, 'png'), store.put(bytes, 'png')]);
    expect(a.key).toBe(b.key);
    expect(await readdir(path.join(root, 'assets'))).toEqual([a.key]);
    expect((await store.get(a.key))?.contentType).toBe('image/png');
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
    expect(a.size).toBe(big.length);
    expect(await readdir(path.join(root, 'assets'))).toEqual([a.key]);
    expect((await store.get(a.key))?.bytes.equals(big)).toBe(true);

    await rm(path.join(root, 'assets'), { recursive: true });
    const again = await store.put(Buffer.alloc(SYNC_WRITE_MAX_BYTES * 2, 9), 'png');
    expect((await store.get(again.key))?.bytes.length).toBe(SYNC_WRITE_MAX_BYTES * 2);
    expect(await readdir(path.join(root, 'assets'))).toEqual([again.key]);
  });

  it('returns null for unknown keys', async () => {
    expect(await store.get(`${'0'.repeat(64)}.png`)).toBeNull();
  });

  it('rejects malformed and traversal keys without touching the disk outside', async () => {
    await writeFile(path.join(root, 'secret.png'), 'secret');
    for (const key of ['../etc/passwd', '../secret.png', '..%2Fsecret.png', `${'a'.repeat(64)}.exe`, `${'A'.repeat(64)}.png`, `/${'a'.repeat(64)}.png`, '']) {
      expect(await store.get(key)).toBeNull();
    }
  });
});
