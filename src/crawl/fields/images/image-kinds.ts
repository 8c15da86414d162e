/**
 * Tags and category of the listed banners and pictures (spec 2.6) from the image-kind model (media/image-kind.ts,
 * docs/images.md): each file is read back from the crawl's staged store, sampled to 160 px and classified. Only the
 * tags a type may carry are kept (banners: photographic, illustration; pictures: photographic, illustration,
 * screenshot), and only at the model's high-precision thresholds. Pictures also get imageCategory and its
 * confidence, or null. SVG files and anything that fails to decode, or runs past the crawl budget, stay untagged.
 */
import type { Image } from '../../../domain/brand.js';
import type { AssetStore } from '../../../assets/asset-store.js';
import { classificationRaster } from '../../../media/classification-raster.js';
import { imageFeatures } from '../../../media/image-features.js';
import { classifyImageKind, type ImageKindVerdict, type TaggedKind } from '../../../media/image-kind.js';
import type { AnalysisMemo } from '../../analysis-memo.js';
import { raceAbort } from '../../crawl-budget.js';

const ALLOWED_TAGS: Record<'banner' | 'picture', readonly TaggedKind[]> = {
  banner: ['photographic', 'illustration'],
  picture: ['photographic', 'illustration', 'screenshot'],
};
const RASTER = new Set(['png', 'jpeg', 'webp']);

/** `memo`: the crawl's content-hash cache; a file classified by the domain's last crawl is not classified again. */
export async function withImageKinds(images: Image[], assets: Pick<AssetStore, 'get'>, signal: AbortSignal, memo?: AnalysisMemo): Promise<Image[]> {
  return Promise.all(images.map((image) => withKind(image, assets, signal, memo)));
}

async function withKind(image: Image, assets: Pick<AssetStore, 'get'>, signal: AbortSignal, memo?: AnalysisMemo): Promise<Image> {
  if (image.type === 'other') return image;
  const verdict = await judgeOnce(image, assets, signal, memo);
  return verdict ? applyVerdict(image, verdict) : image;
}

async function judgeOnce(image: Image, assets: Pick<AssetStore, 'get'>, signal: AbortSignal, memo?: AnalysisMemo): Promise<ImageKindVerdict | null> {
  const key = image.formats[0]?.src;
  const cached = memo && key !== undefined ? memo.cachedKind(key) : undefined;
  if (cached !== undefined) return cached;
  const verdict = await judge(image, assets, signal);
  // A verdict lost to the crawl budget is not a verdict: only finished classifications are kept.
  if (memo && key !== undefined && !signal.aborted) memo.rememberKind(key, verdict);
  return verdict;
}

async function judge(image: Image, assets: Pick<AssetStore, 'get'>, signal: AbortSignal): Promise<ImageKindVerdict | null> {
  const format = image.formats[0];
  if (!format || !RASTER.has(format.format)) return null;
  try {
    const file = await assets.get(format.src);
    if (!file) return null;
    return classifyImageKind(imageFeatures(await raceAbort(classificationRaster(file.bytes), signal)));
  } catch {
    return null;
  }
}

/** The verdict's tags a banner or picture may carry, and a picture's category. */
export function applyVerdict(image: Image, verdict: ImageKindVerdict): Image {
  const type = image.type;
  if (type === 'other') return image;
  const tags = verdict.tags.filter((t) => ALLOWED_TAGS[type].includes(t));
  if (!image.pictureMetadata) return { ...image, tags };
  return { ...image, tags, pictureMetadata: { ...image.pictureMetadata, imageCategory: verdict.category, categoryConfidence: verdict.confidence } };
}
