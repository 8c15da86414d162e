import { parse, formatHex } from 'culori';
import { deltaEOk, oklabOf, rgbHex, rgbToOklab } from './oklab.js';
import type { Lab } from './oklab.js';
import type { RgbaRaster } from './rgba-raster.js';

export interface DominantColor {
  /** Lower-case `#rrggbb`. */
  hex: string;
  /** Share of the opaque pixels (alpha ≥ 128) in this cluster, 0..1. */
  share: number;
}

const SOLID_ALPHA = 128;
const MAX_CLUSTERS = 6;
/** A new seed must be this far from existing ones, so one flat colour is never split in two. */
const MIN_SEED_DISTANCE = 0.06;
const MIN_SEED_SHARE = 0.01;
/** Clusters closer than this are one colour to the eye (extraction notes 1.5). */
const MERGE_DISTANCE = 0.04;
const SNAP_DISTANCE = 0.05;
/** Anti-aliasing slivers; not colours of the brand. */
const MIN_SHARE = 0.005;
const ITERATIONS = 10;

interface Swatch {
  rgb: number;
  lab: Lab;
  count: number;
}

interface Cluster {
  centre: Lab;
  count: number;
  /** The most frequent exact colour in the cluster: flat logo colours come out exact, not averaged with fringes. */
  mode: Swatch;
}

/**
 * Colour clusters of the solid pixels, largest first, at most 6: k-means in OKLab over the exact-colour
 * histogram with deterministic greedy seeding. `declared` (e.g. an SVG's fill/stroke/stop-color values)
 * replaces a cluster's colour when within ΔE_OK 0.05, since declared hexes are the brand's exact values.
 */
export function dominantColors(raster: RgbaRaster, declared: readonly string[] = []): DominantColor[] {
  const swatches = histogram(raster);
  const total = swatches.reduce((sum, s) => sum + s.count, 0);
  if (total === 0) return [];
  const clusters = mergeClose(kMeans(swatches, seeds(swatches, total)));
  const snapTargets = declaredLabs(declared);
  const byHex = new Map<string, number>();
  for (const cluster of clusters) {
    if (cluster.count < total * MIN_SHARE) continue;
    const hex = snap(cluster.mode, snapTargets);
    byHex.set(hex, (byHex.get(hex) ?? 0) + cluster.count / total);
  }
  return [...byHex]
    .map(([hex, share]) => ({ hex, share }))
    .sort((a, b) => b.share - a.share || a.hex.localeCompare(b.hex));
}

function histogram(raster: RgbaRaster): Swatch[] {
  const counts = new Map<number, number>();
  const { data } = raster;
  // Flat logo areas are long runs of one colour: count a run locally, touch the map once per run.
  let run = -1;
  let runLength = 0;
  for (let o = 0; o + 3 < data.length; o += 4) {
    if ((data[o + 3] ?? 0) < SOLID_ALPHA) continue;
    const rgb = ((data[o] ?? 0) << 16) | ((data[o + 1] ?? 0) << 8) | (data[o + 2] ?? 0);
    if (rgb === run) {
      runLength++;
      continue;
    }
    if (runLength > 0) counts.set(run, (counts.get(run) ?? 0) + runLength);
    run = rgb;
    runLength = 1;
  }
  if (runLength > 0) counts.set(run, (counts.get(run) ?? 0) + runLength);
  return byCountThenColour(counts).map((rgb) => ({ rgb, count: counts.get(rgb) ?? 0, lab: oklabOf(rgb) }));
}

/**
 * The colours, most frequent first and ties by ascending 0xRRGGBB. Sorted as packed numbers (count above the
 * 24 colour bits, colour inverted) so the native numeric sort does it without a comparator.
 */
function byCountThenColour(counts: Map<number, number>): number[] {
  const packed = new Float64Array(counts.size);
  let i = 0;
  counts.forEach((count, rgb) => {
    packed[i++] = count * 0x1000000 + (0xffffff - rgb);
  });
  packed.sort();
  const colours: number[] = [];
  for (let j = packed.length - 1; j >= 0; j--) colours.push(0xffffff - ((packed[j] ?? 0) % 0x1000000));
  return colours;
}

/**
 * Seeds from a coarse 4-bit-per-channel histogram (so gradients add up into one heavy bin): the heaviest bin
 * first, then repeatedly the bin maximising weight × squared distance to the chosen seeds.
 */
function seeds(swatches: Swatch[], total: number): Lab[] {
  const bins = coarseBins(swatches).filter((bin) => bin.count >= total * MIN_SEED_SHARE);
  const chosen: Lab[] = [];
  for (const first of bins.slice(0, 1)) chosen.push(first.centre);
  while (chosen.length < MAX_CLUSTERS) {
    let best: Cluster | null = null;
    let bestScore = 0;
    for (const bin of bins) {
      const distance = Math.min(...chosen.map((c) => deltaEOk(c, bin.centre)));
      const score = bin.count * distance * distance;
      if (distance >= MIN_SEED_DISTANCE && score > bestScore) [best, bestScore] = [bin, score];
    }
    if (!best) break;
    chosen.push(best.centre);
  }
  return chosen;
}

function coarseBins(swatches: Swatch[]): Cluster[] {
  const bins = new Map<number, Swatch[]>();
  for (const s of swatches) {
    const key = ((s.rgb >> 20) << 8) | (((s.rgb >> 12) & 15) << 4) | ((s.rgb >> 4) & 15);
    const bin = bins.get(key);
    if (bin) bin.push(s);
    else bins.set(key, [s]);
  }
  return [...bins.values()].map(summarise).sort((a, b) => b.count - a.count || a.mode.rgb - b.mode.rgb);
}

/**
 * Lloyd iterations from the seeds. Clusters are accumulated in place (sums per centre, in swatch order, which is
 * the order `summarise` would add them in) rather than by building a list per centre each round.
 */
function kMeans(swatches: Swatch[], initial: Lab[]): Cluster[] {
  let centres = initial;
  let clusters: Cluster[] = [];
  for (let round = 0; round < ITERATIONS; round++) {
    clusters = assign(swatches, centres);
    const next = clusters.map((c) => c.centre);
    const settled = next.length === centres.length && next.every((c, i) => deltaEOk(c, centres[i] ?? c) < 1e-4);
    centres = next;
    if (settled) break;
  }
  return clusters;
}

/** Each swatch to its nearest centre; the non-empty clusters that makes, in centre order. */
function assign(swatches: Swatch[], centres: Lab[]): Cluster[] {
  if (centres.length === 0) return [];
  const sums = new Float64Array(centres.length * 4);
  const modes: (Swatch | undefined)[] = centres.map(() => undefined);
  for (const s of swatches) {
    const k = nearest(s.lab, centres);
    sums[k * 4] = (sums[k * 4] ?? 0) + s.count;
    sums[k * 4 + 1] = (sums[k * 4 + 1] ?? 0) + s.lab.l * s.count;
    sums[k * 4 + 2] = (sums[k * 4 + 2] ?? 0) + s.lab.a * s.count;
    sums[k * 4 + 3] = (sums[k * 4 + 3] ?? 0) + s.lab.b * s.count;
    const mode = modes[k];
    if (!mode || s.count > mode.count) modes[k] = s;
  }
  const clusters: Cluster[] = [];
  modes.forEach((mode, k) => {
    if (!mode) return;
    const count = sums[k * 4] ?? 0;
    const centre = { l: (sums[k * 4 + 1] ?? 0) / count, a: (sums[k * 4 + 2] ?? 0) / count, b: (sums[k * 4 + 3] ?? 0) / count };
    clusters.push({ count, mode, centre });
  });
  return clusters;
}

/** Index of the closest centre; squared distances rank the same as ΔE_OK without the square roots. */
function nearest(lab: Lab, centres: Lab[]): number {
  let best = 0;
  let bestDistance = Infinity;
  for (let i = 0; i < centres.length; i++) {
    const centre = centres[i];
    if (!centre) continue;
    const dl = lab.l - centre.l;
    const da = lab.a - centre.a;
    const db = lab.b - centre.b;
    const distance = dl * dl + da * da + db * db;
    if (distance < bestDistance) [best, bestDistance] = [i, distance];
  }
  return best;
}

/** Swatches arrive sorted by count, so the first is the cluster's mode. */
function summarise(group: Swatch[]): Cluster {
  let count = 0;
  let l = 0;
  let a = 0;
  let b = 0;
  let mode = group[0];
  for (const s of group) {
    count += s.count;
    l += s.lab.l * s.count;
    a += s.lab.a * s.count;
    b += s.lab.b * s.count;
    if (mode && s.count > mode.count) mode = s;
  }
  if (!mode) throw new Error('empty colour cluster');
  return { count, mode, centre: { l: l / count, a: a / count, b: b / count } };
}

function mergeClose(clusters: Cluster[]): Cluster[] {
  const out = [...clusters].sort((a, b) => b.count - a.count);
  for (let i = 0; i < out.length; i++) {
    for (let j = out.length - 1; j > i; j--) {
      const [a, b] = [out[i], out[j]];
      if (!a || !b || deltaEOk(a.centre, b.centre) >= MERGE_DISTANCE) continue;
      out[i] = combine(a, b);
      out.splice(j, 1);
    }
  }
  return out;
}

function combine(a: Cluster, b: Cluster): Cluster {
  const count = a.count + b.count;
  const mix = (x: number, y: number) => (x * a.count + y * b.count) / count;
  return {
    count,
    mode: a.mode.count >= b.mode.count ? a.mode : b.mode,
    centre: { l: mix(a.centre.l, b.centre.l), a: mix(a.centre.a, b.centre.a), b: mix(a.centre.b, b.centre.b) },
  };
}

interface SnapTarget {
  hex: string;
  lab: Lab;
}

function declaredLabs(declared: readonly string[]): SnapTarget[] {
  const targets: SnapTarget[] = [];
  for (const value of declared) {
    const colour = parse(value);
    // A see-through declared colour never shows as itself in the pixels.
    const hex = colour && (colour.alpha ?? 1) >= 1 ? formatHex(colour) : undefined;
    if (!hex) continue;
    const rgb = Number.parseInt(hex.slice(1), 16);
    targets.push({ hex, lab: rgbToOklab(rgb >> 16, (rgb >> 8) & 255, rgb & 255) });
  }
  return targets;
}

function snap(mode: Swatch, targets: SnapTarget[]): string {
  let best: SnapTarget | null = null;
  let bestDistance = SNAP_DISTANCE;
  for (const target of targets) {
    const distance = deltaEOk(mode.lab, target.lab);
    if (distance <= bestDistance) [best, bestDistance] = [target, distance];
  }
  return best?.hex ?? rgbHex(mode.rgb >> 16, (mode.rgb >> 8) & 255, mode.rgb & 255);
}
