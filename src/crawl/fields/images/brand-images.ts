/**
 * All of a brand's images for the record (spec 2.6): banners (images.ts) and pictures (pictures.ts) from the
 * homepage, the about pages and the one or two product pages (picture-pages.ts) already fetched for the crawl.
 * Downloads start while the logos are still being judged; the logos' file hashes are only needed at the end,
 * so a logo is never listed again as a banner or picture.
 */
import type { Image } from '../../../domain/brand.js';
import type { HtmlPage } from '../../page/html-page.js';
import { bannerImages, findBannerUrls, findHeroBannerUrls, ingestBanners } from './images.js';
import type { CrawlAssetDeps } from '../../fetch/ingest-remote-image.js';
import type { LogosResult } from '../logos/logos.js';
import type { ParsedCss } from '../../page/parse-css.js';
import { buildPictures, findPictureCandidates } from './pictures.js';
import { withImageKinds } from './image-kinds.js';

export interface ImageSources {
  page: HtmlPage;
  sheets: ParsedCss[];
  /** Other pages of the brand's site fetched for this crawl (about, contact). */
  aboutPages: HtmlPage[];
  /** Product, feature or work pages linked from the homepage (picture-pages.ts), fetched with the about pages. */
  productPages: HtmlPage[];
  brandName: string | null;
}

export async function collectImages(sources: ImageSources, deps: CrawlAssetDeps, logos: Promise<LogosResult>): Promise<Image[]> {
  const { page } = sources;
  // Every candidate is decoded to be judged; only the listed banners and pictures reach the asset store.
  const aboutUrls = new Set(sources.aboutPages.map((p) => p.url));
  // A product link that redirected to an about page already fetched is that page, counted once.
  const productPages = sources.productPages.filter((p) => !aboutUrls.has(p.url));
  const candidates = findPictureCandidates([page, ...sources.aboutPages, ...productPages], sources.brandName);
  const [declared, heroes, downloaded, { hashes }] = await Promise.all([
    ingestBanners(findBannerUrls(page), deps),
    ingestBanners(findHeroBannerUrls(page, sources.sheets), deps, true),
    buildPictures(candidates, deps, new Set()),
    logos,
  ]);
  const banners = bannerImages([...declared, ...heroes], hashes);
  const taken = new Set([...hashes, ...banners.flatMap((b) => b.formats.map((f) => f.src))]);
  const pictures = downloaded
    .filter((p) => !p.formats.some((f) => taken.has(f.src) || [...hashes].some((h) => f.src.includes(h))))
    .map((p, i) => (p.pictureMetadata ? { ...p, pictureMetadata: { ...p.pictureMetadata, rank: i + 1 } } : p));
  // Only the listed files are classified (at most 3 banners and 6 pictures), from the bytes already staged.
  return deps.assets.commitAll(await withImageKinds([...banners, ...pictures], deps.assets, deps.budget.signal, deps.analyses));
}
