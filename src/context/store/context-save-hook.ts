/** The context's brand save hook (brands/brand-save-hooks.ts). */
import type { Kysely } from 'kysely';
import type { BrandSaveHook } from '../../brands/brand-save-hooks.js';
import { saveContextEvidence } from './context-rows.js';
import type { BrandContextTables } from './context-tables.js';

/** The crawl's context evidence commits with its record, like the palette's (ADR 0035). */
export const contextSaveHook: BrandSaveHook = {
  async onBrandSaved(trx, { next, options }) {
    if (options.contextEvidence) await saveContextEvidence(trx as Kysely<BrandContextTables>, next.brand.id, options.contextEvidence, next.crawledAt);
  },
};
