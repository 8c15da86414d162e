import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ASSET_KEY_PATTERN, type AssetStore, type StoredAsset, type VariantStore } from '../asset-store.js';

export type AssetExt = 'svg' | 'png' | 'webp' | 'jpeg';

export interface LocalAssetStoreOptions {
  /** Folder holding the files, created on first write. */
  dir: string;
}

/**
 * Files up to this size are written with synchronous calls: a logo or favicon is a few KB, which the kernel
 * copies into the page cache in microseconds, while the asynchronous path (stat, open, write, close, rename:
 * five trips through libuv's thread pool) took about a quarter of a crawl's extraction time (ADR 0009). Larger
 * files (photos) go the asynchronous way, so the event loop never stalls on a big copy.
 */
export const SYNC_WRITE_MAX_BYTES = 256 * 1024;

/** Sub-folder of the CDN's variants (VariantStore); never a valid asset key, so `get` cannot reach into it. */
const VARIANTS_FOLDER = 'variants';

const CONTENT_TYPES: Record<AssetExt, string> = {
  svg: 'image/svg+xml',
  png: 'image/png',
  webp: 'image/webp',
  jpeg: 'image/jpeg',
};

/** The embedded asset store: content-addressed files in one folder, served by the API at `/assets/<key>`. */
export class LocalAssetStore implements AssetStore, VariantStore {
  private readonly dir: string;
  /** The folder is created once per store, not before every write (each mkdir is a trip to libuv's pool). */
  private folderCreated: Promise<unknown> | null = null;

  constructor(options: LocalAssetStoreOptions) {
    this.dir = path.resolve(options.dir);
  }

  async put(bytes: Buffer, ext: AssetExt): Promise<StoredAsset> {
    if (!Object.hasOwn(CONTENT_TYPES, ext)) throw new Error(`unsupported asset extension: ${String(ext)}`);
    const key = `${createHash('sha256').update(bytes).digest('hex')}.${ext}`;
    const file = path.join(this.dir, key);
    // Same key means same bytes, so an existing file is already the right content.
    if (bytes.length <= SYNC_WRITE_MAX_BYTES) {
      if (!isFileSync(file)) this.writeAtomicallySync(file, bytes);
    } else if (!(await isFile(file))) {
      await this.writeAtomically(file, bytes);
    }
    return { key, size: bytes.length };
  }

  async get(key: string): Promise<{ bytes: Buffer; contentType: string } | null> {
    const match = ASSET_KEY_PATTERN.exec(key);
    if (!match) return null;
    try {
      const bytes = await readFile(path.join(this.dir, key));
      return { bytes, contentType: CONTENT_TYPES[match[1] as AssetExt] };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  /** Variants (ADR 0034) live in `variants/` under the asset folder: their keys are not content hashes. */
  async getVariant(key: string): Promise<Buffer | null> {
    if (!ASSET_KEY_PATTERN.test(key)) return null;
    try {
      return await readFile(path.join(this.dir, VARIANTS_FOLDER, key));
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async putVariant(key: string, bytes: Buffer): Promise<void> {
    if (!ASSET_KEY_PATTERN.test(key)) throw new Error('malformed variant key');
    const folder = path.join(this.dir, VARIANTS_FOLDER);
    const file = path.join(folder, key);
    const temp = `${file}.${randomUUID()}.tmp`;
    try {
      await mkdir(folder, { recursive: true });
      await writeFile(temp, bytes);
      await rename(temp, file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async deleteVariant(key: string): Promise<void> {
    if (!ASSET_KEY_PATTERN.test(key)) return;
    await rm(path.join(this.dir, VARIANTS_FOLDER, key), { force: true });
  }

  /** Oldest file first (by modification time: when the variant was rendered). */
  async listVariants(): Promise<{ key: string; size: number }[]> {
    const folder = path.join(this.dir, VARIANTS_FOLDER);
    let names: string[];
    try {
      names = await readdir(folder);
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    const found = await Promise.all(
      names
        .filter((name) => ASSET_KEY_PATTERN.test(name))
        .map(async (key) => {
          const info = await stat(path.join(folder, key)).catch(() => null);
          return info ? { key, size: info.size, mtime: info.mtimeMs } : null;
        }),
    );
    return found
      .filter((entry) => entry !== null)
      .sort((a, b) => a.mtime - b.mtime)
      .map(({ key, size }) => ({ key, size }));
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

  /** writeAtomically for small files, in one burst of system calls (see SYNC_WRITE_MAX_BYTES). */
  private writeAtomicallySync(file: string, bytes: Buffer): void {
    const temp = `${file}.${randomUUID()}.tmp`;
    try {
      this.writeInFolderSync(temp, bytes);
      renameSync(temp, file);
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
  }

  private writeInFolderSync(temp: string, bytes: Buffer): void {
    try {
      writeFileSync(temp, bytes);
    } catch (error) {
      if ((error as NodeJS.ErrnoException | null)?.code !== 'ENOENT') throw error;
      // First write, or the folder was removed while the store ran. A failure (a file in the way, permissions)
      // is thrown to the caller and the next write tries again.
      mkdirSync(this.dir, { recursive: true });
      writeFileSync(temp, bytes);
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

function isFileSync(file: string): boolean {
  return statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR';
}
