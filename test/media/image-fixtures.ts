/** Real image files built in-process for the media tests (sharp for PNG/JPEG/GIF, small encoders for ICO/BMP). */
import sharp from 'sharp';
import type { Sharp } from 'sharp';

export interface Rgba {
  r: number;
  g: number;
  b: number;
  alpha: number;
}

export const WHITE: Rgba = { r: 255, g: 255, b: 255, alpha: 1 };
export const BLACK: Rgba = { r: 0, g: 0, b: 0, alpha: 1 };
export const CLEAR: Rgba = { r: 0, g: 0, b: 0, alpha: 0 };

/** A `size`×`size` image of `background` with a centred square of `mark` covering the middle half. */
export async function markImage(size: number, background: Rgba, mark: Rgba): Promise<Sharp> {
  const inner = Math.max(1, Math.round(size / 2));
  const square = await sharp({ create: { width: inner, height: inner, channels: 4, background: mark } }).png().toBuffer();
  const offset = Math.round((size - inner) / 2);
  return sharp({ create: { width: size, height: size, channels: 4, background } }).composite([
    { input: square, left: offset, top: offset },
  ]);
}

export async function pngOf(size: number, background: Rgba, mark: Rgba): Promise<Buffer> {
  return (await markImage(size, background, mark)).png().toBuffer();
}

/** ICO container with PNG entries (Vista+ layout): ICONDIR, one ICONDIRENTRY per image, then the files. */
export function icoOf(images: { png: Buffer; size: number; bpp?: number }[]): Buffer {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach((image, i) => {
    const entry = 6 + 16 * i;
    header.writeUInt8(image.size >= 256 ? 0 : image.size, entry);
    header.writeUInt8(image.size >= 256 ? 0 : image.size, entry + 1);
    header.writeUInt16LE(1, entry + 4);
    header.writeUInt16LE(image.bpp ?? 32, entry + 6);
    header.writeUInt32LE(image.png.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += image.png.length;
  });
  return Buffer.concat([header, ...images.map((image) => image.png)]);
}

/** The 40-byte BITMAPINFOHEADER of an ICO entry: width `size`, height doubled (image plus AND mask), `bpp` bits. */
export function iconInfoHeader(size: number, bpp: number): Buffer {
  const info = Buffer.alloc(40);
  info.writeUInt32LE(40, 0);
  info.writeInt32LE(size, 4);
  info.writeInt32LE(size * 2, 8);
  info.writeUInt16LE(1, 12);
  info.writeUInt16LE(bpp, 14);
  return info;
}

/** Classic ICO entry body: 40-byte BITMAPINFOHEADER (height doubled), bottom-up BGRA rows, 1-bpp AND mask. */
export function bmpIconEntry(rgba: Uint8Array, size: number): Buffer {
  const info = iconInfoHeader(size, 32);
  const pixels = bottomUpBgra(rgba, size, size);
  const andMask = Buffer.alloc(Math.ceil(size / 32) * 4 * size);
  return Buffer.concat([info, pixels, andMask]);
}

/** Standalone 24-bit BMP file (BITMAPFILEHEADER + BITMAPINFOHEADER, bottom-up, rows padded to 4 bytes). */
export function bmpFileOf(rgba: Uint8Array, width: number, height: number): Buffer {
  const stride = Math.ceil((width * 3) / 4) * 4;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const src = ((height - 1 - y) * width + x) * 4;
      const dst = y * stride + x * 3;
      pixels[dst] = rgba[src + 2] ?? 0;
      pixels[dst + 1] = rgba[src + 1] ?? 0;
      pixels[dst + 2] = rgba[src] ?? 0;
    }
  }
  const header = Buffer.alloc(54);
  header.write('BM', 0, 'latin1');
  header.writeUInt32LE(54 + pixels.length, 2);
  header.writeUInt32LE(54, 10);
  header.writeUInt32LE(40, 14);
  header.writeInt32LE(width, 18);
  header.writeInt32LE(height, 22);
  header.writeUInt16LE(1, 26);
  header.writeUInt16LE(24, 28);
  header.writeUInt32LE(pixels.length, 34);
  return Buffer.concat([header, pixels]);
}

function bottomUpBgra(rgba: Uint8Array, width: number, height: number): Buffer {
  const out = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const src = ((height - 1 - y) * width + x) * 4;
      const dst = (y * width + x) * 4;
      out[dst] = rgba[src + 2] ?? 0;
      out[dst + 1] = rgba[src + 1] ?? 0;
      out[dst + 2] = rgba[src] ?? 0;
      out[dst + 3] = rgba[src + 3] ?? 0;
    }
  }
  return out;
}

export async function rawRgba(image: Sharp): Promise<Uint8Array> {
  return image.ensureAlpha().raw().toBuffer();
}

