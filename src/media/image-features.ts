/**
 * Hand features of a banner or picture for the image-kind model (image-kind.ts, docs/images.md): colour count,
 * flat-region share, gradient and edge statistics, saturation histogram, luminance entropy, periodicity and
 * aspect. Computed on a small raster sampled with the nearest-neighbour kernel (classification-raster.ts), so a
 * flat illustration keeps its exact colours and a photograph keeps its noise: resampling that averages would
 * invent colours at every edge and smooth the grain that tells the two apart.
 * Every feature is scaled to roughly [0, 1] so one linear model can weigh them.
 */
import type { RgbaRaster } from './rgba-raster.js';

/** Feature names in model order; the trained weights (image-kind-model.json) list them in this order. */
export const IMAGE_FEATURE_NAMES = [
  'colorCount',
  'topColorsShare',
  'flatShare',
  'smoothShare',
  'edgeShare',
  'axisEdgeShare',
  'meanSaturation',
  'saturationSpread',
  'vividShare',
  'grayShare',
  'lumEntropy',
  'lumSpread',
  'brightShare',
  'darkShare',
  'periodicity',
  'grain',
  'stillShare',
  'hueSpread',
  'blockTexture',
  'chromaNoise',
  'aspect',
  'transparentShare',
] as const;

export type ImageFeatureName = (typeof IMAGE_FEATURE_NAMES)[number];
export type ImageFeatures = Record<ImageFeatureName, number>;

const OPAQUE = 128;
/** Neighbours this close (per channel) count as the same flat region: survives mild JPEG noise on flat art. */
const FLAT_DELTA = 3;
const SMOOTH_MIN = 2;
const SMOOTH_MAX = 24;
const EDGE_MIN = 48;
const PERIOD_SIDE = 48;
const PERIOD_MAX_SHIFT = 16;
const PERIOD_MIN_SHIFT = 3;

interface Pixels {
  lum: Float32Array;
  sat: Float32Array;
  opaque: Uint8Array;
  count: number;
}

export function imageFeatures(raster: RgbaRaster): ImageFeatures {
  const px = pixels(raster);
  const n = Math.max(1, px.count);
  const colours = colourStats(raster, n);
  const grads = gradientStats(raster, px, n);
  const sats = saturationStats(px, n);
  const lums = luminanceStats(px, n);
  return {
    ...colours,
    ...grads,
    ...sats,
    ...lums,
    periodicity: periodicity(raster, px),
    ...laplacianStats(raster, px),
    hueSpread: hueSpread(raster, px),
    blockTexture: blockTexture(raster, px),
    chromaNoise: chromaNoise(raster, px),
    aspect: clamp01(0.5 + Math.log2(raster.width / Math.max(1, raster.height)) / 6),
    transparentShare: 1 - px.count / Math.max(1, raster.width * raster.height),
  };
}

function pixels(raster: RgbaRaster): Pixels {
  const size = raster.width * raster.height;
  const lum = new Float32Array(size);
  const sat = new Float32Array(size);
  const opaque = new Uint8Array(size);
  let count = 0;
  for (let i = 0; i < size; i++) {
    const o = i * 4;
    const r = raster.data[o] ?? 0;
    const g = raster.data[o + 1] ?? 0;
    const b = raster.data[o + 2] ?? 0;
    const max = Math.max(r, g, b);
    lum[i] = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    sat[i] = max === 0 ? 0 : (max - Math.min(r, g, b)) / max;
    if ((raster.data[o + 3] ?? 0) >= OPAQUE) {
      opaque[i] = 1;
      count++;
    }
  }
  return { lum, sat, opaque, count };
}

/** Distinct 5-bit colours (log scale) and the share of the 8 commonest: low for a photograph, high for flat art. */
function colourStats(raster: RgbaRaster, n: number): Pick<ImageFeatures, 'colorCount' | 'topColorsShare'> {
  const counts = new Map<number, number>();
  const { data } = raster;
  for (let o = 0; o < data.length; o += 4) {
    if ((data[o + 3] ?? 0) < OPAQUE) continue;
    const key = (((data[o] ?? 0) >> 3) << 10) | (((data[o + 1] ?? 0) >> 3) << 5) | ((data[o + 2] ?? 0) >> 3);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const top = [...counts.values()].sort((a, b) => b - a).slice(0, 8);
  return {
    colorCount: clamp01(Math.log2(1 + counts.size) / Math.log2(1 + Math.min(n, 32_768))),
    topColorsShare: top.reduce((s, c) => s + c, 0) / n,
  };
}

type GradientFeatures = Pick<ImageFeatures, 'flatShare' | 'smoothShare' | 'edgeShare' | 'axisEdgeShare'>;

/** Right and down neighbour differences: flat regions, gentle gradients (photographic shading), hard edges. */
function gradientStats(raster: RgbaRaster, px: Pixels, n: number): GradientFeatures {
  const { width, height, data } = raster;
  let flat = 0;
  let smooth = 0;
  let edges = 0;
  let axis = 0;
  let judged = 0;
  for (let y = 0; y < height - 1; y++) {
    for (let x = 0; x < width - 1; x++) {
      const i = y * width + x;
      if (!px.opaque[i] || !px.opaque[i + 1] || !px.opaque[i + width]) continue;
      judged++;
      const o = i * 4;
      if (near(data, o, o + 4) && near(data, o, o + width * 4)) flat++;
      const gx = (px.lum[i + 1] ?? 0) - (px.lum[i] ?? 0);
      const gy = (px.lum[i + width] ?? 0) - (px.lum[i] ?? 0);
      const mag = Math.hypot(gx, gy);
      if (mag > SMOOTH_MIN && mag <= SMOOTH_MAX) smooth++;
      if (mag > EDGE_MIN) {
        edges++;
        if (Math.min(Math.abs(gx), Math.abs(gy)) < 0.25 * Math.max(Math.abs(gx), Math.abs(gy))) axis++;
      }
    }
  }
  const m = Math.max(1, Math.min(judged, n));
  return { flatShare: flat / m, smoothShare: smooth / m, edgeShare: edges / m, axisEdgeShare: edges ? axis / edges : 0 };
}

function near(data: Uint8Array, a: number, b: number): boolean {
  return (
    Math.abs((data[a] ?? 0) - (data[b] ?? 0)) <= FLAT_DELTA &&
    Math.abs((data[a + 1] ?? 0) - (data[b + 1] ?? 0)) <= FLAT_DELTA &&
    Math.abs((data[a + 2] ?? 0) - (data[b + 2] ?? 0)) <= FLAT_DELTA
  );
}

type SaturationFeatures = Pick<ImageFeatures, 'meanSaturation' | 'saturationSpread' | 'vividShare' | 'grayShare'>;

function saturationStats(px: Pixels, n: number): SaturationFeatures {
  let sum = 0;
  let sq = 0;
  let vivid = 0;
  let gray = 0;
  for (let i = 0; i < px.sat.length; i++) {
    if (!px.opaque[i]) continue;
    const s = px.sat[i] ?? 0;
    sum += s;
    sq += s * s;
    if (s > 0.6) vivid++;
    if (s < 0.08) gray++;
  }
  const mean = sum / n;
  return { meanSaturation: mean, saturationSpread: Math.sqrt(Math.max(0, sq / n - mean * mean)) * 2, vividShare: vivid / n, grayShare: gray / n };
}

type LuminanceFeatures = Pick<ImageFeatures, 'lumEntropy' | 'lumSpread' | 'brightShare' | 'darkShare'>;

function luminanceStats(px: Pixels, n: number): LuminanceFeatures {
  const bins = new Array<number>(32).fill(0);
  let sum = 0;
  let sq = 0;
  let bright = 0;
  let dark = 0;
  for (let i = 0; i < px.lum.length; i++) {
    if (!px.opaque[i]) continue;
    const l = px.lum[i] ?? 0;
    bins[Math.min(31, Math.floor(l / 8))]! += 1;
    sum += l;
    sq += l * l;
    if (l > 235) bright++;
    if (l < 20) dark++;
  }
  const entropy = bins.reduce((e, c) => (c > 0 ? e - (c / n) * Math.log2(c / n) : e), 0);
  const mean = sum / n;
  return { lumEntropy: entropy / 5, lumSpread: Math.sqrt(Math.max(0, sq / n - mean * mean)) / 128, brightShare: bright / n, darkShare: dark / n };
}

/**
 * Strongest normalised autocorrelation of the luminance at a shift of 3–16 px (on a 48 px sample): a tiled
 * pattern repeats itself, a photograph or an illustration does not. Flat images have no variance and score 0.
 */
function periodicity(raster: RgbaRaster, px: Pixels): number {
  const side = Math.min(PERIOD_SIDE, raster.width, raster.height);
  if (side < PERIOD_MIN_SHIFT * 4 || px.count < raster.width * raster.height * 0.9) return 0;
  const sample = new Float32Array(side * side);
  const x0 = Math.floor((raster.width - side) / 2);
  const y0 = Math.floor((raster.height - side) / 2);
  let mean = 0;
  for (let y = 0; y < side; y++) for (let x = 0; x < side; x++) mean += sample[y * side + x] = px.lum[(y0 + y) * raster.width + x0 + x] ?? 0;
  mean /= side * side;
  let variance = 0;
  for (let i = 0; i < sample.length; i++) variance += ((sample[i] ?? 0) - mean) ** 2;
  if (variance / sample.length < 4) return 0;
  const maxShift = Math.min(PERIOD_MAX_SHIFT, Math.floor(side / 2));
  let best = 0;
  for (let dy = 0; dy <= maxShift; dy++) {
    for (let dx = -maxShift; dx <= maxShift; dx++) {
      if (Math.max(Math.abs(dx), dy) < PERIOD_MIN_SHIFT) continue;
      best = Math.max(best, correlation(sample, side, mean, variance, dx, dy));
    }
  }
  return clamp01(best);
}

function correlation(sample: Float32Array, side: number, mean: number, variance: number, dx: number, dy: number): number {
  let sum = 0;
  let count = 0;
  for (let y = 0; y + dy < side; y++) {
    for (let x = Math.max(0, -dx); x < side && x + dx < side; x++) {
      sum += ((sample[y * side + x] ?? 0) - mean) * ((sample[(y + dy) * side + x + dx] ?? 0) - mean);
      count++;
    }
  }
  return count ? sum / count / (variance / sample.length) : 0;
}

/**
 * Second differences of the luminance: a photograph's grain gives many small non-zero values (`grain`); flat art
 * and smooth rendered gradients give zero almost everywhere (`stillShare`).
 */
function laplacianStats(raster: RgbaRaster, px: Pixels): Pick<ImageFeatures, 'grain' | 'stillShare'> {
  const { width, height } = raster;
  let grain = 0;
  let still = 0;
  let judged = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      if (!px.opaque[i]) continue;
      judged++;
      const l = px.lum;
      const lap = Math.abs(4 * (l[i] ?? 0) - (l[i - 1] ?? 0) - (l[i + 1] ?? 0) - (l[i - width] ?? 0) - (l[i + width] ?? 0));
      if (lap <= 1.5) still++;
      else if (lap <= 24) grain++;
    }
  }
  return { grain: judged ? grain / judged : 0, stillShare: judged ? still / judged : 0 };
}

/** Occupied hue bins (of 24) among coloured pixels, weighted: a photograph spreads over many neighbouring hues. */
function hueSpread(raster: RgbaRaster, px: Pixels): number {
  const bins = new Array<number>(24).fill(0);
  let coloured = 0;
  for (let i = 0; i < px.sat.length; i++) {
    if (!px.opaque[i] || (px.sat[i] ?? 0) < 0.15) continue;
    const o = i * 4;
    const r = raster.data[o] ?? 0;
    const g = raster.data[o + 1] ?? 0;
    const b = raster.data[o + 2] ?? 0;
    bins[Math.floor((hue(r, g, b) / 360) * 24) % 24]! += 1;
    coloured++;
  }
  if (coloured === 0) return 0;
  return bins.filter((c) => c / coloured >= 0.01).length / 24;
}

/**
 * Share of 4×4 blocks whose luminance varies a little (standard deviation 1.5–12): the fine texture of surfaces in a
 * photograph. Flat art has still blocks, line art and UI have blocks with hard edges.
 */
function blockTexture(raster: RgbaRaster, px: Pixels): number {
  const { width, height } = raster;
  let textured = 0;
  let blocks = 0;
  for (let by = 0; by + 4 <= height; by += 4) {
    for (let bx = 0; bx + 4 <= width; bx += 4) {
      let sum = 0;
      let sq = 0;
      let opaque = true;
      for (let y = by; y < by + 4; y++) {
        for (let x = bx; x < bx + 4; x++) {
          const i = y * width + x;
          opaque &&= px.opaque[i] === 1;
          const l = px.lum[i] ?? 0;
          sum += l;
          sq += l * l;
        }
      }
      if (!opaque) continue;
      blocks++;
      const sd = Math.sqrt(Math.max(0, sq / 16 - (sum / 16) ** 2));
      if (sd >= 1.5 && sd <= 12) textured++;
    }
  }
  return blocks ? textured / blocks : 0;
}

/**
 * Mean change of the colour difference channels (r−g, b−g) between neighbours of similar luminance, scaled: sensor
 * and JPEG chroma noise in a photograph; zero on flat or smoothly rendered colour.
 */
function chromaNoise(raster: RgbaRaster, px: Pixels): number {
  const { width, height, data } = raster;
  let sum = 0;
  let count = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width - 1; x++) {
      const i = y * width + x;
      if (!px.opaque[i] || !px.opaque[i + 1] || Math.abs((px.lum[i + 1] ?? 0) - (px.lum[i] ?? 0)) >= 8) continue;
      const o = i * 4;
      const rg = (data[o] ?? 0) - (data[o + 1] ?? 0) - ((data[o + 4] ?? 0) - (data[o + 5] ?? 0));
      const bg = (data[o + 2] ?? 0) - (data[o + 1] ?? 0) - ((data[o + 6] ?? 0) - (data[o + 5] ?? 0));
      sum += Math.abs(rg) + Math.abs(bg);
      count++;
    }
  }
  return count ? clamp01(sum / count / 16) : 0;
}

function hue(r: number, g: number, b: number): number {
  const max = Math.max(r, g, b);
  const d = max - Math.min(r, g, b);
  if (d === 0) return 0;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}

function clamp01(v: number): number {
  return Math.min(1, Math.max(0, v));
}
