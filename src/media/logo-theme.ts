import { deltaEOk, relativeLuminance, rgbToOklab } from './oklab.js';
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
 * Spec logo theme from pixels (extraction notes 1.4): `dark` = a dark mark meant for light backgrounds,
 * `light` = a light mark meant for dark backgrounds, null when ambiguous or when the foreground of an opaque
 * image cannot be told apart from its background.
 */
export function logoTheme(raster: RgbaRaster): PixelTheme {
  const weights = foregroundWeights(raster);
  if (!weights) return null;
  let luminance = 0;
  let total = 0;
  const { data } = raster;
  weights.forEach((weight, i) => {
    if (weight === 0) return;
    const o = i * 4;
    luminance += weight * relativeLuminance(data[o] ?? 0, data[o + 1] ?? 0, data[o + 2] ?? 0);
    total += weight;
  });
  if (total === 0) return null;
  return themeForLuminance(luminance / total);
}

function themeForLuminance(luminance: number): PixelTheme {
  const onWhite = 1.05 / (luminance + 0.05);
  const onBlack = (luminance + 0.05) / 0.05;
  if (onWhite / onBlack >= CLEAR_PREFERENCE) return 'dark';
  if (onBlack / onWhite >= CLEAR_PREFERENCE) return 'light';
  return null;
}

/** Per-pixel foreground weight (alpha share), or null when no foreground can be separated. */
function foregroundWeights(raster: RgbaRaster): Float32Array | null {
  const { data } = raster;
  const count = raster.width * raster.height;
  let translucent = 0;
  for (let i = 0; i < count; i++) if ((data[i * 4 + 3] ?? 255) < SOLID_ALPHA) translucent++;
  if (translucent >= count * TRANSLUCENT_SHARE) {
    return Float32Array.from({ length: count }, (_, i) => {
      const alpha = data[i * 4 + 3] ?? 0;
      return alpha >= SOLID_ALPHA ? alpha / 255 : 0;
    });
  }
  return opaqueForeground(raster);
}

function opaqueForeground(raster: RgbaRaster): Float32Array | null {
  const background = uniformBorderColour(raster);
  if (!background) return null;
  const { data } = raster;
  const count = raster.width * raster.height;
  let foreground = 0;
  const weights = Float32Array.from({ length: count }, (_, i) => {
    const o = i * 4;
    const lab = rgbToOklab(data[o] ?? 0, data[o + 1] ?? 0, data[o + 2] ?? 0);
    if (deltaEOk(lab, background) <= FOREGROUND_DISTANCE) return 0;
    foreground++;
    return (data[o + 3] ?? 255) / 255;
  });
  return foreground >= count * MIN_FOREGROUND_SHARE ? weights : null;
}

/** The border band's median colour, or null when the band is not one colour (a photo, a gradient). */
function uniformBorderColour(raster: RgbaRaster): Lab | null {
  const offsets = borderOffsets(raster);
  if (offsets.length === 0) return null;
  const { data } = raster;
  const median = (channel: number) => {
    const values = offsets.map((o) => data[o + channel] ?? 0).sort((a, b) => a - b);
    return values[values.length >> 1] ?? 0;
  };
  const background = rgbToOklab(median(0), median(1), median(2));
  const close = offsets.filter(
    (o) => deltaEOk(rgbToOklab(data[o] ?? 0, data[o + 1] ?? 0, data[o + 2] ?? 0), background) <= UNIFORM_BORDER_DISTANCE,
  ).length;
  return close >= offsets.length * UNIFORM_BORDER_SHARE ? background : null;
}
