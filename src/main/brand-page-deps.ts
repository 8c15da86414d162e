/** The public brand pages' dependencies (http/pages/brand/brand-page-deps.ts), over the services: reads, search. */
import { WindowLimiter } from '../billing/window-limiter.js';
import { BrandPageReads } from '../brands/brand-page-reads.js';
import type { BrandPageDeps } from '../http/pages/brand/brand-page-deps.js';
import type { Services } from './services.js';

/** Public searches per client address per minute (ADR 0044): a person typing never meets it; a scraper does. */
export const PAGE_SEARCHES_PER_MINUTE = 30;

export function brandPageDepsFor(services: Services, now: () => number = Date.now): BrandPageDeps {
  const limiter = new WindowLimiter(60_000, now);
  const publicOrigin = new URL(services.config.publicUrl).origin;
  const assetOrigin = new URL(services.config.assetBaseUrl, services.config.publicUrl).origin;
  const reads = new BrandPageReads(services.lookup, { getStoredPalette: (id) => services.stores.palette.getStoredPalette(id), getLogoEvidence: (id) => services.stores.logoEvidence.getLogoEvidence(id) }, now);
  return {
    read: (domain) => reads.read(domain),
    search: (query, limit) => services.brandSearch.search(query, limit),
    admitSearch: (address) => limiter.take([{ key: address, limit: PAGE_SEARCHES_PER_MINUTE }]),
    assetOrigin: assetOrigin === publicOrigin ? null : assetOrigin,
  };
}
