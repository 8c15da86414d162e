/**
 * 0004_asset_keys (ADR 0011): brand records stored each asset `src` as an absolute URL under the public URL of
 * the process that crawled them (`http://host/assets/<sha256>.<ext>`); from 0004 on they hold the key alone and
 * answers render the URL. This converts every stored record, one page of rows at a time (never the whole table
 * in memory), and only rewrites rows that change, so running it again changes nothing.
 *
 * Self-contained on purpose: a shipped migration must not change when the code it once shared does.
 */
import type { Kysely } from 'kysely';

/** How records wrote asset URLs before 0004: anything, then `/assets/`, then the content key. */
const ASSET_URL = /\/assets\/([0-9a-f]{64}\.(?:svg|png|webp|jpeg))$/;

/** Rows read per query. */
export const ASSET_KEY_PAGE_SIZE = 500;

interface BrandRecords {
  brands: { id: string; record: string };
}

/** `record` (a brand as JSON text) with its asset URLs replaced by their keys; null when nothing changes. */
export function recordWithAssetKeys(record: string): string | null {
  let brand: unknown;
  try {
    brand = JSON.parse(record);
  } catch {
    return null;
  }
  if (!isObject(brand)) return null;
  let changed = false;
  for (const family of ['logos', 'images']) {
    for (const entry of arrayOf(brand[family])) {
      if (!isObject(entry)) continue;
      for (const format of arrayOf(entry.formats)) {
        if (!isObject(format) || typeof format.src !== 'string') continue;
        const key = ASSET_URL.exec(format.src)?.[1];
        if (key === undefined) continue;
        format.src = key;
        changed = true;
      }
    }
  }
  return changed ? JSON.stringify(brand) : null;
}

/** Converts every row of `brands`, in pages of `pageSize` by id. Returns the number of rows rewritten. */
export async function convertAssetUrlsToKeys<DB extends BrandRecords>(database: Kysely<DB>, pageSize = ASSET_KEY_PAGE_SIZE): Promise<number> {
  const db = database as unknown as Kysely<BrandRecords>;
  let after = '';
  let rewritten = 0;
  for (;;) {
    const rows = await db.selectFrom('brands').select(['id', 'record']).where('id', '>', after).orderBy('id').limit(pageSize).execute();
    for (const row of rows) {
      const record = recordWithAssetKeys(row.record);
      if (record === null) continue;
      await db.updateTable('brands').set({ record }).where('id', '=', row.id).execute();
      rewritten += 1;
    }
    const last = rows.at(-1);
    if (rows.length < pageSize || last === undefined) return rewritten;
    after = last.id;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
