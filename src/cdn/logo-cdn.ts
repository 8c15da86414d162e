/**
 * The logo CDN's answers (issue 20 item 3, docs/logo-cdn.md, ADR 0034): a parsed request and the admitted
 * organization in, image bytes (or a 404) out. Knows nothing of HTTP: the use case (cdn/logo-cdn-answer.ts)
 * admits the client ID; the route (http/cdn/) negotiates the format and writes headers.
 */
import type { AssetStore } from '../assets/asset-store.js';
import type { Brand, Format, Logo } from '../domain/brand.js';
import { logoSource, type LogoSource } from '../usecases/logo-source.js';
import type { UseCaseDeps } from '../usecases/use-case-deps.js';
import { lettermarkFor, lettermarkSvg } from './lettermark.js';
import { assetKeyOf, originalFor, pickLogo } from './logo-choice.js';
import type { CdnFallback, LogoCdnRequest } from './logo-cdn-request.js';
import { placeholderSvg, transparentSvg } from './placeholder-svg.js';
import { CONTENT_TYPES, rasterizeSvgTo, resizeRaster, sizedSvg, transparentImage } from './render-variant.js';
import { SvgRenderUnavailable, type SvgRenderer } from './svg-renderer.js';
import { logoVariantKey, variantKey, type VariantCache } from './variant-cache.js';
import { CDN_DEFAULT_SIDE, variantGeometry, type VariantGeometry } from './variant-geometry.js';

export interface LogoCdnOptions {
  /** Cache lifetime of a brand's logo answer, in seconds (long: the URL is stable, a re-crawl is rare). */
  maxAgeSeconds: number;
  /** Cache lifetime of a fallback (and of the 404 fallback), in seconds: short, so the real logo shows once crawled. */
  fallbackMaxAgeSeconds: number;
  /** Draws the SVG variants (issue 33): the bounded worker pool in the API process (svg-render-pool.ts). */
  renderer: SvgRenderer;
  /** For the memory of recently queued domains; tests inject one. */
  clock?: () => number;
}

export type CdnImage = {
  status: 200;
  bytes: Buffer;
  contentType: string;
  etag: string;
  cacheControl: string;
  upscaled: boolean;
  /** Which fallback was drawn; null for the brand's own logo. */
  fallback: Exclude<CdnFallback, '404'> | null;
};

export type CdnNotFound = {
  status: 404;
  /** `crawl_queued`: not held yet, a crawl is queued; `logo_not_found`: nothing to draw and none coming. */
  code: 'crawl_queued' | 'logo_not_found';
  cacheControl: string;
};

export type CdnAnswer = CdnImage | CdnNotFound;

/** How long a brand not held is answered from memory before the store and queue are asked again. */
const RECENT_MS = 30_000;
const RECENT_MAX = 10_000;
/** An SVG whose render was killed (time, memory) or crashed is not drawn again for this long, at any size. */
const FAILED_SVG_MS = 10 * 60_000;
const FAILED_SVG_MAX = 10_000;

export class LogoCdn {
  private readonly recentSources = new Map<string, { source: LogoSource; until: number }>();
  private readonly clock: () => number;
  /** Asset keys of SVGs whose render was killed, until when they are not drawn again. */
  private readonly failedSvgs = new Map<string, number>();
  private readonly recent = {
    get: (domain: string): LogoSource | undefined => {
      const hit = this.recentSources.get(domain);
      return hit && hit.until > this.clock() ? hit.source : undefined;
    },
    set: (domain: string, source: LogoSource): void => {
      if (this.recentSources.size >= RECENT_MAX) this.recentSources.clear();
      this.recentSources.set(domain, { source, until: this.clock() + RECENT_MS });
    },
  };

  constructor(
    private readonly usecases: UseCaseDeps,
    private readonly assets: AssetStore,
    private readonly variants: VariantCache,
    private readonly options: LogoCdnOptions,
  ) {
    this.clock = options.clock ?? Date.now;
  }

  /**
   * `owner`: the organization the client ID belongs to (a queued crawl takes its fair turn, ADR 0015); `requestId`:
   * the HTTP request, named in a queued crawl's log lines (`reqId`, ADR 0039).
   */
  async answer(request: LogoCdnRequest, owner: string | null, requestId?: string): Promise<CdnAnswer> {
    const source = await logoSource(this.usecases, request.readings, { owner, recent: this.recent, ...(requestId === undefined ? {} : { requestId }) });
    if (source.kind !== 'held') return this.fallback(request, null, source.domain, source.kind === 'queued' ? 'crawl_queued' : 'logo_not_found');
    const logo = pickLogo(source.brand.logos, request.type, request.theme);
    const original = logo ? originalFor(logo, request.format) : null;
    const image = logo && original ? await this.logoImage(logo, original, request, source.brand.domain) : null;
    return image ?? this.fallback(request, source.brand, source.brand.domain, 'logo_not_found');
  }

  /**
   * The brand's logo resized, or null when its file is gone or cannot be decoded, or its SVG could not be drawn
   * (the render pool was full, or killed the render at a limit): the fallback answers. A brand at its number of
   * stored variants (BRANDBASE_CDN_VARIANTS_PER_BRAND) gets a new size scaled from the logo's largest stored raster,
   * kept in memory only.
   */
  private async logoImage(logo: Logo, original: Format, request: LogoCdnRequest, brand: string): Promise<CdnImage | null> {
    const key = assetKeyOf(original.src);
    const vector = original.format === 'svg';
    const sized = request.width !== null || request.height !== null;
    const geometry = request.format === 'svg' && !sized ? null : variantGeometry(request, original, vector);
    const raster = vector ? largestRaster(logo) : original;
    try {
      const variant = await this.variants.get(
        logoVariantKey(key, geometry, request.format),
        async (limited) => {
          if (limited && request.format !== 'svg') return this.scaledFrom(raster, geometry!, request.format);
          const stored = await this.assets.get(key);
          if (!stored) throw new Error('original missing from the asset store');
          if (request.format === 'svg') return sizedSvg(stored.bytes.toString('utf8'), geometry);
          if (vector) return this.drawSvg(key, stored.bytes.toString('utf8'), geometry!, request.format);
          return resizeRaster(stored.bytes, geometry!, request.format);
        },
        { brand, persist: true },
      );
      const cacheControl = `public, max-age=${this.options.maxAgeSeconds}`;
      const enlarged = variant.scaled && geometry !== null && raster !== null && (geometry.contentWidth > (raster.width ?? 0) || geometry.contentHeight > (raster.height ?? 0));
      const { bytes, etag } = variant;
      return { status: 200, bytes, etag, contentType: CONTENT_TYPES[request.format], cacheControl, upscaled: (geometry?.upscaled ?? false) || enlarged, fallback: null };
    } catch {
      // A missing or undecodable original is answered like a missing logo: the fallback, briefly cached.
      return null;
    }
  }

  /** An SVG drawn by the render pool; one whose render was killed is not sent to the pool again for a while. */
  private async drawSvg(key: string, svg: string, geometry: VariantGeometry, format: Exclude<LogoCdnRequest['format'], 'svg'>): Promise<Buffer> {
    const now = this.clock();
    if ((this.failedSvgs.get(key) ?? 0) > now) throw new Error('this SVG was killed at a render limit recently');
    try {
      return await this.options.renderer.variant(svg, geometry, format);
    } catch (error) {
      if (error instanceof SvgRenderUnavailable && (error.reason === 'timeout' || error.reason === 'memory' || error.reason === 'crashed')) {
        if (this.failedSvgs.size >= FAILED_SVG_MAX) this.failedSvgs.clear();
        this.failedSvgs.set(key, now + FAILED_SVG_MS);
      }
      throw error;
    }
  }

  /** A variant past the brand's limit: the logo's stored raster resized (no SVG is drawn). */
  private async scaledFrom(raster: Format | null, geometry: VariantGeometry, format: Exclude<LogoCdnRequest['format'], 'svg'>): Promise<Buffer> {
    const stored = raster ? await this.assets.get(assetKeyOf(raster.src)) : null;
    if (!stored) throw new Error('no stored raster to scale');
    return resizeRaster(stored.bytes, geometry, format);
  }

  private async fallback(request: LogoCdnRequest, brand: Brand | null, domain: string | null, code: CdnNotFound['code']): Promise<CdnAnswer> {
    const cacheControl = `public, max-age=${this.options.fallbackMaxAgeSeconds}`;
    if (request.fallback === '404') return { status: 404, code, cacheControl };
    const kind = request.fallback;
    const geometry = fallbackGeometry(request);
    const { width, height } = geometry;
    const lettermark = kind === 'lettermark' ? lettermarkFor(brand, domain) : null;
    const parts = [kind, width, height, lettermark?.letter ?? null, lettermark?.background ?? null, lettermark?.foreground ?? null];
    const { bytes, etag } = await this.variants.get(variantKey(parts, request.format), async () => {
      if (kind === 'transparent' && request.format !== 'svg') return transparentImage(width, height, request.format);
      const svg = lettermark ? lettermarkSvg(lettermark, width, height) : kind === 'transparent' ? transparentSvg(width, height) : placeholderSvg(width, height);
      // Brandbase's own drawing (one outline or one glyph at most 1024 px), not a site's: drawn here, so a full
      // render pool never takes the fallback away with the logo it stands in for.
      return request.format === 'svg' ? Buffer.from(svg) : rasterizeSvgTo(svg, geometry, request.format);
    });
    return { status: 200, bytes, etag, contentType: CONTENT_TYPES[request.format], cacheControl, upscaled: false, fallback: kind };
  }
}

/** The logo's largest raster file (a scaled variant is made from it), or null when it has none. */
function largestRaster(logo: Logo): Format | null {
  const area = (f: Format): number => (f.width ?? 0) * (f.height ?? 0);
  return logo.formats.filter((f) => f.format !== 'svg').reduce<Format | null>((best, f) => (best === null || area(f) > area(best) ? f : best), null);
}

/** A fallback fills the whole requested box: `w`×`h`, a square of the one side given, or the default square. */
function fallbackGeometry(request: LogoCdnRequest): VariantGeometry {
  const width = request.width ?? request.height ?? CDN_DEFAULT_SIDE;
  const height = request.height ?? request.width ?? CDN_DEFAULT_SIDE;
  return { width, height, contentWidth: width, contentHeight: height, upscaled: false };
}
