/**
 * Images (spec 2.6), first version: the banners a site declares for link previews (og:image, twitter:image),
 * downloaded and stored like logos; images under 16 px are never stored (the ingester refuses them).
 * Not done yet: hero images, `picture` entries with pictureMetadata, tags (need a classifier).
 */
import type { Image } from '../domain/brand.js';
import { resolveUrl, type HtmlPage } from './html-page.js';
import type { IngestedImage } from '../media/ingest-image.js';
import { ingestRemoteImage, type AssetDeps } from './ingest-remote-image.js';

const MAX_BANNERS = 2;
const BANNER_META = [
  'meta[property="og:image:secure_url" i]',
  'meta[property="og:image:url" i]',
  'meta[property="og:image" i]',
  'meta[name="twitter:image:src" i]',
  'meta[name="twitter:image" i]',
  'meta[property="twitter:image" i]',
];

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

export async function ingestBanners(urls: string[], deps: AssetDeps): Promise<(IngestedImage | null)[]> {
  return Promise.all(urls.map((url) => ingestRemoteImage(url, deps)));
}

/** Banners already listed as a logo (same hash) are skipped: a site that uses its logo as og:image has no banner. */
export function bannerImages(images: (IngestedImage | null)[], logoHashes: ReadonlySet<string>): Image[] {
  const seen = new Set(logoHashes);
  const banners: Image[] = [];
  for (const image of images) {
    if (!image || seen.has(image.sha256)) continue;
    seen.add(image.sha256);
    banners.push({ formats: [image.original], tags: [], type: 'banner' });
  }
  return banners;
}
