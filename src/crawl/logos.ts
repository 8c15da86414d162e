/**
 * Logos (spec 2.3): downloads the candidates found by logo-candidates.ts (≤ 12, in parallel within the crawl's
 * limit), then picks from what the pixels say, not from attributes:
 *   - `icon`: the best square app/favicon image: the largest raster ≥ 64 px, else an SVG, else the largest
 *     raster (the mask-icon is a monochrome silhouette, so it is a symbol candidate instead);
 *   - the primary mark from the header/metadata: aspect ≥ 1.5 → `logo`, square-ish → `symbol`, tall → `other`;
 *   - a `symbol` next to a wide logo: a square header/metadata mark or the mask-icon.
 * The same file (by hash) is listed once. Theme comes from the ingested pixels, else the file-name/alt hint.
 * Tags stay empty: the spec assigns one only when the image clearly is that kind, which needs a classifier.
 */
import type { Logo, LogoType } from '../domain/brand.js';
import type { IngestedImage } from '../media/ingest-image.js';
import { ingestBytes, ingestRemoteImage, type AssetDeps } from './ingest-remote-image.js';
import type { IconCandidate, MarkCandidate } from './logo-candidates.js';

export interface LogosResult {
  logos: Logo[];
  /** Dominant colours of the primary mark (or the icon when there is none), for colors.ts. */
  logoColors: { hex: string; share: number }[];
  /** sha256 of every stored logo file, so images.ts does not list a logo again as a banner. */
  hashes: Set<string>;
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

export async function buildLogos(icons: IconCandidate[], marks: MarkCandidate[], deps: AssetDeps): Promise<LogosResult> {
  const [ingestedIcons, ingestedMarks] = await Promise.all([
    Promise.all(icons.map(async (candidate) => ({ candidate, image: await ingestRemoteImage(candidate.url, deps) }))),
    Promise.all(marks.map(async (candidate) => ({ candidate, image: await ingestMark(candidate, deps) }))),
  ]);
  return chooseLogos(present(ingestedIcons), present(ingestedMarks));
}

function present<T extends { image: IngestedImage | null }>(list: T[]): (T & { image: IngestedImage })[] {
  return list.filter((x): x is T & { image: IngestedImage } => x.image !== null);
}

function ingestMark(candidate: MarkCandidate, deps: AssetDeps): Promise<IngestedImage | null> {
  if (candidate.svg) return ingestBytes(Buffer.from(candidate.svg, 'utf8'), deps);
  return candidate.url ? ingestRemoteImage(candidate.url, deps) : Promise.resolve(null);
}

/** Pure selection over ingested candidates (marks in descending candidate score). */
export function chooseLogos(icons: IngestedIcon[], marks: IngestedMark[]): LogosResult {
  const chosen: { image: IngestedImage; type: LogoType; hint: 'dark' | 'light' | null }[] = [];
  const primary = marks[0];
  if (primary) chosen.push({ image: primary.image, type: markType(primary.image), hint: primary.candidate.themeHint });
  if (primary && markType(primary.image) === 'logo') {
    const symbol = marks.slice(1).find((m) => markType(m.image) === 'symbol')?.image
      ?? icons.find((i) => i.candidate.kind === 'mask-icon' && isSquare(i.image))?.image;
    if (symbol) chosen.push({ image: symbol, type: 'symbol', hint: null });
  }
  const icon = chooseIcon(icons);
  if (icon) chosen.push({ image: icon, type: 'icon', hint: null });
  const hashes = new Set<string>();
  const logos: Logo[] = [];
  for (const c of chosen) {
    if (hashes.has(c.image.sha256)) continue;
    hashes.add(c.image.sha256);
    logos.push({ theme: c.image.theme ?? c.hint, formats: [c.image.original], tags: [], type: c.type });
  }
  const colorSource = primary?.image ?? icon;
  const logoColors = colorSource ? colorSource.dominantColors.map((c) => ({ hex: c.hex, share: c.share })) : [];
  return { logos, logoColors, hashes };
}

export function markType(image: IngestedImage): LogoType {
  if (image.width === null || image.height === null) return 'other';
  const aspect = image.width / image.height;
  if (aspect >= 1.5) return 'logo';
  return aspect >= 0.67 ? 'symbol' : 'other';
}

function isSquare(image: IngestedImage): boolean {
  if (image.width === null || image.height === null) return false;
  return Math.abs(image.width - image.height) <= 0.1 * Math.max(image.width, image.height);
}

export function chooseIcon(icons: IngestedIcon[]): IngestedImage | null {
  const square = icons.filter((i) => i.candidate.kind !== 'mask-icon' && isSquare(i.image)).map((i) => i.image);
  const rasters = square.filter((i) => i.original.format !== 'svg').sort((a, b) => (b.width ?? 0) - (a.width ?? 0));
  const big = rasters.find((i) => (i.width ?? 0) >= MIN_PREFERRED_ICON);
  return big ?? square.find((i) => i.original.format === 'svg') ?? rasters[0] ?? null;
}
