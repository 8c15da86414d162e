import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AssetStore, StoredAsset } from './asset-store.js';

export type AssetExt = 'svg' | 'png' | 'webp' | 'jpeg';

export interface LocalAssetStoreOptions {
  /** Folder holding the files, created on first write. */
  dir: string;
  /** Base URL the API serves `/assets/<key>` under, e.g. `http://localhost:8787`. */
  publicUrl: string;
}

/** Keys are the only path component ever built from outside input; this shape rules out traversal. */
const KEY_PATTERN = /^[0-9a-f]{64}\.(svg|png|webp|jpeg)$/;

const CONTENT_TYPES: Record<AssetExt, string> = {
  svg: 'image/svg+xml',
  png: 'image/png',
  webp: 'image/webp',
  jpeg: 'image/jpeg',
};

/** The embedded asset store: content-addressed files in one folder, served by the API. */
export class LocalAssetStore implements AssetStore {
  private readonly dir: string;
  private readonly publicUrl: string;
  /** The folder is created once per store, not before every write (each mkdir is a trip to libuv's pool). */
  private folderCreated: Promise<unknown> | null = null;

  constructor(options: LocalAssetStoreOptions) {
    this.dir = path.resolve(options.dir);
    this.publicUrl = options.publicUrl.replace(/\/+$/, '');
  }

  async put(bytes: Buffer, ext: AssetExt): Promise<StoredAsset> {
    if (!Object.hasOwn(CONTENT_TYPES, ext)) throw new Error(`unsupported asset extension: ${String(ext)}`);
    const key = `${createHash('sha256').update(bytes).digest('hex')}.${ext}`;
    const file = path.join(this.dir, key);
    // Same key means same bytes, so an existing file is already the right content.
    if (!(await isFile(file))) await this.writeAtomically(file, bytes);
    return { key, url: `${this.publicUrl}/assets/${key}`, size: bytes.length };
  }

  async get(key: string): Promise<{ bytes: Buffer; contentType: string } | null> {
    const match = KEY_PATTERN.exec(key);
    if (!match) return null;
    try {
      const bytes = await readFile(path.join(this.dir, key));
      return { bytes, contentType: CONTENT_TYPES[match[1] as AssetExt] };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  /** Readers never see a half-written file: write a unique temp name in the same folder, then rename over. */
  private async writeAtomically(file: string, bytes: Buffer): Promise<void> {
    const temp = `${file}.${randomUUID()}.tmp`;
    try {
      await this.writeInFolder(temp, bytes);
      await rename(temp, file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  /** Writes `temp`, creating the folder first if needed, and again if it was removed while the store ran. */
  private async writeInFolder(temp: string, bytes: Buffer): Promise<void> {
    await this.ensureFolder();
    try {
      await writeFile(temp, bytes);
    } catch (error) {
      if ((error as NodeJS.ErrnoException | null)?.code !== 'ENOENT') throw error;
      this.folderCreated = null;
      await this.ensureFolder();
      await writeFile(temp, bytes);
    }
  }

  private ensureFolder(): Promise<unknown> {
    // A failed mkdir (permissions, full disk) is not remembered: the next write tries again.
    this.folderCreated ??= mkdir(this.dir, { recursive: true }).catch((error: unknown) => {
      this.folderCreated = null;
      throw error;
    });
    return this.folderCreated;
  }
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR';
}
