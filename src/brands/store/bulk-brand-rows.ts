/**
 * Bulk insertion of new brands for the brands store (`brandbase generate-brands`, the million-brands bench):
 * multi-row inserts inside one write transaction, writing the same rows a `saveBrand` writes for a new brand, so a
 * brand inserted here is found exactly like a crawled one: the `brands` row, its identifier rows, what the save hooks
 * write for new brands (`onBrandsInserted`: the search-by-name rows), and one brand write log entry for the batch
 * (ADR 0017: every API process drops the batch's domains from its cache).
 *
 * Only new brands are inserted: a brand whose id or domain is already held is skipped (never replaced), and an
 * identifier already attached to another brand stays where it is. No `brand.saved` event is written: the records
 * are not changes to a brand anyone subscribed to, and a million events would only fill the event tables.
 */
import type { Kysely } from 'kysely';
import type { IdentifierRef } from '../brand-store.js';
import type { BrandSaveHook, InsertedBrand } from '../brand-save-hooks.js';
import { brandToRow } from './brand-rows.js';
import { appendBrandWrite } from './brand-write-log.js';
import { toMillis } from '../../db/column-codec.js';
import type { BrandTables as Database } from './brand-tables.js';
import type { DialectQuirks } from '../../db/dialect-quirks.js';

/** A brand to insert: attached to its identifiers like saveBrand's; its own domain is attached whether listed or not. */
export type BulkBrand = InsertedBrand;

/**
 * Rows per statement. The widest row (brands) binds 7 parameters: 1,000 rows stay far under PostgreSQL's 65,535 and
 * SQLite's 32,766 bound-parameter limits.
 */
const ROWS_PER_STATEMENT = 1000;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Inserts the brands that are new, in one transaction, with the hooks' rows; returns how many were inserted. */
export async function insertBrands(db: Kysely<Database>, quirks: DialectQuirks, brands: readonly BulkBrand[], hooks: readonly BrandSaveHook[]): Promise<number> {
  if (brands.length === 0) return 0;
  await quirks.beforeBulkInsert(db as Kysely<unknown>);
  return quirks.writeTransaction(db, async (trx) => {
    const fresh: BulkBrand[] = [];
    for (const chunk of chunks(brands, ROWS_PER_STATEMENT)) fresh.push(...(await insertBrandRows(trx, chunk)));
    if (fresh.length === 0) return 0;
    await insertIdentifiers(trx, fresh);
    for (const hook of hooks) await hook.onBrandsInserted?.(trx as Kysely<unknown>, fresh);
    const domains = fresh.map((b) => b.stored.brand.domain);
    await appendBrandWrite(trx, quirks, fresh[0]!.stored.brand.id, domains, toMillis(new Date()));
    return fresh.length;
  });
}

/** Inserts one chunk's brands whose domain no brand holds yet; returns those inserted (an id already held is skipped). */
async function insertBrandRows(trx: Kysely<Database>, chunk: readonly BulkBrand[]): Promise<BulkBrand[]> {
  const held = await trx
    .selectFrom('brand_identifiers')
    .select('value')
    .where('kind', '=', 'domain')
    .where(
      'value',
      'in',
      chunk.map((b) => b.stored.brand.domain),
    )
    .execute();
  const heldDomains = new Set(held.map((row) => row.value));
  const candidates = chunk.filter((b) => !heldDomains.has(b.stored.brand.domain));
  if (candidates.length === 0) return [];
  const inserted = await trx
    .insertInto('brands')
    .values(candidates.map((b) => brandToRow(b.stored)))
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .execute();
  const ids = new Set(inserted.map((row) => row.id));
  return candidates.filter((b) => ids.has(b.stored.brand.id));
}

async function insertIdentifiers(trx: Kysely<Database>, brands: readonly BulkBrand[]): Promise<void> {
  const byKey = new Map<string, { kind: IdentifierRef['kind']; value: string; brand_id: string }>();
  for (const { stored, identifiers } of brands) {
    for (const ref of [{ kind: 'domain' as const, value: stored.brand.domain }, ...identifiers]) {
      const key = `${ref.kind}\u0000${ref.value}`;
      // The first brand to name an identifier keeps it, as the existing rows do (on conflict do nothing).
      if (!byKey.has(key)) byKey.set(key, { kind: ref.kind, value: ref.value, brand_id: stored.brand.id });
    }
  }
  for (const chunk of chunks([...byKey.values()], ROWS_PER_STATEMENT)) {
    await trx.insertInto('brand_identifiers').values(chunk).onConflict((oc) => oc.doNothing()).execute();
  }
}
