/** Decoded 8-bit sRGB pixels with straight (not premultiplied) alpha, 4 bytes per pixel, row-major. */
export interface RgbaRaster {
  data: Uint8Array;
  width: number;
  height: number;
}

/** Share of each edge that counts as the border band, per extraction notes 1.4. */
const BAND_SHARE = 0.05;

/**
 * Byte offsets of the pixels in the outer band (~5 % of each edge, at least 1 px): where a logo's background
 * shows, if it has one.
 */
export function borderOffsets(raster: RgbaRaster): number[] {
  const { width, height } = raster;
  const bandX = Math.max(1, Math.round(width * BAND_SHARE));
  const bandY = Math.max(1, Math.round(height * BAND_SHARE));
  const offsets: number[] = [];
  for (let y = 0; y < height; y++) {
    const fullRow = y < bandY || y >= height - bandY;
    for (let x = 0; x < width; x++) {
      if (fullRow || x < bandX || x >= width - bandX) offsets.push((y * width + x) * 4);
    }
  }
  return offsets;
}
