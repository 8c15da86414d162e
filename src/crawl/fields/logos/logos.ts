/**
 * Logos (spec 2.3): downloads the candidates found by logo-candidates.ts (≤ 12, in parallel within the crawl's
 * limit), then picks from what the pixels say, not from attributes:
 *   - `icon`: the best square app/favicon image: the largest raster ≥ 64 px, else an SVG, else the largest
 *     raster (the mask-icon is a monochrome silhouette, so it is a symbol candidate instead);
 *   - the primary mark from the header/metadata: aspect ≥ 1.5 → `logo`, square-ish → `symbol`, tall → `other`;
 *   - a `symbol` next to a wide logo: a square header/metadata mark or the mask-icon.
 * The same file (by hash) is listed once. Theme comes from the backdrop the page shows the mark on, else the
 * ingested pixels, else the file-name/alt hint (themeOf).
 * The variant for the other colour scheme is kept next to the primary mark; tags only where the file proves them
 * (logo-tags.ts). Each entry lists its original file only: the brand indexer adds the PNG/WebP renditions
 * before it saves the record (media/logo-renditions.ts, ADR 0008).
 */
import sharp from 'sharp';
import type { Logo, LogoType } from '../../../domain/brand.js';
import type { IngestedImage } from '../../../media/ingest-image.js';
import { ingestBytes, ingestRemoteImage, type AssetDeps, type CrawlAssetDeps } from '../../fetch/ingest-remote-image.js';
import { fetchResource } from '../../fetch/fetch-resource.js';
import type { IconCandidate, MarkCandidate } from './logo-candidates.js';
import type { SpriteCrop } from './logo-backgrounds.js';
import { svgMarkTag } from './logo-tags.js';
import { hexToRgb } from '../../../domain/color-math.js';
import { relativeLuminance } from '../../../media/oklab.js';
import { themeOnBackdrop } from '../../../media/logo-theme.js';
import type { LogoDecisionReason, LogoEvidence } from '../../../domain/logo-evidence.js';
import { traceLogoDecision, type LogoChoice } from './logo-trace.js';

export interface LogosResult {
  logos: Logo[];
  /** Dominant colours of the primary mark (or the icon when there is none), for colors.ts. */
  logoColors: { hex: string; share: number }[];
  /** sha256 of every stored logo file, so images.ts does not list a logo again as a banner. */
  hashes: Set<string>;
  /** The ingested image behind each entry of `logos`, same order (tags are made from them). */
  images: IngestedImage[];
}

export interface IngestedIcon {
  candidate: IconCandidate;
  image: IngestedImage;
}

export interface IngestedMark {
  candidate: MarkCandidate;
  image: IngestedImage;
}

const MIN_PREFERRED_ICON = 64;
const MAX_SPRITE_BYTES = 5 * 1024 * 1024;

/** The logos and the trace of how they were chosen (the brand page's "why this logo", ADR 0044). */
export interface BuiltLogos extends LogosResult {
  evidence: LogoEvidence;
}

export async function buildLogos(icons: IconCandidate[], marks: MarkCandidate[], deps: CrawlAssetDeps, brandName: string | null = null): Promise<BuiltLogos> {
  // Candidates are judged from memory; only the chosen files reach the asset store.
  const [ingestedIcons, ingestedMarks] = await Promise.all([
    Promise.all(icons.map(async (candidate) => ({ candidate, image: await ingestRemoteImage(candidate.url, deps) }))),
    Promise.all(marks.map(async (candidate) => ({ candidate, image: await ingestMark(candidate, deps) }))),
  ]);
  const { result, choices } = chooseWithReasons(present(ingestedIcons), present(ingestedMarks));
  const evidence = traceLogoDecision(ingestedIcons, ingestedMarks, choices, isSquare);
  return { ...result, logos: await deps.assets.commitAll(await finishLogos(result, deps, brandName)), evidence };
}

/** Adds the tags the files prove (logo-tags.ts) to the chosen entries. */
async function finishLogos(result: LogosResult, deps: AssetDeps, brandName: string | null): Promise<Logo[]> {
  return Promise.all(
    result.logos.map(async (logo, i) => {
      const image = result.images[i];
      return image ? { ...logo, tags: await tagsOf(image, logo.type, deps, brandName) } : logo;
    }),
  );
}

async function tagsOf(image: IngestedImage, type: LogoType, deps: AssetDeps, brandName: string | null): Promise<string[]> {
  if (image.original.format !== 'svg') return [];
  const stored = await deps.assets.get(image.assetKey);
  const tag = stored ? svgMarkTag(stored.bytes.toString('utf8'), type, brandName) : null;
  return tag ? [tag] : [];
}

function present<T extends { image: IngestedImage | null }>(list: T[]): (T & { image: IngestedImage })[] {
  // Blank or single-colour files are placeholders (spec 2.3), never a brand's logo or icon.
  return list.filter((x): x is T & { image: IngestedImage } => x.image !== null && !x.image.uniform);
}

async function ingestMark(candidate: MarkCandidate, deps: AssetDeps): Promise<IngestedImage | null> {
  if (candidate.svg) return ingestBytes(Buffer.from(candidate.svg, 'utf8'), deps);
  if (!candidate.url) return null;
  return candidate.crop ? ingestSpriteBox(candidate.url, candidate.crop, deps) : ingestRemoteImage(candidate.url, deps);
}

/** Only the sprite sheet's box that CSS shows is the logo: cut it out before ingesting. */
async function ingestSpriteBox(url: string, crop: SpriteCrop, deps: AssetDeps): Promise<IngestedImage | null> {
  const res = await fetchResource(deps.fetcher, deps.budget, url, { maxBytes: MAX_SPRITE_BYTES, accept: 'image/*' });
  if (!res) return null;
  try {
    const image = sharp(res.body, { limitInputPixels: deps.budget.limits.images.maxPixels, failOn: 'error' });
    const meta = await image.metadata();
    if (!meta.width || !meta.height || crop.left + crop.width > meta.width || crop.top + crop.height > meta.height) return null;
    return ingestBytes(await image.extract(crop).png().toBuffer(), deps);
  } catch {
    return null;
  }
}

interface Chosen {
  image: IngestedImage;
  type: LogoType;
  reason: LogoDecisionReason;
  hint: 'dark' | 'light' | null;
  backdrop?: (() => string | null) | undefined;
}

/** A chosen mark with what the page tells about it: its hint, and the backdrop unless it is a dark-scheme variant. */
function chosenMark(m: IngestedMark, type: LogoType, reason: LogoDecisionReason): Chosen {
  // The backdrop found in the page's rules is the default scheme's: a dark-scheme variant is shown on another.
  const backdrop = m.candidate.scheme === 'dark' ? undefined : m.candidate.backdrop;
  return { image: m.image, type, reason, hint: m.candidate.themeHint, backdrop };
}

/** Pure selection over ingested candidates (marks in descending candidate score). */
export function chooseLogos(icons: IngestedIcon[], marks: IngestedMark[]): LogosResult {
  return chooseWithReasons(icons, marks).result;
}

/** chooseLogos, and each file it picked with the reason (logo-trace.ts). */
function chooseWithReasons(icons: IngestedIcon[], marks: IngestedMark[]): { result: LogosResult; choices: LogoChoice[] } {
  const chosen: Chosen[] = [];
  const primary = marks.find((m) => m.candidate.scheme !== 'dark') ?? marks[0];
  if (primary) {
    const type = markType(primary.image);
    chosen.push(chosenMark(primary, type, 'primary-mark'));
    const variant = schemeVariant(primary, marks, type);
    if (variant) chosen.push(chosenMark(variant, type, 'scheme-variant'));
    if (type === 'logo') {
      const symbol = marks.find((m) => m !== primary && m !== variant && !m.candidate.scheme && markType(m.image) === 'symbol')
        ?? icons.find((i) => i.candidate.kind === 'mask-icon' && isSquare(i.image));
      if (symbol) chosen.push({ image: symbol.image, type: 'symbol', reason: 'symbol-beside-logo', hint: null, backdrop: 'backdrop' in symbol.candidate ? symbol.candidate.backdrop : undefined });
    }
  }
  const icon = chooseIcon(icons);
  if (icon) chosen.push({ image: icon, type: 'icon', reason: 'best-icon', hint: null });
  const hashes = new Set<string>();
  const logos: Logo[] = [];
  const images: IngestedImage[] = [];
  for (const c of chosen) {
    if (hashes.has(c.image.sha256)) continue;
    hashes.add(c.image.sha256);
    logos.push({ theme: themeOf(c), formats: [c.image.original], tags: [], type: c.type });
    images.push(c.image);
  }
  const colorSource = primary?.image ?? icon;
  const logoColors = colorSource ? colorSource.dominantColors.map((c) => ({ hex: c.hex, share: c.share })) : [];
  return { result: { logos, logoColors, hashes, images }, choices: chosen.map(({ image, type, reason }) => ({ image, type, reason })) };
}

/**
 * Spec 2.3 `theme` says which background the logo is made for, so the background the site shows it on decides
 * first (issue 16): a mark on transparency, standing out from the colour the page paints behind it, is `dark`
 * on a light backdrop and `light` on a dark one, whatever its own colours (a mid-tone coral mark on a white
 * header is `dark`). An opaque file shows its mark on its own plate, which decided already (media/logo-theme.ts).
 * Only when the backdrop is unknown, mid-tone or one the mark would vanish on do the mark's own pixels decide,
 * then the file-name/scheme hint.
 */
function themeOf(c: Chosen): 'dark' | 'light' | null {
  return backdropTheme(c) ?? c.image.theme ?? c.hint ?? null;
}

function backdropTheme(c: Chosen): 'dark' | 'light' | null {
  const seen = c.image.lightness;
  if (!seen || seen.plate !== null || !c.backdrop) return null;
  const color = c.backdrop();
  if (!color) return null;
  const [r, g, b] = hexToRgb(color);
  return themeOnBackdrop(seen.mark, relativeLuminance(r, g, b));
}

/** The other colour scheme's version of the primary mark (both are kept, spec 2.3 / issue 4 item 3). */
function schemeVariant(primary: IngestedMark, marks: IngestedMark[], type: LogoType): IngestedMark | undefined {
  const scheme = primary.candidate.scheme;
  if (!scheme) return undefined;
  return marks.find((m) => m !== primary && m.candidate.scheme && m.candidate.scheme !== scheme && markType(m.image) === type);
}

export function markType(image: IngestedImage): LogoType {
  if (image.width === null || image.height === null) return 'other';
  const aspect = image.width / image.height;
  if (aspect >= 1.5) return 'logo';
  return aspect >= 0.67 ? 'symbol' : 'other';
}

export function isSquare(image: IngestedImage): boolean {
  if (image.width === null || image.height === null) return false;
  return Math.abs(image.width - image.height) <= 0.1 * Math.max(image.width, image.height);
}

export function chooseIcon(icons: IngestedIcon[]): IngestedImage | null {
  const square = icons.filter((i) => i.candidate.kind !== 'mask-icon' && isSquare(i.image)).map((i) => i.image);
  const rasters = square.filter((i) => i.original.format !== 'svg').sort((a, b) => (b.width ?? 0) - (a.width ?? 0));
  const big = rasters.find((i) => (i.width ?? 0) >= MIN_PREFERRED_ICON);
  return big ?? square.find((i) => i.original.format === 'svg') ?? rasters[0] ?? null;
}
