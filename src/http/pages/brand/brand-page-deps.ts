/**
 * What the public brand pages (`/brands/{domain}`, `/brands?q=`) call, as main/brand-page-deps.ts wires it: the
 * held record through brands/brand-page-reads.ts (never a crawl and never a credit; ADR 0044), search by name
 * through the search service, and the public search limit.
 */
import type { BrandPageRecord } from '../../../brands/brand-page-reads.js';
import type { SearchHit } from '../../../domain/search-hit.js';

export type { BrandPageRecord } from '../../../brands/brand-page-reads.js';

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
