import { createHash } from 'node:crypto';
import sharp from 'sharp';
import type { Sharp, SharpOptions } from 'sharp';
import type { Format, ImageFormat } from '../domain/brand.js';
import type { AssetStore, StoredAsset } from './asset-store.js';
import { decodeBmpFile } from './decode-bmp-file.js';
import { declaredSvgColors } from './declared-svg-colors.js';
import { dominantColors } from './dominant-colors.js';
import type { DominantColor } from './dominant-colors.js';
import { largestIcoEntry } from './largest-ico-entry.js';
import { logoTheme } from './logo-theme.js';
import { differenceHash } from './perceptual-hash.js';
import { assertPixelLimit, PixelLimitError } from './pixel-limit-error.js';
import type { RgbaRaster } from './rgba-raster.js';
import { sniff } from './sniff.js';
import type { SniffedType } from './sniff.js';
import { sanitizeSvg, svgDimensions, svgFittedTo } from './svg.js';
import { hasTransparentEdges } from './transparent-edges.js';
import { isUniformImage } from './uniform-image.js';

export interface IngestOptions {
  /** Spec 2.4: images smaller than this on either side are not stored. Default 16. */
  minSide?: number;
  /** Decoded pixel budget (width × height). Default 40 Mpx. */
  maxPixels?: number;
  /** Input byte budget. Default 10 MB. */
  maxBytes?: number;
}

export interface IngestedImage {
  /** The stored file's Format record (src = asset URL, format = stored type, size = stored bytes). */
  original: Format;
  /** Sniffed type of the input bytes, e.g. 'ico' when the stored file is its PNG conversion. */
  sourceFormat: SniffedType;
  width: number | null;
  height: number | null;
  transparentEdges: boolean;
  theme: 'dark' | 'light' | null;
  /** Solid-pixel colour clusters, largest first, at most 6. */
  dominantColors: DominantColor[];
  /** sha256 hex of the stored bytes. */
  sha256: string;
  /** Asset-store key of the stored file, for renditions made from it later. */
  assetKey: string;
  /** Blank or single-colour (see uniform-image.ts): the spec's `placeholder`. */
  uniform: boolean;
  /** Perceptual hash (see perceptual-hash.ts) for collapsing near-duplicates. */
  dhash: string;
}

export type IngestFailureReason = 'not_an_image' | 'too_small' | 'undecodable' | 'too_large' | 'unsafe_svg';

export type IngestResult = { ok: true; image: IngestedImage } | { ok: false; reason: IngestFailureReason };

/** What a decoder hands over: the file to store, its real size and a small raster to analyse. */
interface Prepared {
  stored: Buffer;
  ext: ImageFormat;
  width: number | null;
  height: number | null;
  raster: RgbaRaster;
  /** Exact colours to snap clusters to (SVG paint values). */
  declaredColors: string[];
}

type Limits = Required<IngestOptions>;
type Failure = { reason: IngestFailureReason };

const DEFAULT_LIMITS: Limits = { minSide: 16, maxPixels: 40_000_000, maxBytes: 10 * 1024 * 1024 };
/** Analysis works on a ≤128 px preview: enough for edges, theme and colours, cheap to loop over. */
const ANALYSIS_SIZE = 128;
const SHARP_TIMEOUT_SECONDS = 10;

/**
 * The single entry point for turning downloaded bytes into a stored asset plus what the crawler needs to
 * know about it. Never throws for bad input (only when the asset store itself fails).
 */
export async function ingestImage(bytes: Buffer, assets: AssetStore, opts: IngestOptions = {}): Promise<IngestResult> {
  const limits = resolveLimits(opts);
  if (bytes.length > limits.maxBytes) return { ok: false, reason: 'too_large' };
  const sourceFormat = await sniff(bytes);
  if (!sourceFormat) return { ok: false, reason: 'not_an_image' };
  const prepared = await prepareSafely(bytes, sourceFormat, limits);
  if ('reason' in prepared) return { ok: false, reason: prepared.reason };
  const asset = await assets.put(prepared.stored, prepared.ext);
  return { ok: true, image: describe(prepared, asset, sourceFormat) };
}

function resolveLimits(opts: IngestOptions): Limits {
  return {
    minSide: opts.minSide ?? DEFAULT_LIMITS.minSide,
    maxPixels: opts.maxPixels ?? DEFAULT_LIMITS.maxPixels,
    maxBytes: opts.maxBytes ?? DEFAULT_LIMITS.maxBytes,
  };
}

async function prepareSafely(bytes: Buffer, type: SniffedType, limits: Limits): Promise<Prepared | Failure> {
  try {
    return type === 'svg' ? await prepareSvg(bytes, limits) : await prepareRaster(bytes, type, limits);
  } catch (error) {
    return { reason: isPixelLimit(error) ? 'too_large' : 'undecodable' };
  }
}

function isPixelLimit(error: unknown): boolean {
  return error instanceof PixelLimitError || (error instanceof Error && /pixel limit/i.test(error.message));
}

async function prepareSvg(bytes: Buffer, limits: Limits): Promise<Prepared | Failure> {
  const clean = sanitizeSvg(new TextDecoder().decode(bytes));
  if (!clean) return { reason: 'unsafe_svg' };
  const { width, height } = svgDimensions(clean);
  // Undeclared sides cannot be judged; a declared one below the minimum can.
  if ((width !== null && width < limits.minSide) || (height !== null && height < limits.minSide)) {
    return { reason: 'too_small' };
  }
  const preview = svgFittedTo(clean, ANALYSIS_SIZE) ?? clean;
  const raster = await analysisRaster(sharp(Buffer.from(preview), sharpOptions(limits)));
  return { stored: Buffer.from(clean, 'utf8'), ext: 'svg', width, height, raster, declaredColors: declaredSvgColors(clean) };
}

interface Decoded {
  stored: Buffer;
  ext: ImageFormat;
  width: number;
  height: number;
}

async function prepareRaster(bytes: Buffer, type: Exclude<SniffedType, 'svg'>, limits: Limits): Promise<Prepared | Failure> {
  const decoded = await decodeForStorage(bytes, type, limits);
  if (decoded.width < limits.minSide || decoded.height < limits.minSide) return { reason: 'too_small' };
  // autoOrient: a JPEG stored as-is is displayed rotated per EXIF, so it is analysed that way too.
  const raster = await analysisRaster(sharp(decoded.stored, sharpOptions(limits)).autoOrient());
  return { ...decoded, raster, declaredColors: [] };
}

/** PNG, JPEG and WebP are kept byte for byte; other types become PNG (spec formats: svg, webp, png, jpeg). */
async function decodeForStorage(bytes: Buffer, type: Exclude<SniffedType, 'svg'>, limits: Limits): Promise<Decoded> {
  switch (type) {
    case 'png':
    case 'jpeg':
    case 'webp':
      return { stored: bytes, ext: type, ...(await headerSize(bytes, limits)) };
    case 'gif':
    case 'avif':
      await headerSize(bytes, limits);
      return toPng(sharp(bytes, sharpOptions(limits)).autoOrient());
    case 'bmp':
      return toPng(fromRaster(decodeBmpFile(bytes, limits.maxPixels)));
    case 'ico': {
      const entry = largestIcoEntry(bytes, limits.maxPixels);
      return toPng(entry.kind === 'png' ? sharp(entry.png, sharpOptions(limits)) : fromRaster(entry.raster));
    }
  }
}

/** Displayed size from the header only (EXIF rotation applied), checked against the pixel cap before decoding. */
async function headerSize(bytes: Buffer, limits: Limits): Promise<{ width: number; height: number }> {
  const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.pageHeight ?? meta.height;
  if (!width || !height) throw new Error('image without dimensions');
  assertPixelLimit(width, height, limits.maxPixels);
  return { width, height };
}

async function toPng(image: Sharp): Promise<Decoded> {
  const { data, info } = await image.png().timeout({ seconds: SHARP_TIMEOUT_SECONDS }).toBuffer({ resolveWithObject: true });
  return { stored: data, ext: 'png', width: info.width, height: info.height };
}

function fromRaster(raster: RgbaRaster): Sharp {
  return sharp(raster.data, { raw: { width: raster.width, height: raster.height, channels: 4 } });
}

function sharpOptions(limits: Limits): SharpOptions {
  // failOn 'error' tolerates the benign warnings real-world favicons are full of, but not broken data.
  return { limitInputPixels: limits.maxPixels, failOn: 'error' };
}

async function analysisRaster(image: Sharp): Promise<RgbaRaster> {
  const { data, info } = await image
    .resize({ width: ANALYSIS_SIZE, height: ANALYSIS_SIZE, fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .ensureAlpha()
    .raw()
    .timeout({ seconds: SHARP_TIMEOUT_SECONDS })
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 4) throw new Error(`unexpected channel count ${info.channels}`);
  return { data, width: info.width, height: info.height };
}

function describe(prepared: Prepared, asset: StoredAsset, sourceFormat: SniffedType): IngestedImage {
  const { raster, ext, width, height } = prepared;
  const transparentEdges = ext !== 'jpeg' && hasTransparentEdges(raster);
  return {
    original: { src: asset.url, format: ext, width, height, size: asset.size, background: transparentEdges ? 'transparent' : null },
    sourceFormat,
    width,
    height,
    transparentEdges,
    theme: logoTheme(raster),
    dominantColors: dominantColors(raster, prepared.declaredColors),
    sha256: createHash('sha256').update(prepared.stored).digest('hex'),
    assetKey: asset.key,
    uniform: isUniformImage(raster),
    dhash: differenceHash(raster),
  };
}
