/**
 * Pictures (spec 2.6): images the brand publishes on its own site (homepage plus the about and product pages
 * fetched for this crawl), ranked by how representative they are, with pictureMetadata. Extraction notes 1.8:
 *   1. candidates: content <img> (lazy-load attributes and srcset resolved to the largest file) and <picture>
 *      sources, never inside the header/nav, a logo wall, a consent banner, or marked as a logo/icon/avatar;
 *      no data: URIs, no SVG (icons and illustrations of UI), no declared size under 100 px;
 *   2. a pre-score from the page alone (position, hero/main zone, informative alt text, own host, declared
 *      size, how many crawled pages show it) picks at most MAX_DOWNLOADS files to download;
 *   3. after decoding: natural size ≥ 100 px per side, aspect between 1:3 and 3:1, not a placeholder (blank or
 *      single-colour), not a logo or banner already listed (same bytes), near-duplicates collapsed by
 *      perceptual hash (keeping the better-scored one); score adds the decoded area.
 * Tags, imageCategory and categoryConfidence are set afterwards for the listed pictures (image-kinds.ts).
 */
import type { Image } from '../../../domain/brand.js';
import type { IngestedImage } from '../../../media/ingest-image.js';
import { hammingDistance } from '../../../media/perceptual-hash.js';
import { elementIndex } from '../../page/element-index.js';
import { anyOf, attrContains, attrEquals, closest, findIn, parentOf, parentsOf, tagIs } from '../../page/element-queries.js';
import { cleanText, registrableDomain, resolveUrl, type HtmlElement, type HtmlPage } from '../../page/html-page.js';
import { ingestRemoteImage, type AssetDeps } from '../../fetch/ingest-remote-image.js';
import { isInLogoWall, isThirdPartyLabel, largestImageSource } from '../logos/logo-candidates.js';

export interface PictureCandidate {
  url: string;
  alt: string;
  /** Page-only score (0–100ish). */
  score: number;
}

const MAX_DOWNLOADS = 10;
const MAX_PICTURES = 6;
const MIN_NATURAL_SIDE = 100;
const DUPLICATE_BITS = 6;
/**
 * `header, nav, [role="banner"], [role="navigation"], [role="dialog"], [aria-modal="true"], [class*="cookie" i],
 * [class*="consent" i], button`
 */
const EXCLUDED_ZONES = anyOf(
  tagIs('header', 'nav', 'button'),
  attrEquals('role', 'banner'),
  attrEquals('role', 'navigation'),
  attrEquals('role', 'dialog'),
  attrEquals('aria-modal', 'true'),
  attrContains('class', 'cookie', true),
  attrContains('class', 'consent', true),
);
/** `main, article, section, [class*="hero" i]` */
const CONTENT_ZONE = anyOf(tagIs('main', 'article', 'section'), attrContains('class', 'hero', true));
const FOOTER_ZONE = tagIs('footer', 'aside');
const IMG = tagIs('img');
const LOGO_WALL_NAME = /(logos|clients|partners|customers|sponsors|press|trusted|brands|integrations|as-seen)/i;
const NOT_A_PICTURE = /(^|[^a-z])(logos?|icons?|avatars?|sprites?|badges?|emoji|pixel|spacer|placeholder|loader|spinner|flags?|payments?|rating|stars?)([^a-z]|$)/i;

export function findPictureCandidates(pages: HtmlPage[], brandName: string | null): PictureCandidate[] {
  const byUrl = new Map<string, PictureCandidate & { pages: Set<string> }>();
  for (const page of pages) {
    elementIndex(page.$).byTag('img').forEach((el, index) => {
      const found = judgePicture(page, el, index, brandName);
      if (!found) return;
      const seen = byUrl.get(found.url);
      if (seen) seen.pages.add(page.url);
      else byUrl.set(found.url, { ...found, pages: new Set([page.url]) });
    });
  }
  // Shown on several crawled pages: a brand image rather than one article's illustration.
  return [...byUrl.values()].map(({ pages: on, ...c }) => ({ ...c, score: c.score + 10 * (on.size - 1) })).sort((a, b) => b.score - a.score);
}

function judgePicture(page: HtmlPage, el: HtmlElement, index: number, brandName: string | null): PictureCandidate | null {
  const a = el.attribs;
  if (closest(el, EXCLUDED_ZONES) !== null || isLogoWallImage(page, el)) return null;
  const names = `${a['class'] ?? ''} ${a['id'] ?? ''} ${parentOf(el)?.attribs['class'] ?? ''}`;
  const url = resolveUrl(largestImageSource(el), page.baseUrl);
  if (!url || NOT_A_PICTURE.test(`${names} ${new URL(url).pathname}`) || /\.svg$/i.test(new URL(url).pathname)) return null;
  const alt = cleanText(a['alt']).slice(0, 300);
  if (alt && isThirdPartyLabel(alt, page.label, brandName) && alt.split(' ').length <= 2) return null;
  const width = Number(a['width']);
  const height = Number(a['height']);
  if ((width > 0 && width < MIN_NATURAL_SIDE) || (height > 0 && height < MIN_NATURAL_SIDE)) return null;
  let score = 40 - Math.min(index, 30);
  if (closest(el, CONTENT_ZONE) !== null) score += 15;
  if (closest(el, FOOTER_ZONE) !== null) score -= 25;
  if (/hero|banner|cover|feature/i.test(names)) score += 10;
  if (alt.split(/\s+/).length >= 3) score += 15;
  if (registrableDomain(url) === page.domain) score += 10;
  if (width >= 600 || height >= 400) score += 10;
  return { url, alt, score };
}

/**
 * A gallery also holds three or more images, so the logo-wall rule of logo-candidates.ts is narrowed here:
 * the container must be named for logos/clients/partners, or every image in it must lack a descriptive alt.
 */
function isLogoWallImage(page: HtmlPage, el: HtmlElement): boolean {
  if (!isInLogoWall(page.$, el)) return false;
  const chain = parentsOf(el).slice(0, 4);
  if (chain.some((n) => LOGO_WALL_NAME.test(`${n.attribs['class'] ?? ''} ${n.attribs['id'] ?? ''}`))) return true;
  const siblings = findIn(chain[chain.length - 1] ?? el, IMG);
  return siblings.every((img) => cleanText(img.attribs['alt']).split(' ').filter(Boolean).length <= 2);
}

/** Downloads the best candidates and returns the ranked pictures; `taken` holds logo hashes and banner srcs. */
export async function buildPictures(candidates: PictureCandidate[], deps: AssetDeps, taken: ReadonlySet<string>): Promise<Image[]> {
  const downloaded = await Promise.all(candidates.slice(0, MAX_DOWNLOADS).map(async (c) => ({ candidate: c, image: await ingestRemoteImage(c.url, deps) })));
  return rankPictures(downloaded, taken);
}

/** Pure ranking over downloaded candidates (see the module comment, step 3). */
export function rankPictures(downloaded: { candidate: PictureCandidate; image: IngestedImage | null }[], taken: ReadonlySet<string>): Image[] {
  const kept: { candidate: PictureCandidate; image: IngestedImage; score: number }[] = [];
  for (const { candidate, image } of downloaded) {
    if (!image || image.width === null || image.height === null || image.uniform || taken.has(image.sha256) || taken.has(image.original.src)) continue;
    const aspect = image.width / image.height;
    if (Math.min(image.width, image.height) < MIN_NATURAL_SIDE || aspect > 3 || aspect < 1 / 3) continue;
    const score = round(candidate.score + 10 * Math.log10((image.width * image.height) / 10_000));
    const twin = kept.find((k) => hammingDistance(k.image.dhash, image.dhash) <= DUPLICATE_BITS);
    if (twin && twin.score >= score) continue;
    if (twin) kept.splice(kept.indexOf(twin), 1);
    kept.push({ candidate, image, score });
  }
  return kept
    .sort((a, b) => b.score - a.score)
    .slice(0, MAX_PICTURES)
    .map(({ candidate, image, score }, rank) => ({
      formats: [image.original],
      tags: [],
      type: 'picture' as const,
      pictureMetadata: {
        score,
        rank: rank + 1,
        naturalWidth: image.width ?? 0,
        naturalHeight: image.height ?? 0,
        alt: candidate.alt,
        sourceUrl: candidate.url,
        imageCategory: null,
        categoryConfidence: null,
      },
    }));
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
