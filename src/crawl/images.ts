/**
 * Banners (spec 2.6, extraction notes 1.8): the images a site declares for link previews (og:image,
 * twitter:image) and the hero of its homepage: a `background-image` on the first hero/banner/masthead
 * section (inline style or stylesheet rule), a <video poster>, or an <img> in that section. Declared preview
 * images are banners as they are; hero images only when they really are wide (≥ 2:1 and ≥ 600 px wide after
 * decoding), so a hero's product shot or portrait is left to the pictures. A banner that is the same file as
 * a listed logo is skipped; images under 16 px are never stored (the ingester refuses them).
 * Tags stay empty: photographic/illustration/text/pattern need a classifier.
 */
import type { Image } from '../domain/brand.js';
import type { IngestedImage } from '../media/ingest-image.js';
import { hammingDistance } from '../media/perceptual-hash.js';
import { resolveUrl, type HtmlPage } from './html-page.js';
import { ingestRemoteImage, type AssetDeps } from './ingest-remote-image.js';
import { backgroundLogos } from './logo-backgrounds.js';
import { imageSource, largestSrcsetEntry } from './logo-candidates.js';
import type { ParsedCss } from './parse-css.js';

const MAX_BANNERS = 2;
const MAX_HERO_CANDIDATES = 2;
const MIN_HERO_WIDTH = 600;
const MIN_HERO_ASPECT = 2;
const DUPLICATE_BITS = 4;
const BANNER_META = [
  'meta[property="og:image:secure_url" i]',
  'meta[property="og:image:url" i]',
  'meta[property="og:image" i]',
  'meta[name="twitter:image:src" i]',
  'meta[name="twitter:image" i]',
  'meta[property="twitter:image" i]',
];
const HERO_ZONE = '[class*="hero" i], [id*="hero" i], [class*="masthead" i], [class*="jumbotron" i], [class*="banner" i]:not([class*="cookie" i]):not([class*="consent" i]), [class*="cover" i]';

export interface IngestedBanner {
  image: IngestedImage | null;
  /** Found in the page's hero rather than declared in metadata: must prove it is wide. */
  hero: boolean;
}

export function findBannerUrls(page: HtmlPage): string[] {
  const urls: string[] = [];
  for (const selector of BANNER_META) {
    page.$(selector).each((_, el) => {
      const url = resolveUrl(page.$(el).attr('content'), page.baseUrl);
      if (url && !urls.includes(url)) urls.push(url);
    });
  }
  return urls.slice(0, MAX_BANNERS);
}

/** Hero background images, video posters and hero <img>s of the first hero-like sections. */
export function findHeroBannerUrls(page: HtmlPage, sheets: ParsedCss[] = []): string[] {
  const { $ } = page;
  const urls: string[] = [];
  $(HERO_ZONE)
    .filter((_, el) => $(el).closest('header nav, [role="dialog"], footer').length === 0)
    .slice(0, 3)
    .each((_, zone) => {
      for (const bg of backgroundLogos(page, zone, sheets)) if (!bg.crop) urls.push(bg.url);
      $(zone).find('video[poster]').each((_, v) => void pushUrl(urls, resolveUrl($(v).attr('poster'), page.baseUrl)));
      $(zone).find('img').slice(0, 2).each((_, img) => {
        const source = $(img).parent('picture').children('source[srcset]').first().attr('srcset');
        pushUrl(urls, resolveUrl(largestSrcsetEntry(source) ?? imageSource($, img), page.baseUrl));
      });
    });
  return urls.slice(0, MAX_HERO_CANDIDATES);
}

function pushUrl(urls: string[], url: string | null): void {
  if (url && !urls.includes(url) && !/\.svg([?#]|$)/i.test(url)) urls.push(url);
}

export async function ingestBanners(urls: string[], deps: AssetDeps, hero = false): Promise<IngestedBanner[]> {
  return Promise.all(urls.map(async (url) => ({ image: await ingestRemoteImage(url, deps), hero })));
}

/**
 * Banners already listed as a logo (same hash) are skipped: a site that uses its logo as og:image has no
 * banner. Near-identical files (og:image and the hero background re-encoded) are listed once.
 */
export function bannerImages(banners: (IngestedBanner | IngestedImage | null)[], logoHashes: ReadonlySet<string>): Image[] {
  const seen = new Set(logoHashes);
  const kept: IngestedImage[] = [];
  for (const entry of banners) {
    const { image, hero } = entry && 'hero' in entry ? entry : { image: entry, hero: false };
    if (!image || seen.has(image.sha256) || (hero && !isWide(image))) continue;
    if (kept.some((k) => hammingDistance(k.dhash, image.dhash) <= DUPLICATE_BITS)) continue;
    seen.add(image.sha256);
    kept.push(image);
  }
  return kept.slice(0, MAX_BANNERS + 1).map((image) => ({ formats: [image.original], tags: [], type: 'banner' }));
}

function isWide(image: IngestedImage): boolean {
  return image.width !== null && image.height !== null && image.width >= MIN_HERO_WIDTH && image.width / image.height >= MIN_HERO_ASPECT;
}
