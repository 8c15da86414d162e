/** The context's table (context-migrations.ts; issue 30). */
import type { Millis } from '../../db/column-codec.js';

/** 0019: the context evidence of a brand's latest crawl and the profile built from it (ADR 0035). */
export interface BrandContextsTable {
  brand_id: string;
  /** ContextEvidence as JSON text. */
  evidence: string;
  /** When the pages were read (the crawl). */
  observed_at: Millis;
  /** The built profile (ContextProfile) as JSON text, null until the first context request builds it. */
  profile: string | null;
  built_at: Millis | null;
}

export interface BrandContextTables {
  brand_contexts: BrandContextsTable;
}
