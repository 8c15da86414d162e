/** Thrown by our own decoders when an image declares more pixels than allowed, before allocating them. */
export class PixelLimitError extends Error {
  constructor(width: number, height: number, maxPixels: number) {
    super(`image of ${width}x${height} exceeds the ${maxPixels} pixel limit`);
    this.name = 'PixelLimitError';
  }
}

export function assertPixelLimit(width: number, height: number, maxPixels: number): void {
  if (width * height > maxPixels) throw new PixelLimitError(width, height, maxPixels);
}
