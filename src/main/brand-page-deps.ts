/** The public brand pages' reads (http/pages/brand/brand-page-deps.ts), over the services: cache, store, search. */
import type { Brand } from '../domain/brand.js';
import { WindowLimiter } from '../billing/window-limiter.js';
import type { CachedBrand } from '../brands/brand-cache.js';
import type { BrandPageDeps, BrandPageRecord } from '../http/pages/brand/brand-page-deps.js';
import type { Services } from './services.js';

/** Public searches per client address per minute (ADR 0044): a person typing never meets it; a scraper does. */
export const PAGE_SEARCHES_PER_MINUTE = 30;

/** How long a page record (with its stored palette and logo evidence) is reused while its cached brand is unchanged. */
const RECORD_REUSE_MS = 30_000;
const MAX_REUSED_RECORDS = 2_000;

interface Reused {
  cached: CachedBrand;
  record: BrandPageRecord;
  at: number;
}

export function brandPageDepsFor(services: Services, now: () => number = Date.now): BrandPageDeps {
  const limiter = new WindowLimiter(60_000);
  const publicOrigin = new URL(services.config.publicUrl).origin;
  const assetOrigin = new URL(services.config.assetBaseUrl, services.config.publicUrl).origin;
  // A page view of a popular brand costs a cache hit: the same record object while the brand cache holds the same
  // entry (a new crawl replaces that entry at once, ADR 0017); a palette built meanwhile shows within RECORD_REUSE_MS.
  const reused = new Map<string, Reused>();
  const build = async (cached: CachedBrand): Promise<BrandPageRecord | null> => {
    // The cached serialization is the API's answer: the page shows the same asset URLs a client receives.
    const brand = JSON.parse(cached.json) as Brand;
    if (brand.isNsfw) return null;
    const [palette, evidence] = await Promise.all([services.store.getStoredPalette(brand.id), services.store.getLogoEvidence(brand.id)]);
    return { brand, crawledAt: cached.stored.crawledAt, palette: palette?.palette ?? null, logoEvidence: evidence?.evidence ?? null };
  };
  return {
    async read(domain) {
      const known = await services.lookup.state({ primary: { kind: 'domain', domain, source: 'domain' }, fallbacks: [] });
      if (known.state !== 'held') return null;
      const hit = reused.get(domain);
      if (hit && hit.cached === known.brand && now() - hit.at < RECORD_REUSE_MS) return hit.record;
      const record = await build(known.brand);
      reused.delete(domain);
      if (record) reused.set(domain, { cached: known.brand, record, at: now() });
      if (reused.size > MAX_REUSED_RECORDS) reused.delete(reused.keys().next().value ?? '');
      return record;
    },
    search: (query, limit) => services.brandSearch.search(query, limit),
    admitSearch: (address) => limiter.take([{ key: address, limit: PAGE_SEARCHES_PER_MINUTE }]),
    assetOrigin: assetOrigin === publicOrigin ? null : assetOrigin,
  };
}
