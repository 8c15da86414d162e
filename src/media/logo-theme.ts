import { deltaEOk, oklabOf, relativeLuminance, rgbToOklab } from './oklab.js';
import type { Lab } from './oklab.js';
import { borderOffsets } from './rgba-raster.js';
import type { RgbaRaster } from './rgba-raster.js';

export type PixelTheme = 'dark' | 'light' | null;

/** Anti-aliased fringes are half-transparent; only solidly painted pixels say what the mark looks like. */
const SOLID_ALPHA = 128;
/** Below this share of see-through pixels the image is treated as opaque (its background is painted in). */
const TRANSLUCENT_SHARE = 0.01;
/** An opaque image's foreground is what clearly differs from its background colour (JPEG noise is ~0.02). */
const FOREGROUND_DISTANCE = 0.15;
const UNIFORM_BORDER_DISTANCE = 0.1;
const UNIFORM_BORDER_SHARE = 0.7;
const MIN_FOREGROUND_SHARE = 0.01;
/** "Clearly better" on one background: its WCAG contrast is at least this many times the other's. */
const CLEAR_PREFERENCE = 1.5;
/**
 * A backdrop the mark is shown on is believed only when the mark stands out from it: below this WCAG contrast
 * (a black mark on a "dark" header, a white one on a "white" header) the colour found is not what is really
 * behind the mark (a wrapper we did not see, an image plate), and the mark's own lightness decides instead.
 */
const MIN_VISIBLE_CONTRAST = 1.5;
/** Relative luminance bounds of a dark and a light backdrop (OKLab lightness 0.5 and 0.8, as logo-backdrop.ts). */
const DARK_BACKDROP_BELOW = 0.125;
const LIGHT_BACKDROP_ABOVE = 0.512;

/** What the pixels say about a mark, as WCAG relative luminances (0 black, 1 white). */
export interface MarkLightness {
  /** Alpha-weighted mean luminance of the mark's solid pixels (an opaque image's foreground). */
  mark: number;
  /** The one-colour plate an opaque image paints behind its mark; null for a mark on transparency. */
  plate: number | null;
}

/**
 * Spec logo theme from pixels (extraction notes 1.4): `dark` = a dark mark meant for light backgrounds,
 * `light` = a light mark meant for dark backgrounds, null when ambiguous or when the foreground of an opaque
 * image cannot be told apart from its background. An opaque image shows its mark on its own plate, so the plate
 * decides as a page backdrop would (a coral mark on a white plate is `dark`).
 */
export function logoTheme(raster: RgbaRaster): PixelTheme {
  return themeOfLightness(markLightness(raster));
}

export function themeOfLightness(seen: MarkLightness | null): PixelTheme {
  if (!seen) return null;
  return (seen.plate === null ? null : themeOnBackdrop(seen.mark, seen.plate)) ?? themeForLuminance(seen.mark);
}

export function markLightness(raster: RgbaRaster): MarkLightness | null {
  const { data } = raster;
  const count = raster.width * raster.height;
  let translucent = 0;
  for (let o = 3; o < count * 4; o += 4) if ((data[o] ?? 255) < SOLID_ALPHA) translucent++;
  if (translucent >= count * TRANSLUCENT_SHARE) {
    const mark = solidLuminance(raster);
    return mark === null ? null : { mark, plate: null };
  }
  return opaqueForeground(raster);
}

/**
 * The theme a backdrop of luminance `backdrop` gives a mark of luminance `mark` shown on it: a light backdrop
 * means the mark is made for light backgrounds (`dark`), a dark one the opposite; null for a mid-tone backdrop
 * or one the mark would not stand out from (see MIN_VISIBLE_CONTRAST).
 */
export function themeOnBackdrop(mark: number, backdrop: number): PixelTheme {
  if (contrast(mark, backdrop) < MIN_VISIBLE_CONTRAST) return null;
  if (backdrop > LIGHT_BACKDROP_ABOVE) return 'dark';
  return backdrop < DARK_BACKDROP_BELOW ? 'light' : null;
}

function contrast(a: number, b: number): number {
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/** The mark's own lightness, when nothing says what it is shown on: the background it clearly contrasts more with. */
function themeForLuminance(luminance: number): PixelTheme {
  const onWhite = 1.05 / (luminance + 0.05);
  const onBlack = (luminance + 0.05) / 0.05;
  if (onWhite / onBlack >= CLEAR_PREFERENCE) return 'dark';
  if (onBlack / onWhite >= CLEAR_PREFERENCE) return 'light';
  return null;
}

/**
 * Accumulates the alpha-weighted mean luminance of foreground pixels, each weighted by its alpha share (kept at
 * float32 precision, as the per-pixel weights always were).
 */
class LuminanceMean {
  private luminance = 0;
  private total = 0;

  add(data: Uint8Array, o: number): void {
    const weight = Math.fround((data[o + 3] ?? 255) / 255);
    if (weight === 0) return;
    this.luminance += weight * relativeLuminance(data[o] ?? 0, data[o + 1] ?? 0, data[o + 2] ?? 0);
    this.total += weight;
  }

  value(): number | null {
    return this.total === 0 ? null : this.luminance / this.total;
  }
}

/** With real transparency, the foreground is every solidly painted pixel. */
function solidLuminance(raster: RgbaRaster): number | null {
  const { data } = raster;
  const mean = new LuminanceMean();
  for (let o = 3; o < raster.width * raster.height * 4; o += 4) if ((data[o] ?? 0) >= SOLID_ALPHA) mean.add(data, o - 3);
  return mean.value();
}

/** An opaque image's foreground is what differs from a one-colour border; null when there is too little of it. */
function opaqueForeground(raster: RgbaRaster): MarkLightness | null {
  const border = uniformBorderColour(raster);
  if (!border) return null;
  const { data } = raster;
  const count = raster.width * raster.height;
  const isForeground = perColour((rgb) => deltaEOk(oklabOf(rgb), border.lab) > FOREGROUND_DISTANCE);
  const mean = new LuminanceMean();
  let foreground = 0;
  for (let o = 0; o < count * 4; o += 4) {
    if (!isForeground(data, o)) continue;
    foreground++;
    mean.add(data, o);
  }
  const mark = mean.value();
  return foreground >= count * MIN_FOREGROUND_SHARE && mark !== null ? { mark, plate: border.luminance } : null;
}

/** The border band's median colour, or null when the band is not one colour (a photo, a gradient). */
function uniformBorderColour(raster: RgbaRaster): { lab: Lab; luminance: number } | null {
  const offsets = borderOffsets(raster);
  if (offsets.length === 0) return null;
  const { data } = raster;
  const [r, g, b] = [median(data, offsets, 0), median(data, offsets, 1), median(data, offsets, 2)];
  const background = rgbToOklab(r, g, b);
  const isClose = perColour((rgb) => deltaEOk(oklabOf(rgb), background) <= UNIFORM_BORDER_DISTANCE);
  let close = 0;
  for (const o of offsets) if (isClose(data, o)) close++;
  return close >= offsets.length * UNIFORM_BORDER_SHARE ? { lab: background, luminance: relativeLuminance(r, g, b) } : null;
}

/** The upper median (sorted[length >> 1]) of one channel at `offsets`, by counting rather than sorting. */
function median(data: Uint8Array, offsets: number[], channel: number): number {
  const counts = new Uint32Array(256);
  for (const o of offsets) {
    const value = data[o + channel] ?? 0;
    counts[value] = (counts[value] ?? 0) + 1;
  }
  let seen = 0;
  for (let value = 0; value < 256; value++) {
    seen += counts[value] ?? 0;
    if (seen > offsets.length >> 1) return value;
  }
  return 0;
}

/**
 * A colour test remembered per exact colour: logos repeat a handful of colours over thousands of pixels, and
 * the OKLab conversion behind each test is the costly part. Runs of one colour skip even the lookup.
 */
function perColour(test: (rgb: number) => boolean): (data: Uint8Array, offset: number) => boolean {
  const known = new Map<number, boolean>();
  let lastRgb = -1;
  let lastResult = false;
  return (data, o) => {
    const rgb = ((data[o] ?? 0) << 16) | ((data[o + 1] ?? 0) << 8) | (data[o + 2] ?? 0);
    if (rgb === lastRgb) return lastResult;
    let result = known.get(rgb);
    if (result === undefined) {
      result = test(rgb);
      known.set(rgb, result);
    }
    lastRgb = rgb;
    lastResult = result;
    return result;
  };
}
