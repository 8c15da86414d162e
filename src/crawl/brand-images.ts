/**
 * All of a brand's images for the record (spec 2.6): banners (images.ts) and pictures (pictures.ts) from the
 * homepage, the about pages already fetched for the crawl and one or two product pages (picture-pages.ts).
 * Downloads start while the logos are still being judged; the logos' file hashes are only needed at the end,
 * so a logo is never listed again as a banner or picture.
 */
import type { Image } from '../domain/brand.js';
import type { IngestedImage } from '../media/ingest-image.js';
import { StagedAssetStore } from '../media/staged-asset-store.js';
import type { HtmlPage } from './html-page.js';
import { bannerImages, findBannerUrls, findHeroBannerUrls, ingestBanners } from './images.js';
import type { AssetDeps } from './ingest-remote-image.js';
import type { LogosResult } from './logos.js';
import type { ParsedCss } from './parse-css.js';
import { fetchPicturePages } from './picture-pages.js';
import { buildPictures, findPictureCandidates } from './pictures.js';

export interface ImageSources {
  page: HtmlPage;
  sheets: ParsedCss[];
  /** Other pages of the brand's site fetched for this crawl (about, contact). */
  aboutPages: HtmlPage[];
  brandName: string | null;
}

export async function collectImages(sources: ImageSources, real: AssetDeps, logos: Promise<LogosResult>): Promise<Image[]> {
  const { page } = sources;
  // Every candidate is decoded to be judged; only the listed banners and pictures reach the asset store.
  const staging = new StagedAssetStore(real.assets);
  const deps = { ...real, assets: staging, ingested: new Map<string, Promise<IngestedImage | null>>() };
  const [declared, heroes, productPages] = await Promise.all([
    ingestBanners(findBannerUrls(page), deps),
    ingestBanners(findHeroBannerUrls(page, sources.sheets), deps, true),
    fetchPicturePages(page, deps.fetcher, deps.budget, sources.aboutPages.map((p) => p.url)),
  ]);
  const candidates = findPictureCandidates([page, ...sources.aboutPages, ...productPages], sources.brandName);
  const [{ hashes }, downloaded] = await Promise.all([logos, buildPictures(candidates, deps, new Set())]);
  const banners = bannerImages([...declared, ...heroes], hashes);
  const taken = new Set([...hashes, ...banners.flatMap((b) => b.formats.map((f) => f.src))]);
  const pictures = downloaded
    .filter((p) => !p.formats.some((f) => taken.has(f.src) || [...hashes].some((h) => f.src.includes(h))))
    .map((p, i) => (p.pictureMetadata ? { ...p, pictureMetadata: { ...p.pictureMetadata, rank: i + 1 } } : p));
  return staging.commitAll([...banners, ...pictures]);
}
