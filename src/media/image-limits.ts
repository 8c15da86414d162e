/** Bounds on decoding an image file a site serves (issue 13; docs/security.md "Bounds on what a site can make us parse"). */
export interface ImageLimits {
  /**
   * Pixels (width × height) of one image file, read from its header and checked before anything is decoded;
   * sharp is given the same number as `limitInputPixels`.
   */
  maxPixels: number;
  /**
   * Pixels of the files decoded in JavaScript, for all of one file together: a BMP file, or the one entry of an
   * ICO file that is decoded (bmp entries are decoded here, pixel by pixel, into a fresh RGBA buffer).
   */
  maxBitmapPixels: number;
  /** Bytes of one image file that are downloaded and ingested; a larger file is not stored (`too_large`). */
  maxBytes: number;
}

/**
 * 40 Mpx covers the largest photographs sites use as banners (sharp decodes them on its own threads, shrinking
 * JPEG and WebP while it decodes). An ICO directory can only describe entries up to 256×256; 1024×1024 leaves
 * room for the large PNG entries some icons carry and bounds a JavaScript decode at 4 MB and a fraction of a second.
 */
export const DEFAULT_IMAGE_LIMITS: Readonly<ImageLimits> = Object.freeze({ maxPixels: 40_000_000, maxBitmapPixels: 1024 * 1024, maxBytes: 5 * 1024 * 1024 });
