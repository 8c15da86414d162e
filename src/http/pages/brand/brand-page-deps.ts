/**
 * What the public brand pages (`/brands/{domain}`, `/brands?q=`) read, as a port main/ implements
 * (main/brand-page-deps.ts): the held record from the brand cache or the store, never a crawl and never a credit;
 * the palette only when one is stored; the logo decision of the latest crawl (ADR 0044).
 */
import type { Brand } from '../../../domain/brand.js';
import type { LogoEvidence } from '../../../domain/logo-evidence.js';
import type { Palette } from '../../../domain/palette.js';
import type { SearchHit } from '../../../domain/search-hit.js';

/** A held brand as the page shows it: every asset `src` already a URL (as the API answers it). */
export interface BrandPageRecord {
  brand: Brand;
  crawledAt: Date;
  /** The palette if one was built and stored (never built for a page view). */
  palette: Palette | null;
  logoEvidence: LogoEvidence | null;
}

export interface BrandPageDeps {
  /** The indexed brand of a registrable domain, or null (not held, removed or NSFW: public pages never show those). */
  read(domain: string): Promise<BrandPageRecord | null>;
  /** Search by name (the search service behind /v2/search), best first. */
  search(query: string, limit: number): Promise<SearchHit[]>;
  /** The public search limit per client address (ADR 0044): ok, or the seconds until the next search may pass. */
  admitSearch(address: string): { ok: boolean; retryAfterSeconds: number };
  /** The origin asset URLs are served from when it is not the service's own (a CDN): the pages' CSP allows it. */
  assetOrigin: string | null;
}
