/**
 * Banners (spec 2.6, extraction notes 1.8): the images a site declares for link previews (og:image,
 * twitter:image) and the hero of its homepage: a `background-image` on the first hero/banner/masthead
 * section (inline style or stylesheet rule), a <video poster>, or an <img> in that section. Declared preview
 * images are banners as they are; hero images only when they really are wide (≥ 2:1 and ≥ 600 px wide after
 * decoding), so a hero's product shot or portrait is left to the pictures. A banner that is the same file as
 * a listed logo is skipped; images under 16 px are never stored (the ingester refuses them).
 * Tags are set afterwards for the listed banners (image-kinds.ts).
 */
import type { Image } from '../../../domain/brand.js';
import type { IngestedImage } from '../../../media/ingest-image.js';
import { hammingDistance } from '../../../media/perceptual-hash.js';
import { elementIndex } from '../../page/element-index.js';
import { anyOf, attrContains, attrContainsAny, attrEquals, closest, findIn, hasAncestor, tagIs, type ElementTest } from '../../page/element-queries.js';
import { resolveUrl, type HtmlPage } from '../../page/html-page.js';
import { ingestRemoteImage, type AssetDeps } from '../../fetch/ingest-remote-image.js';
import { backgroundLogos } from '../logos/logo-backgrounds.js';
import { largestImageSource } from '../logos/logo-candidates.js';
import type { ParsedCss } from '../../page/parse-css.js';

const MAX_BANNERS = 2;
const MAX_HERO_CANDIDATES = 2;
const MIN_HERO_WIDTH = 600;
const MIN_HERO_ASPECT = 2;
const DUPLICATE_BITS = 4;
/** In this order: `meta[property="og:image:secure_url" i]`, og:image:url, og:image, twitter:image:src, twitter:image. */
const BANNER_META = [
  attrEquals('property', 'og:image:secure_url', true),
  attrEquals('property', 'og:image:url', true),
  attrEquals('property', 'og:image', true),
  attrEquals('name', 'twitter:image:src', true),
  attrEquals('name', 'twitter:image', true),
  attrEquals('property', 'twitter:image', true),
];
const CLASS_COOKIE = attrContains('class', 'cookie', true);
const CLASS_CONSENT = attrContains('class', 'consent', true);
const CLASS_BANNER = attrContains('class', 'banner', true);
/**
 * `[class*="hero" i], [id*="hero" i], [class*="masthead" i], [class*="jumbotron" i],
 * [class*="banner" i]:not([class*="cookie" i]):not([class*="consent" i]), [class*="cover" i]`
 */
const HERO_ZONE = anyOf(
  attrContainsAny('class', ['hero', 'masthead', 'jumbotron', 'cover'], true),
  attrContains('id', 'hero', true),
  (el) => CLASS_BANNER(el) && !CLASS_COOKIE(el) && !CLASS_CONSENT(el),
);
const HEADER = tagIs('header');
/** `header nav, [role="dialog"], footer` */
const NOT_HERO: ElementTest = (el) => (el.name === 'nav' && hasAncestor(el, HEADER)) || el.attribs['role'] === 'dialog' || el.name === 'footer';
const VIDEO_POSTER: ElementTest = (el) => el.name === 'video' && el.attribs['poster'] !== undefined;
const IMG = tagIs('img');

export interface IngestedBanner {
  image: IngestedImage | null;
  /** Found in the page's hero rather than declared in metadata: must prove it is wide. */
  hero: boolean;
}

export function findBannerUrls(page: HtmlPage): string[] {
  const urls: string[] = [];
  const metas = elementIndex(page.$).byTag('meta');
  for (const test of BANNER_META) {
    for (const el of metas.filter(test)) {
      const url = resolveUrl(el.attribs['content'], page.baseUrl);
      if (url && !urls.includes(url)) urls.push(url);
    }
  }
  return urls.slice(0, MAX_BANNERS);
}

/** Hero background images, video posters and hero <img>s of the first hero-like sections. */
export function findHeroBannerUrls(page: HtmlPage, sheets: ParsedCss[] = []): string[] {
  const { $ } = page;
  const urls: string[] = [];
  const zones = elementIndex($).all.filter((el) => HERO_ZONE(el) && closest(el, NOT_HERO) === null).slice(0, 3);
  for (const zone of zones) {
    for (const bg of backgroundLogos(page, zone, sheets)) if (!bg.crop) urls.push(bg.url);
    for (const v of findIn(zone, VIDEO_POSTER)) pushUrl(urls, resolveUrl(v.attribs['poster'], page.baseUrl));
    for (const img of findIn(zone, IMG).slice(0, 2)) pushUrl(urls, resolveUrl(largestImageSource(img), page.baseUrl));
  }
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
