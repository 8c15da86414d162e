import { createHash } from 'node:crypto';
import sharp from 'sharp';
import type { Sharp, SharpOptions } from 'sharp';
import type { Format, ImageFormat } from '../domain/brand.js';
import type { AssetStore, StoredAsset } from '../assets/asset-store.js';
import { decodeBmpFile } from './decode-bmp-file.js';
import { decodePng, readPngHeader } from './decode-png.js';
import { declaredSvgColors } from './declared-svg-colors.js';
import { dominantColors } from './dominant-colors.js';
import type { DominantColor } from './dominant-colors.js';
import { DEFAULT_IMAGE_LIMITS } from './image-limits.js';
import { largestIcoEntry } from './largest-ico-entry.js';
import { markLightness, themeOfLightness, type MarkLightness } from './logo-theme.js';
import { differenceHash } from './perceptual-hash.js';
import { assertPixelLimit, PixelLimitError } from './pixel-limit-error.js';
import { rasterizeSvg } from './rasterize-svg.js';
import type { RgbaRaster } from './rgba-raster.js';
import { shrinkRaster } from './shrink-raster.js';
import { sniff } from './sniff.js';
import type { SniffedType } from './sniff.js';
import { sanitizeSvgWithPreview } from './svg.js';
import type { SanitizedSvg } from './svg.js';
import { hasTransparentEdges } from './transparent-edges.js';
import { isUniformImage } from './uniform-image.js';

export interface IngestOptions {
  /** Spec 2.4: images smaller than this on either side are not stored. Default 16. */
  minSide?: number;
  /** Decoded pixel budget (width × height). Default 40 Mpx (image-limits.ts). */
  maxPixels?: number;
  /** Pixel budget of a BMP file, and of an ICO file's entries all together (decoded in JS). Default 1 Mpx. */
  maxBitmapPixels?: number;
  /** Input byte budget. Default 10 MB. */
  maxBytes?: number;
}

export interface IngestedImage {
  /** The stored file's Format record (src = asset key, format = stored type, size = stored bytes). */
  original: Format;
  /** Sniffed type of the input bytes, e.g. 'ico' when the stored file is its PNG conversion. */
  sourceFormat: SniffedType;
  width: number | null;
  height: number | null;
  transparentEdges: boolean;
  /** The theme the pixels alone give (the mark's own lightness, or the plate of an opaque file). */
  theme: 'dark' | 'light' | null;
  /**
   * The mark's and its plate's luminance, for judging it against the backdrop a page shows it on
   * (crawl/fields/logos/logos.ts); absent where an image was described without pixels.
   */
  lightness?: MarkLightness | null;
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

const DEFAULT_LIMITS: Limits = { minSide: 16, ...DEFAULT_IMAGE_LIMITS, maxBytes: 10 * 1024 * 1024 };
/**
 * Analysis works on a small preview, enough for edges, theme and colours and cheap to loop over: about 64×64
 * pixels' worth, so 64 px for a square, more for a wide wordmark (whose strokes would otherwise thin out to
 * nothing), up to 128 px.
 */
const ANALYSIS_PIXELS = 64 * 64;
const MAX_ANALYSIS_SIDE = 128;
const SHARP_TIMEOUT_SECONDS = 10;
/**
 * PNGs up to this size are decoded in JS (a few ms at most on the event loop); bigger ones go to sharp, which
 * shrinks them on its own threads.
 */
const MAX_JS_DECODE_PIXELS = 512 * 512;
/** Text needs fonts, which resvg would load from disk on every call; librsvg (sharp) keeps them loaded. */
const SVG_TEXT = /<(?:[\w.-]+:)?text[\s>/]/i;
const SHA256_KEY = /^([0-9a-f]{64})\./;

/**
 * The single entry point for turning downloaded bytes into a stored asset plus what the crawler needs to
 * know about it. Never throws for bad input (only when the asset store itself fails). Typical favicons and
 * logos never touch sharp: PNGs are decoded by decode-png.ts and SVGs rendered by resvg; sharp decodes JPEG,
 * WebP, GIF and AVIF (and whatever those fast paths leave to it) and encodes the PNG stored for GIF, AVIF,
 * ICO and BMP input.
 */
export async function ingestImage(bytes: Buffer, assets: AssetStore, opts: IngestOptions = {}): Promise<IngestResult> {
  const limits = resolveLimits(opts);
  if (bytes.length > limits.maxBytes) return { ok: false, reason: 'too_large' };
  const sourceFormat = sniff(bytes);
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
    maxBitmapPixels: opts.maxBitmapPixels ?? DEFAULT_LIMITS.maxBitmapPixels,
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
  const parsed = sanitizeSvgWithPreview(new TextDecoder().decode(bytes));
  if (!parsed) return { reason: 'unsafe_svg' };
  const { width, height } = parsed.size;
  // Undeclared sides cannot be judged; a declared one below the minimum can.
  if ((width !== null && width < limits.minSide) || (height !== null && height < limits.minSide)) {
    return { reason: 'too_small' };
  }
  const preview = parsed.fittedTo(width !== null && height !== null ? analysisSide(width, height) : MAX_ANALYSIS_SIDE);
  const raster = svgRaster(parsed, preview) ?? (await analysisRaster(sharp(Buffer.from(preview), sharpOptions(limits))));
  return { stored: Buffer.from(parsed.svg, 'utf8'), ext: 'svg', width, height, raster, declaredColors: declaredSvgColors(parsed.svg) };
}

/**
 * resvg's raster of the analysis preview, or null where sharp (librsvg) renders it as before: text (fonts),
 * embedded images (see rasterize-svg.ts), no declared size (librsvg sizes those by their drawing, which is also
 * what refuses absurd ones), or a document resvg rejects.
 */
function svgRaster(parsed: SanitizedSvg, preview: string): RgbaRaster | null {
  if (parsed.size.width === null || parsed.size.height === null || SVG_TEXT.test(parsed.svg)) return null;
  try {
    return rasterizeSvg(preview);
  } catch {
    return null;
  }
}

interface Decoded {
  stored: Buffer;
  ext: ImageFormat;
  width: number;
  height: number;
}

/**
 * PNG (an ICO's PNG entry too), JPEG and WebP are kept byte for byte; GIF, AVIF, BMP and BMP icon entries become
 * PNG (spec formats: svg, webp, png, jpeg).
 */
async function prepareRaster(bytes: Buffer, type: Exclude<SniffedType, 'svg'>, limits: Limits): Promise<Prepared | Failure> {
  switch (type) {
    case 'png':
      return preparePng(bytes, limits);
    case 'jpeg':
    case 'webp':
      return withSharpRaster({ stored: bytes, ext: type, ...(await headerSize(bytes, limits)) }, limits);
    case 'gif':
    case 'avif': {
      await headerSize(bytes, limits);
      const decoded = await toPng(sharp(bytes, sharpOptions(limits)).autoOrient());
      return withRaster(decoded, limits, () => pngRaster(decoded.stored, limits));
    }
    case 'bmp':
      return fromRaster(decodeBmpFile(bytes, bitmapBudget(limits)), limits);
    case 'ico': {
      // Only the chosen entry is decoded, within one budget for the whole file (largest-ico-entry.ts).
      const entry = largestIcoEntry(bytes, bitmapBudget(limits));
      return entry.kind === 'raster' ? fromRaster(entry.raster, limits) : preparePng(entry.png, limits);
    }
  }
}

/** The budget of the formats decoded in JS (BMP, ICO), never above the budget of any image. */
function bitmapBudget(limits: Limits): number {
  return Math.min(limits.maxPixels, limits.maxBitmapPixels);
}

/** PNGs are kept byte for byte; size and the pixel cap come from IHDR, checked before anything is inflated. */
async function preparePng(bytes: Buffer, limits: Limits): Promise<Prepared | Failure> {
  const { width, height } = readPngHeader(bytes);
  assertPixelLimit(width, height, limits.maxPixels);
  if (width < limits.minSide || height < limits.minSide) return { reason: 'too_small' };
  const raster = pngRaster(bytes, limits);
  if (raster) return { stored: bytes, ext: 'png', width, height, raster, declaredColors: [] };
  // EXIF orientation, colour profiles and the like: sharp reads the displayed size and decodes as before.
  return withSharpRaster({ stored: bytes, ext: 'png', ...(await headerSize(bytes, limits)) }, limits);
}

/** The analysis raster of a PNG from decode-png.ts, or null when it is too big for the JS decoder or odd. */
function pngRaster(png: Uint8Array, limits: Limits): RgbaRaster | null {
  const { width, height } = readPngHeader(png);
  if (width * height > MAX_JS_DECODE_PIXELS) return null;
  const decoded = decodePng(png, limits.maxPixels);
  return decoded && shrinkRaster(decoded, analysisSide(width, height));
}

/** BMP files and BMP icon entries arrive decoded: only the stored PNG needs sharp. */
async function fromRaster(raster: RgbaRaster, limits: Limits): Promise<Prepared | Failure> {
  const image = sharp(raster.data, { raw: { width: raster.width, height: raster.height, channels: 4 } });
  return withRaster(await toPng(image), limits, () => shrinkRaster(raster, analysisSide(raster.width, raster.height)));
}

/** Size check, then the analysis raster from `fast` or, when it declines, from sharp as for any file. */
async function withRaster(decoded: Decoded, limits: Limits, fast: () => RgbaRaster | null): Promise<Prepared | Failure> {
  if (decoded.width < limits.minSide || decoded.height < limits.minSide) return { reason: 'too_small' };
  const raster = fast();
  return raster ? { ...decoded, raster, declaredColors: [] } : withSharpRaster(decoded, limits);
}

async function withSharpRaster(decoded: Decoded, limits: Limits): Promise<Prepared | Failure> {
  if (decoded.width < limits.minSide || decoded.height < limits.minSide) return { reason: 'too_small' };
  // autoOrient: a JPEG stored as-is is displayed rotated per EXIF, so it is analysed that way too.
  const side = analysisSide(decoded.width, decoded.height);
  const raster = await analysisRaster(sharp(decoded.stored, sharpOptions(limits)).autoOrient(), side);
  return { ...decoded, raster, declaredColors: [] };
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

function sharpOptions(limits: Limits): SharpOptions {
  // failOn 'error' tolerates the benign warnings real-world favicons are full of, but not broken data.
  return { limitInputPixels: limits.maxPixels, failOn: 'error' };
}

/** Longest side of the analysis raster for an image of this size (see ANALYSIS_PIXELS). */
function analysisSide(width: number, height: number): number {
  const aspect = Math.max(width, height) / Math.max(1, Math.min(width, height));
  return Math.min(MAX_ANALYSIS_SIDE, Math.round(Math.sqrt(ANALYSIS_PIXELS * aspect)));
}

async function analysisRaster(image: Sharp, side = MAX_ANALYSIS_SIDE): Promise<RgbaRaster> {
  const { data, info } = await image
    .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true })
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
  const lightness = markLightness(raster);
  return {
    original: { src: asset.key, format: ext, width, height, size: asset.size, background: transparentEdges ? 'transparent' : null },
    sourceFormat,
    width,
    height,
    transparentEdges,
    theme: themeOfLightness(lightness),
    lightness,
    dominantColors: dominantColors(raster, prepared.declaredColors),
    sha256: contentHash(asset, prepared.stored),
    assetKey: asset.key,
    uniform: isUniformImage(raster),
    dhash: differenceHash(raster),
  };
}

/** Asset keys are `<sha256 hex>.<ext>` (see asset-store.ts), so the store has already hashed the bytes. */
function contentHash(asset: StoredAsset, stored: Buffer): string {
  return SHA256_KEY.exec(asset.key)?.[1] ?? createHash('sha256').update(stored).digest('hex');
}
