/** The logo evidence rows for KyselyLogoEvidenceStore (both dialects; migration 0022, ADR 0044). */
import type { Kysely } from 'kysely';
import type { LogoEvidence } from '../../../domain/logo-evidence.js';
import { fromMillis, toMillis } from '../../../db/column-codec.js';
import type { LogoEvidenceTables } from './logo-evidence-tables.js';

/** Keeps the latest crawl's decision (called inside saveBrand's transaction). */
export async function saveLogoEvidence(db: Kysely<LogoEvidenceTables>, brandId: string, evidence: LogoEvidence, observedAt: Date): Promise<void> {
  const values = { brand_id: brandId, evidence: JSON.stringify(evidence), observed_at: toMillis(observedAt) };
  await db
    .insertInto('brand_logo_evidence')
    .values(values)
    .onConflict((oc) => oc.column('brand_id').doUpdateSet({ evidence: values.evidence, observed_at: values.observed_at }))
    .execute();
}

export async function getLogoEvidence(db: Kysely<LogoEvidenceTables>, brandId: string): Promise<{ evidence: LogoEvidence; observedAt: Date } | null> {
  const row = await db.selectFrom('brand_logo_evidence').select(['evidence', 'observed_at']).where('brand_id', '=', brandId).executeTakeFirst();
  return row ? { evidence: JSON.parse(row.evidence) as LogoEvidence, observedAt: fromMillis(row.observed_at) } : null;
}
