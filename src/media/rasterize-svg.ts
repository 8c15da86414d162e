import { Resvg } from '@resvg/resvg-js';
import type { RgbaRaster } from './rgba-raster.js';

/**
 * Any href other than a fragment: resvg resolves image hrefs itself, reading absolute paths and paths relative
 * to the working directory from disk, and decoding data URIs without a size limit. The sanitizer only lets
 * data URIs through, but nothing but fragments is rendered here.
 */
const NON_LOCAL_HREF = /\bhref\s*=\s*["']\s*(?!#)/i;

/**
 * Pixels of a sanitized SVG at its declared size, rendered in-process by resvg: a logo takes ~0.1 ms, about a
 * tenth of a sharp (librsvg) round trip. No fonts are loaded (resvg would scan every system font on each call,
 * ~2 ms), so text is not drawn: callers send SVGs with text elsewhere. No resources directory is given, and a
 * document with any non-fragment href is refused, so rendering never reads a file or the network. Throws for
 * those and when resvg cannot parse the document.
 */
export function rasterizeSvg(svg: string): RgbaRaster {
  if (NON_LOCAL_HREF.test(svg)) throw new Error('SVG refers to images: not rendered by resvg');
  const rendered = new Resvg(svg, { font: { loadSystemFonts: false }, logLevel: 'off' }).render();
  return { data: unpremultiplied(rendered.pixels), width: rendered.width, height: rendered.height };
}

/** resvg hands out premultiplied RGBA; rasters carry straight alpha. */
function unpremultiplied(pixels: Uint8Array): Uint8Array {
  for (let o = 0; o < pixels.length; o += 4) {
    const alpha = pixels[o + 3] ?? 0;
    if (alpha === 255 || alpha === 0) continue;
    pixels[o] = Math.min(255, Math.round(((pixels[o] ?? 0) * 255) / alpha));
    pixels[o + 1] = Math.min(255, Math.round(((pixels[o + 1] ?? 0) * 255) / alpha));
    pixels[o + 2] = Math.min(255, Math.round(((pixels[o + 2] ?? 0) * 255) / alpha));
  }
  return pixels;
}
