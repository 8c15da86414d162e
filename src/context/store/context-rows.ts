/** Context evidence and built context profiles for KyselyContextStore (both dialects; migration 0019, ADR 0035). */
import type { Kysely } from 'kysely';
import type { ContextEvidence, ContextProfile } from '../../domain/brand-context.js';
import type { StoredContext } from '../context-store.js';
import { fromMillis, toMillis } from '../../db/column-codec.js';
import type { BrandContextTables } from './context-tables.js';

export async function saveContextEvidence(db: Kysely<BrandContextTables>, brandId: string, evidence: ContextEvidence, observedAt: Date): Promise<void> {
  const values = { brand_id: brandId, evidence: JSON.stringify(evidence), observed_at: toMillis(observedAt), profile: null, built_at: null };
  await db
    .insertInto('brand_contexts')
    .values(values)
    .onConflict((oc) => oc.column('brand_id').doUpdateSet({ evidence: values.evidence, observed_at: values.observed_at, profile: null, built_at: null }))
    .execute();
}

export async function getStoredContext(db: Kysely<BrandContextTables>, brandId: string): Promise<StoredContext | null> {
  const row = await db.selectFrom('brand_contexts').selectAll().where('brand_id', '=', brandId).executeTakeFirst();
  if (!row) return null;
  return {
    brandId: row.brand_id,
    evidence: JSON.parse(row.evidence) as ContextEvidence,
    observedAt: fromMillis(row.observed_at),
    profile: row.profile === null ? null : (JSON.parse(row.profile) as ContextProfile),
    builtAt: row.built_at === null ? null : fromMillis(row.built_at),
  };
}

export async function saveContextProfile(db: Kysely<BrandContextTables>, brandId: string, profile: ContextProfile, observedAt: Date, builtAt: Date): Promise<boolean> {
  // Conditional on the evidence it was built from: a re-crawl's evidence, saved meanwhile, is never paired with it.
  const result = await db
    .updateTable('brand_contexts')
    .set({ profile: JSON.stringify(profile), built_at: toMillis(builtAt) })
    .where('brand_id', '=', brandId)
    .where('observed_at', '=', toMillis(observedAt))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
