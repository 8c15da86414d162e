/**
 * The logo evidence's storage port (issue 30): how a brand's latest crawl chose its logos (migration 0022, ADR 0044),
 * written by the brand save hook in store/ and read by the brand page. Implemented in store/kysely-logo-evidence-store.ts.
 */
import type { LogoEvidence } from '../../domain/logo-evidence.js';

/** The logo decision kept with a brand's latest crawl (migration 0022, ADR 0044), for the brand page. */
export interface LogoEvidenceStore {
  /** The evidence and when its crawl ran; null for a brand crawled before evidence was kept. */
  getLogoEvidence(brandId: string): Promise<{ evidence: LogoEvidence; observedAt: Date } | null>;
}
