/** The logo evidence's table (logo-evidence-migrations.ts; issue 30). */

/** 0022: the logo decision of a brand's latest crawl (ADR 0044). */
export interface BrandLogoEvidenceTable {
  brand_id: string;
  /** LogoEvidence as JSON text. */
  evidence: string;
  /** When the crawl ran (epoch milliseconds, as schema.ts's `Millis`). */
  observed_at: number;
}

export interface LogoEvidenceTables {
  brand_logo_evidence: BrandLogoEvidenceTable;
}
