import decodeIco from 'decode-ico';
import { fillOpaque } from './decode-bmp-file.js';
import { PixelLimitError } from './pixel-limit-error.js';
import type { RgbaRaster } from './rgba-raster.js';

/**
 * The chosen ICO entry: an embedded PNG file as-is, or decoded pixels of a BMP entry. `decodedPixels` is what
 * decoding the file allocated pixels for, all entries together: the chosen entry's when it is a bitmap, else 0.
 */
export type IcoEntry = ({ kind: 'png'; png: Buffer } | { kind: 'raster'; raster: RgbaRaster }) & { decodedPixels: number };

/** One distinct image of an ICO file, as its own header (PNG IHDR or bitmap info header) describes it. */
export interface IcoImage {
  kind: 'png' | 'bmp';
  /** Where its bytes are in the file. */
  offset: number;
  size: number;
  width: number;
  height: number;
  /** Bits per pixel, for ties between images of the same size. */
  bpp: number;
  /** Its 16-byte directory entry. */
  directoryEntry: number;
}

/**
 * The largest image in an .ico (ties: more bits per pixel, then directory order), like besticon, within
 * `maxPixels` for the whole file. Nothing is decoded before choosing: sizes come from each image's own header
 * (what would be decoded, whatever the directory says), directory entries naming the same bytes count once
 * (a hostile icon lists one huge bitmap dozens of times), entries past the end of the file or of no known kind
 * are skipped, and so are images over the pixel budget. Only the chosen image is decoded, and only when it is a
 * bitmap: PNG entries are handed over as files. Throws PixelLimitError when every image is over the budget.
 */
export function largestIcoEntry(bytes: Uint8Array, maxPixels: number): IcoEntry {
  const images = icoImages(bytes);
  const fitting = images.filter((image) => image.width * image.height <= maxPixels);
  const best = fitting.sort((a, b) => b.width * b.height - a.width * a.height || b.bpp - a.bpp)[0];
  if (!best) {
    const smallest = images.sort((a, b) => a.width * a.height - b.width * b.height)[0];
    if (smallest) throw new PixelLimitError(smallest.width, smallest.height, maxPixels);
    throw new Error('ICO without images');
  }
  const data = bytes.subarray(best.offset, best.offset + best.size);
  if (best.kind === 'png') return { kind: 'png', png: Buffer.from(data), decodedPixels: 0 };
  const [decoded] = decodeIco(singleEntryIco(bytes, best, data));
  if (!decoded || decoded.type !== 'bmp') throw new Error('ICO entry did not decode as a bitmap');
  const pixels = new Uint8Array(decoded.data.buffer, decoded.data.byteOffset, decoded.data.byteLength);
  fillOpaque(pixels);
  return { kind: 'raster', raster: { data: pixels, width: decoded.width, height: decoded.height }, decodedPixels: decoded.width * decoded.height };
}

const PNG_SIGNATURE = 0x89504e47;
/** BITMAPINFOHEADER and its V2–V5 successors; anything else is not a bitmap entry. */
const DIB_HEADER_SIZES = new Set([40, 52, 56, 108, 124]);
const DIRECTORY_ENTRY_BYTES = 16;

/** The distinct, readable images of an ICO file, in directory order; throws for a file that is not an ICO. */
export function icoImages(bytes: Uint8Array): IcoImage[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 6 || view.getUint16(0, true) !== 0) throw new Error('not an ICO file');
  const type = view.getUint16(2, true);
  const count = view.getUint16(4, true);
  if (type !== 1 && type !== 2) throw new Error('not an ICO file');
  if (6 + DIRECTORY_ENTRY_BYTES * count > bytes.length) throw new Error('truncated ICO directory');
  const images: IcoImage[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < count; i++) {
    const directoryEntry = 6 + DIRECTORY_ENTRY_BYTES * i;
    const size = view.getUint32(directoryEntry + 8, true);
    const offset = view.getUint32(directoryEntry + 12, true);
    const key = `${offset}:${size}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const image = readImageHeader(view, offset, size);
    if (image) images.push({ ...image, offset, size, directoryEntry });
  }
  return images;
}

type ImageHeader = Pick<IcoImage, 'kind' | 'width' | 'height' | 'bpp'>;

/** PNG samples per pixel by colour type (decode-ico's bits per pixel is bit depth × this). */
const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/**
 * The size the image at `offset` declares, read exactly as its decoder will: PNG IHDR, or the bitmap info
 * header as decode-bmp reads it (width as a signed integer, height halved because the XOR and AND masks are
 * stacked). null when the bytes are out of the file or of no kind decode-ico knows.
 */
function readImageHeader(view: DataView, offset: number, size: number): ImageHeader | null {
  if (size < 40 || offset + size > view.byteLength) return null;
  if (view.getUint32(offset) === PNG_SIGNATURE) {
    if (size < 33) return null;
    const channels = PNG_CHANNELS[view.getUint8(offset + 25)];
    if (channels === undefined) return null;
    return { kind: 'png', width: view.getUint32(offset + 16), height: view.getUint32(offset + 20), bpp: view.getUint8(offset + 24) * channels };
  }
  if (!DIB_HEADER_SIZES.has(view.getUint32(offset, true))) return null;
  const width = view.getUint32(offset + 4, true) | 0;
  const height = (view.getUint32(offset + 8, true) / 2) | 0;
  // decode-bmp would take a zero side from the directory and allocate for a negative one: neither is an image.
  if (width <= 0 || height <= 0) return null;
  return { kind: 'bmp', width, height, bpp: view.getUint16(offset + 14, true) };
}

/** An ICO file holding only `image` (its directory entry, pointing at its bytes), so decode-ico decodes that one. */
function singleEntryIco(bytes: Uint8Array, image: IcoImage, data: Uint8Array): Uint8Array {
  const header = new Uint8Array(6 + DIRECTORY_ENTRY_BYTES);
  const view = new DataView(header.buffer);
  view.setUint16(2, 1, true);
  view.setUint16(4, 1, true);
  header.set(bytes.subarray(image.directoryEntry, image.directoryEntry + DIRECTORY_ENTRY_BYTES), 6);
  view.setUint32(6 + 12, header.length, true);
  const file = new Uint8Array(header.length + data.length);
  file.set(header);
  file.set(data, header.length);
  return file;
}
