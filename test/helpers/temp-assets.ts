import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LocalAssetStore } from '../../src/assets/local/local-asset-store.js';

const root = mkdtempSync(path.join(tmpdir(), 'brandbase-assets-'));
process.on('exit', () => rmSync(root, { recursive: true, force: true }));
let counter = 0;

/** The real asset store (files in a temp folder), with two helpers for asserting on what was stored. */
export class TempAssets extends LocalAssetStore {
  constructor(readonly folder: string) {
    super({ dir: folder });
  }

  /** Keys of the files stored so far. */
  async files(): Promise<string[]> {
    try {
      return readdirSync(this.folder).filter((f) => /^[0-9a-f]{64}\./.test(f));
    } catch {
      return [];
    }
  }

  /** The bytes of the one file stored; throws unless exactly one was. */
  async only(): Promise<Buffer> {
    const files = await this.files();
    if (files.length !== 1 || !files[0]) throw new Error(`expected exactly one stored file, got ${files.length}`);
    return readFileSync(path.join(this.folder, files[0]));
  }
}

export function tempAssets(): TempAssets {
  counter += 1;
  return new TempAssets(path.join(root, String(counter)));
}
