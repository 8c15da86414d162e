import decodeIco from 'decode-ico';
import { fillOpaque } from './decode-bmp-file.js';
import { assertPixelLimit } from './pixel-limit-error.js';
import type { RgbaRaster } from './rgba-raster.js';

/** The chosen ICO entry: an embedded PNG file as-is, or decoded pixels of a BMP entry. */
export type IcoEntry = { kind: 'png'; png: Buffer } | { kind: 'raster'; raster: RgbaRaster };

/**
 * The largest image in an .ico (ties: more bits per pixel), like besticon. Entry sizes are checked against
 * the pixel cap before decode-ico allocates anything, since it decodes every entry eagerly.
 */
export function largestIcoEntry(bytes: Uint8Array, maxPixels: number): IcoEntry {
  for (const size of declaredSizes(bytes)) assertPixelLimit(size.width, size.height, maxPixels);
  const entries = decodeIco(bytes);
  const best = [...entries].sort((a, b) => b.width * b.height - a.width * a.height || b.bpp - a.bpp)[0];
  if (!best) throw new Error('ICO without images');
  if (best.type === 'png') return { kind: 'png', png: Buffer.from(best.data) };
  const data = new Uint8Array(best.data);
  fillOpaque(data);
  return { kind: 'raster', raster: { data, width: best.width, height: best.height } };
}

const PNG_SIGNATURE = 0x89504e47;
/** BITMAPINFOHEADER and its V2–V5 successors; anything else is not a bitmap entry. */
const DIB_HEADER_SIZES = new Set([40, 52, 56, 108, 124]);

/** Sizes from each entry's own header (PNG IHDR or BMP info header), which is what gets decoded. */
function declaredSizes(bytes: Uint8Array): { width: number; height: number }[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 6) throw new Error('truncated ICO');
  const count = view.getUint16(4, true);
  return Array.from({ length: count }, (_, i) => {
    const offset = view.getUint32(6 + 16 * i + 12, true);
    if (offset + 24 > bytes.length) throw new Error('truncated ICO entry');
    if (view.getUint32(offset) === PNG_SIGNATURE) {
      return { width: view.getUint32(offset + 16), height: view.getUint32(offset + 20) };
    }
    if (!DIB_HEADER_SIZES.has(view.getUint32(offset, true))) throw new Error('ICO entry is neither PNG nor BMP');
    // BMP entries store the XOR and AND masks stacked, so the header height is doubled.
    return { width: Math.abs(view.getInt32(offset + 4, true)), height: Math.abs(view.getInt32(offset + 8, true)) / 2 };
  });
}
