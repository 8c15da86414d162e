/**
 * `palette.logos` (spec 2.8): the colours of each logo file the brand record lists, with their coverage (share
 * of the solid pixels), read from the stored files themselves: the SVG when the logo has one (rendered by resvg,
 * its declared fills snapping the clusters to exact values), else the PNG. Files that cannot be read are left
 * out. The first `logo` (else the first entry) is the primary one.
 */
import type { AssetStore } from '../assets/asset-store.js';
import type { Logo } from '../domain/brand.js';
import type { PaletteLogo } from '../domain/palette.js';
import { declaredSvgColors } from '../media/declared-svg-colors.js';
import { decodePng } from '../media/decode-png.js';
import { dominantColors } from '../media/dominant-colors.js';
import type { RgbaRaster } from '../media/rgba-raster.js';

/** Logo files are small; this bounds a hostile PNG's inflation (4 megapixels). */
const MAX_LOGO_PIXELS = 4_000_000;
const MAX_LOGOS = 8;

export type LogoFileReader = Pick<AssetStore, 'get'>;

/** An SVG's pixels at its declared size (media/rasterize-svg.ts), drawn off the API's thread (issue 33: the SVG render pool). */
export type SvgRasterizer = (svg: string) => Promise<RgbaRaster>;

export async function paletteLogos(logos: readonly Logo[], files: LogoFileReader, rasterize: SvgRasterizer): Promise<PaletteLogo[]> {
  const primaryIndex = Math.max(0, logos.findIndex((l) => l.type === 'logo'));
  const out: PaletteLogo[] = [];
  for (const [i, logo] of logos.slice(0, MAX_LOGOS).entries()) {
    const file = logo.formats.find((f) => f.format === 'svg') ?? logo.formats.find((f) => f.format === 'png');
    if (!file) continue;
    const colors = await fileColors(file.src, file.format === 'svg' ? 'svg' : 'png', files, rasterize);
    if (!colors || colors.length === 0) continue;
    out.push({
      asset: logo.type === 'icon' ? 'icon' : 'logo',
      type: logo.type,
      theme: logo.theme,
      format: file.format === 'svg' ? 'svg' : 'png',
      primary: i === primaryIndex,
      colors: colors.map((c) => ({ hex: c.hex, coverage: Math.round(c.share * 10_000) / 10_000 })),
    });
  }
  return out;
}

async function fileColors(key: string, format: 'svg' | 'png', files: LogoFileReader, rasterize: SvgRasterizer): Promise<{ hex: string; share: number }[] | null> {
  const file = await files.get(key).catch(() => null);
  if (!file) return null;
  try {
    if (format === 'svg') {
      const svg = file.bytes.toString('utf8');
      return dominantColors(await rasterize(svg), declaredSvgColors(svg));
    }
    const raster: RgbaRaster | null = decodePng(file.bytes, MAX_LOGO_PIXELS);
    return raster ? dominantColors(raster) : null;
  } catch {
    return null;
  }
}
