/**
 * The size of a CDN variant, decided from the request and the original's declared size before any pixel is
 * touched, so the variant key (and whether it is an upscale) is known without decoding the original.
 */
import { CDN_MAX_SIDE } from './logo-cdn-request.js';

/** Longest side of a variant whose URL names neither `w` nor `h`; an original smaller than this is not enlarged. */
export const CDN_DEFAULT_SIDE = 256;

export interface VariantGeometry {
  /** The image's size: exactly `w`×`h` when both are asked for (the logo centred on transparency), else by aspect. */
  width: number;
  height: number;
  /** The drawing's size inside the image (equal to width×height unless both sides were asked for). */
  contentWidth: number;
  contentHeight: number;
  /** A raster original drawn larger than it is (sent as `x-bf-upscaled: true`); never for SVG. */
  upscaled: boolean;
}

export interface Requested {
  width: number | null;
  height: number | null;
}

/**
 * `source`: the original's pixel size (null sides: an SVG that declares none, drawn as a square); `vector`: an SVG,
 * which is drawn at any size without loss.
 */
export function variantGeometry(requested: Requested, source: { width: number | null; height: number | null }, vector: boolean): VariantGeometry {
  const sw = source.width ?? 0;
  const sh = source.height ?? 0;
  const aspect = sw > 0 && sh > 0 ? sw / sh : 1;
  const { width: w, height: h } = requested;
  let content: { width: number; height: number };
  if (w !== null && h !== null) content = fit(aspect, w, h);
  else if (w !== null) content = { width: w, height: clampSide(w / aspect) };
  else if (h !== null) content = { width: clampSide(h * aspect), height: h };
  else {
    // No size asked for: the original's own size, bounded by the default (an SVG gets the default).
    const longest = vector || sw === 0 ? CDN_DEFAULT_SIDE : Math.min(CDN_DEFAULT_SIDE, Math.max(sw, sh));
    content = fit(aspect, longest, longest);
  }
  const width = w !== null && h !== null ? w : content.width;
  const height = w !== null && h !== null ? h : content.height;
  const upscaled = !vector && sw > 0 && sh > 0 && (content.width > sw || content.height > sh);
  return { width, height, contentWidth: content.width, contentHeight: content.height, upscaled };
}

/** The largest size of the given aspect inside a `w`×`h` box. */
function fit(aspect: number, w: number, h: number): { width: number; height: number } {
  return aspect >= w / h ? { width: w, height: clampSide(w / aspect) } : { width: clampSide(h * aspect), height: h };
}

function clampSide(value: number): number {
  return Math.min(CDN_MAX_SIDE, Math.max(1, Math.round(value)));
}
