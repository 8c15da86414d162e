import { assertPixelLimit } from './pixel-limit-error.js';
import type { RgbaRaster } from './rgba-raster.js';

/**
 * Minimal reader for standalone .bmp files (prebuilt sharp has no BMP loader): BITMAPINFOHEADER and later
 * headers, uncompressed 1/4/8-bit palette, 16/24/32-bit, and BI_BITFIELDS masks. RLE and OS/2 headers throw.
 */
export function decodeBmpFile(bytes: Uint8Array, maxPixels: number): RgbaRaster {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 54 || view.getUint16(0) !== 0x424d) throw new Error('not a BMP file');
  const header = readHeader(view);
  assertPixelLimit(header.width, header.height, maxPixels);
  const stride = Math.floor((header.bpp * header.width + 31) / 32) * 4;
  if (header.pixelOffset + stride * header.height > bytes.length) throw new Error('truncated BMP');
  const read = pixelReader(view, header);
  const data = new Uint8Array(header.width * header.height * 4);
  for (let y = 0; y < header.height; y++) {
    const row = header.pixelOffset + stride * (header.topDown ? y : header.height - 1 - y);
    for (let x = 0; x < header.width; x++) data.set(read(row, x), (y * header.width + x) * 4);
  }
  fillOpaque(data);
  return { data, width: header.width, height: header.height };
}

interface BmpHeader {
  pixelOffset: number;
  width: number;
  height: number;
  topDown: boolean;
  bpp: number;
  masks: [number, number, number, number] | null;
  paletteOffset: number;
  paletteSize: number;
}

const BI_RGB = 0;
const BI_BITFIELDS = 3;
const BI_ALPHABITFIELDS = 6;

function readHeader(view: DataView): BmpHeader {
  const headerSize = view.getUint32(14, true);
  if (headerSize < 40) throw new Error('unsupported BMP header');
  const rawHeight = view.getInt32(22, true);
  const width = view.getInt32(18, true);
  const bpp = view.getUint16(28, true);
  const compression = view.getUint32(30, true);
  if (width <= 0 || rawHeight === 0) throw new Error('invalid BMP size');
  const masks = bitMasks(view, bpp, compression, headerSize);
  return {
    pixelOffset: view.getUint32(10, true),
    width,
    height: Math.abs(rawHeight),
    topDown: rawHeight < 0,
    bpp,
    masks,
    paletteOffset: 14 + headerSize + (compression === BI_BITFIELDS && headerSize === 40 ? 12 : 0),
    paletteSize: view.getUint32(46, true) || 2 ** bpp,
  };
}

/** Channel masks (R, G, B, A); they sit at offset 54 both inside V2+ headers and right after a 40-byte one. */
function bitMasks(view: DataView, bpp: number, compression: number, headerSize: number): BmpHeader['masks'] {
  if (compression === BI_BITFIELDS || compression === BI_ALPHABITFIELDS) {
    const alpha = headerSize >= 56 || compression === BI_ALPHABITFIELDS ? view.getUint32(66, true) : 0;
    return [view.getUint32(54, true), view.getUint32(58, true), view.getUint32(62, true), alpha];
  }
  if (compression !== BI_RGB) throw new Error('compressed BMP not supported');
  return bpp === 16 ? [0x7c00, 0x03e0, 0x001f, 0] : null;
}

type PixelReader = (row: number, x: number) => [number, number, number, number];

function pixelReader(view: DataView, h: BmpHeader): PixelReader {
  if (h.masks) {
    const masks = h.masks;
    if (h.bpp !== 16 && h.bpp !== 32) throw new Error('bit masks need 16 or 32 bpp');
    const get = h.bpp === 16 ? (o: number) => view.getUint16(o, true) : (o: number) => view.getUint32(o, true);
    return (row, x) => {
      const px = get(row + x * (h.bpp / 8));
      const [r, g, b, a] = masks.map((m) => scaleMasked(px, m));
      return [r ?? 0, g ?? 0, b ?? 0, masks[3] ? (a ?? 255) : 255];
    };
  }
  if (h.bpp === 24 || h.bpp === 32) {
    const size = h.bpp / 8;
    return (row, x) => {
      const o = row + x * size;
      return [view.getUint8(o + 2), view.getUint8(o + 1), view.getUint8(o), size === 4 ? view.getUint8(o + 3) : 255];
    };
  }
  if (h.bpp === 1 || h.bpp === 4 || h.bpp === 8) return paletteReader(view, h);
  throw new Error(`unsupported BMP depth ${h.bpp}`);
}

function paletteReader(view: DataView, h: BmpHeader): PixelReader {
  const indexMask = 2 ** h.bpp - 1;
  return (row, x) => {
    const bit = x * h.bpp;
    const index = (view.getUint8(row + (bit >> 3)) >> (8 - h.bpp - (bit & 7))) & indexMask;
    if (index >= h.paletteSize) return [0, 0, 0, 255];
    const o = h.paletteOffset + index * 4;
    return [view.getUint8(o + 2), view.getUint8(o + 1), view.getUint8(o), 255];
  };
}

function scaleMasked(pixel: number, mask: number): number {
  if (mask === 0) return 0;
  const shift = 31 - Math.clz32(mask & -mask);
  const max = mask >>> shift;
  return Math.round((((pixel & mask) >>> shift) * 255) / max);
}

/**
 * An alpha channel that is zero everywhere is unused (32-bit BI_RGB officially has none; old icons rely on an
 * AND mask instead), not an invisible image.
 */
export function fillOpaque(data: Uint8Array): void {
  for (let o = 3; o < data.length; o += 4) if (data[o] !== 0) return;
  for (let o = 3; o < data.length; o += 4) data[o] = 255;
}
