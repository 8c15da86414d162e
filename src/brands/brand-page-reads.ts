/**
 * What the public brand pages (`/brands/{domain}`, ADR 0044) read of a held brand: the record from the brand cache
 * or the store, never a crawl and never a credit; the palette only when one is stored; the logo decision of the
 * latest crawl. A service beside the lookup (issue 31: pages call services, never storage); main/ wires it.
 */
import type { Brand } from '../domain/brand.js';
import type { LogoEvidence } from '../domain/logo-evidence.js';
import type { Palette } from '../domain/palette.js';
import type { LogoEvidenceStore } from './logo-evidence/logo-evidence-store.js';
import type { CachedBrand } from './brand-cache.js';
import type { BrandLookup } from './brand-lookup.js';

/** A held brand as the page shows it: every asset `src` already a URL (as the API answers it). */
export interface BrandPageRecord {
  brand: Brand;
  crawledAt: Date;
  /** The palette if one was built and stored (never built for a page view). */
  palette: Palette | null;
  logoEvidence: LogoEvidence | null;
}

/**
 * The palette part is palette/palette-store.ts's `getStoredPalette`, by shape: brands/ does not import palette/ (the
 * palette's brand save hook imports brands/).
 */
export type BrandPageStore = { getStoredPalette(brandId: string): Promise<{ palette: Palette | null } | null> } & Pick<LogoEvidenceStore, 'getLogoEvidence'>;

/** How long a page record (with its stored palette and logo evidence) is reused while its cached brand is unchanged. */
const RECORD_REUSE_MS = 30_000;
const MAX_REUSED_RECORDS = 2_000;

interface Reused {
  cached: CachedBrand;
  record: BrandPageRecord;
  at: number;
}

export class BrandPageReads {
  // A page view of a popular brand costs a cache hit: the same record object while the brand cache holds the same
  // entry (a new crawl replaces that entry at once, ADR 0017); a palette built meanwhile shows within RECORD_REUSE_MS.
  readonly #reused = new Map<string, Reused>();

  constructor(
    private readonly lookup: Pick<BrandLookup, 'state'>,
    private readonly store: BrandPageStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** The indexed brand of a registrable domain, or null (not held, removed or NSFW: public pages never show those). */
  async read(domain: string): Promise<BrandPageRecord | null> {
    const known = await this.lookup.state({ primary: { kind: 'domain', domain, source: 'domain' }, fallbacks: [] });
    if (known.state !== 'held') return null;
    const reused = this.#reused;
    const hit = reused.get(domain);
    if (hit && hit.cached === known.brand && this.now() - hit.at < RECORD_REUSE_MS) return hit.record;
    const record = await this.#build(known.brand);
    reused.delete(domain);
    if (record) reused.set(domain, { cached: known.brand, record, at: this.now() });
    if (reused.size > MAX_REUSED_RECORDS) reused.delete(reused.keys().next().value ?? '');
    return record;
  }

  async #build(cached: CachedBrand): Promise<BrandPageRecord | null> {
    // The cached serialization is the API's answer: the page shows the same asset URLs a client receives.
    const brand = JSON.parse(cached.json) as Brand;
    if (brand.isNsfw) return null;
    const [palette, evidence] = await Promise.all([this.store.getStoredPalette(brand.id), this.store.getLogoEvidence(brand.id)]);
    return { brand, crawledAt: cached.stored.crawledAt, palette: palette?.palette ?? null, logoEvidence: evidence?.evidence ?? null };
  }
}
