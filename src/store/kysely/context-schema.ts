/** 0019 table (context-migration.ts). Imports nothing from schema.ts (which extends it). */

/** Epoch milliseconds (as schema.ts's `Millis`). */
type Millis = number;

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
