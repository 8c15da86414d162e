/**
 * `--format nsi`: the folder of an unpacked name-suggestion-index npm package (`npm pack name-suggestion-index` and
 * `tar xzf`: the `package/` folder, or the folder holding it), read into the brand knowledge set by nsi-brands.ts.
 * Reads `dist/json/nsi.json` and `dist/wikidata/wikidata.min.json` (or `wikidata.json`); the import replaces the
 * set's `nsi` rows as a whole (a brand the newer package drops is removed). The source date is the package's own
 * (`_meta.generated`) unless `--source-date` is given.
 */
import { existsSync, statSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { nsiBrands } from './nsi-brands.js';
import type { FormatParser, ParseContext, ReferenceRecord } from './reference-record.js';

export interface NsiPackageFiles {
  nsi: string;
  wikidata: string;
}

export class NotAnNsiPackageError extends Error {
  constructor(dir: string) {
    super(`${dir} is not an unpacked name-suggestion-index package: expected dist/json/nsi.json and dist/wikidata/wikidata.min.json in it (or in its package/ folder)`);
  }
}

/** The two files the knowledge set is read from, in `dir` or its `package/` folder; null when they are not there. */
export function nsiPackageFiles(dir: string): NsiPackageFiles | null {
  for (const root of [dir, path.join(dir, 'package')]) {
    const nsi = path.join(root, 'dist/json/nsi.json');
    const wikidata = ['wikidata.min.json', 'wikidata.json'].map((f) => path.join(root, 'dist/wikidata', f)).find((f) => existsSync(f));
    if (existsSync(nsi) && statSync(nsi).isFile() && wikidata !== undefined) return { nsi, wikidata };
  }
  return null;
}

/** `_meta.generated` of nsi.json (the first key of the file: the first kilobytes are read, not 13 MB). */
async function generatedDate(dir: string): Promise<string | null> {
  const files = nsiPackageFiles(dir);
  if (files === null) return null;
  const handle = await open(files.nsi);
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(4096), 0, 4096, 0);
    return /"generated"\s*:\s*"(\d{4}-\d{2}-\d{2})/.exec(buffer.subarray(0, bytesRead).toString('utf8'))?.[1] ?? null;
  } finally {
    await handle.close();
  }
}

async function* parseNsi(ctx: ParseContext): AsyncGenerator<ReferenceRecord> {
  const files = nsiPackageFiles(ctx.path);
  if (files === null) throw new NotAnNsiPackageError(ctx.path);
  // About 25 MB of JSON, read whole: the brands of one Wikidata item are spread over the file's categories.
  const nsi: unknown = JSON.parse(await readFile(files.nsi, 'utf8'));
  const wikidata: unknown = JSON.parse(await readFile(files.wikidata, 'utf8'));
  for (const row of nsiBrands({ nsi, wikidata }, ctx.report, { source: 'nsi', sourceDate: ctx.sourceDate })) yield { table: 'brands', row };
}

export const nsiPackage: FormatParser = {
  name: 'nsi',
  source: 'nsi',
  description: 'an unpacked name-suggestion-index npm package folder: the brand knowledge set',
  parse: parseNsi,
  statedDate: generatedDate,
};
