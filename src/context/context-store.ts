/**
 * The context's storage port (issue 30): the evidence kept with a brand's latest crawl and the profile built from it
 * (migration 0019, ADR 0035). Implemented over the kernel's Database in store/kysely-context-store.ts.
 */
import type { ContextEvidence, ContextProfile } from '../domain/brand-context.js';

/** A brand's context evidence (from its latest crawl) and the profile built from it, if any (ADR 0035). */
export interface StoredContext {
  brandId: string;
  /** As stored: a ContextEvidence of some version (the builder checks `version`). */
  evidence: ContextEvidence;
  observedAt: Date;
  profile: ContextProfile | null;
  builtAt: Date | null;
}

/** Context evidence and built context profiles (migration 0019, ADR 0035; the lazy rule of the palette). */
export interface ContextStore {
  /** Keeps the evidence of the brand's latest crawl and forgets a profile built from older evidence. */
  saveContextEvidence(brandId: string, evidence: ContextEvidence, observedAt: Date): Promise<void>;
  getStoredContext(brandId: string): Promise<StoredContext | null>;
  /**
   * Stores the profile built from the evidence observed at `observedAt`. Returns false and writes nothing when that
   * evidence was replaced meanwhile (a re-crawl), so a slow build never overwrites a newer crawl's state.
   */
  saveContextProfile(brandId: string, profile: ContextProfile, observedAt: Date, builtAt: Date): Promise<boolean>;
}
