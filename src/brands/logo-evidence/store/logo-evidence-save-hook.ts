/** The logo evidence's brand save hook (brands/brand-save-hooks.ts). */
import type { Kysely } from 'kysely';
import type { BrandSaveHook } from '../../brand-save-hooks.js';
import { saveLogoEvidence } from './logo-evidence-rows.js';
import type { LogoEvidenceTables } from './logo-evidence-tables.js';

/** How the crawl chose the record's logos commits with the record (ADR 0044). */
export const logoEvidenceSaveHook: BrandSaveHook = {
  async onBrandSaved(trx, { next, options }) {
    if (options.logoEvidence) await saveLogoEvidence(trx as Kysely<LogoEvidenceTables>, next.brand.id, options.logoEvidence, next.crawledAt);
  },
};
