/**
 * Trains the image-kind model offline and writes src/media/image-kind-model.json (docs/images.md).
 *   npm run fetch-image-set && node --import tsx eval/images/train.ts
 * Data: the labelled real images (labels.tsv; portrait counts as photographic, pattern and text as other: too few
 * to learn). Model: multinomial gradient boosting (Friedman 2001): each round fits one depth-2 regression tree per
 * class to the softmax residuals, split values at 32 quantiles per feature, at least 8 images per leaf, Newton leaf
 * values times a learning rate of 0.1, 150 rounds. Held-out predictions: 5-fold cross-validation (each image
 * scored by a model trained without its fold; per label, contiguous blocks of images sorted by source path, so
 * near-identical files of one folder do not sit on both sides). Tag thresholds: the lowest probability ≥ 0.6 at
 * which the held-out precision of that class is ≥ 98% with at least 20 tagged images; none found → never tagged.
 */
import { writeFile } from 'node:fs/promises';
import { IMAGE_FEATURE_NAMES, type ImageFeatures } from '../../src/media/image-features.js';
import { classifyImageKind, featureVector, IMAGE_KINDS, kindProbabilities, kindScores, softmax, type ImageKind, type ImageKindModel, type KindTree, type TaggedKind } from '../../src/media/image-kind.js';
import { loadImageSet, type FeaturedImage, type ImageLabel } from './image-set.js';

const ROUNDS = 150;
const LEARNING_RATE = 0.1;
const MIN_LEAF = 8;
const MAX_DEPTH = 2;
const BINS = 32;
const FOLDS = 5;
const TARGET_PRECISION = 0.98;
const MIN_TAGGED = 20;
const MIN_THRESHOLD = 0.6;
const CATEGORY_MIN = 0.5;

export function kindOf(label: ImageLabel): ImageKind {
  if (label === 'portrait') return 'photographic';
  if (label === 'photographic' || label === 'illustration' || label === 'screenshot') return label;
  return 'other';
}

/** Candidate split values of each feature: up to BINS quantiles of the training values. */
function splitValues(xs: number[][]): number[][] {
  return IMAGE_FEATURE_NAMES.map((_, j) => {
    const sorted = xs.map((x) => x[j] ?? 0).sort((a, b) => a - b);
    const values = new Set<number>();
    for (let b = 1; b < BINS; b++) values.add(sorted[Math.floor((b * sorted.length) / BINS)] ?? 0);
    return [...values].sort((a, b) => a - b);
  });
}

interface Split {
  f: number;
  t: number;
  gain: number;
}

/** Each row's bin per feature: bins[i][f] = how many of the feature's split values lie below the row's value. */
function binRows(xs: number[][], cuts: number[][]): number[][] {
  return xs.map((x) => cuts.map((values, f) => values.filter((v) => v < (x[f] ?? 0)).length));
}

/**
 * Best split of `rows` on the residuals (squared-sum gain), or null when no side would keep MIN_LEAF rows. One pass
 * per feature builds the residual sum and count per bin; the prefix sums give every candidate split.
 */
function bestSplit(rows: number[], bins: number[][], r: number[], cuts: number[][]): Split | null {
  let best: Split | null = null;
  const total = rows.reduce((s, i) => s + (r[i] ?? 0), 0);
  const base = (total * total) / rows.length;
  cuts.forEach((values, f) => {
    const sums = new Array<number>(values.length + 1).fill(0);
    const counts = new Array<number>(values.length + 1).fill(0);
    for (const i of rows) {
      const b = bins[i]?.[f] ?? 0;
      sums[b]! += r[i] ?? 0;
      counts[b]! += 1;
    }
    let sumL = 0;
    let nL = 0;
    values.forEach((t, b) => {
      // Rows in bins 0..b have values ≤ values[b] = t.
      sumL += sums[b] ?? 0;
      nL += counts[b] ?? 0;
      const nR = rows.length - nL;
      if (nL < MIN_LEAF || nR < MIN_LEAF) return;
      const gain = (sumL * sumL) / nL + ((total - sumL) * (total - sumL)) / nR - base;
      if (!best || gain > best.gain) best = { f, t, gain };
    });
  });
  return best;
}

/** Newton step of the multinomial deviance for a leaf (Friedman 2001), scaled by the learning rate. */
function leafValue(rows: number[], r: number[], k: number): number {
  const num = rows.reduce((s, i) => s + (r[i] ?? 0), 0);
  const den = rows.reduce((s, i) => s + Math.abs(r[i] ?? 0) * (1 - Math.abs(r[i] ?? 0)), 0);
  const round = (v: number): number => Math.round(v * 1e4) / 1e4;
  return den < 1e-9 ? 0 : round(LEARNING_RATE * ((k - 1) / k) * (num / den));
}

function grow(rows: number[], xs: number[][], bins: number[][], r: number[], cuts: number[][], k: number, depth: number): KindTree {
  const split = depth < MAX_DEPTH ? bestSplit(rows, bins, r, cuts) : null;
  if (!split) return leafValue(rows, r, k);
  const { f, t } = split;
  const left = rows.filter((i) => (xs[i]?.[f] ?? 0) <= t);
  const right = rows.filter((i) => (xs[i]?.[f] ?? 0) > t);
  return { f, t, l: grow(left, xs, bins, r, cuts, k, depth + 1), r: grow(right, xs, bins, r, cuts, k, depth + 1) };
}

export function fit(images: FeaturedImage[]): ImageKindModel {
  const xs = images.map((i) => featureVector(i.features));
  const y = images.map((i) => IMAGE_KINDS.indexOf(kindOf(i.label)));
  const k = IMAGE_KINDS.length;
  const cuts = splitValues(xs);
  const bins = binRows(xs, cuts);
  const rows = xs.map((_, i) => i);
  const base = IMAGE_KINDS.map((_, c) => Math.round(Math.log((y.filter((v) => v === c).length + 1) / (y.length + k)) * 1e4) / 1e4);
  const model: ImageKindModel = { features: [...IMAGE_FEATURE_NAMES], classes: [...IMAGE_KINDS], base, rounds: [], tagThresholds: {}, categoryMin: CATEGORY_MIN };
  const scores = xs.map(() => [...base]);
  for (let round = 0; round < ROUNDS; round++) {
    const probs = scores.map((s) => softmax(s));
    const trees = IMAGE_KINDS.map((_, c) => {
      const residual = probs.map((p, i) => (y[i] === c ? 1 : 0) - (p[c] ?? 0));
      return grow(rows, xs, bins, residual, cuts, k, 0);
    });
    model.rounds.push(trees);
    xs.forEach((x, i) => {
      const add = kindScores(x, { base: new Array<number>(k).fill(0), rounds: [trees] });
      scores[i] = (scores[i] ?? []).map((v, c) => v + (add[c] ?? 0));
    });
  }
  return model;
}

/** Fold of an image: stratified by label, and by source folder within it. */
export function foldOf(images: FeaturedImage[]): number[] {
  const folds = new Array<number>(images.length).fill(0);
  for (const kind of IMAGE_KINDS) {
    // Contiguous blocks of the label's images sorted by folder: one folder's near-twins mostly share a fold.
    const members = images.map((img, i) => ({ i, key: `${img.pkg}${img.path}` })).filter(({ i }) => kindOf(images[i]!.label) === kind);
    members.sort((a, b) => a.key.localeCompare(b.key));
    members.forEach(({ i }, rank) => (folds[i] = Math.floor((rank * FOLDS) / members.length)));
  }
  return folds;
}

export interface HeldOut {
  label: ImageLabel;
  kind: ImageKind;
  probabilities: number[];
}

export function crossValidate(images: FeaturedImage[], predict: (model: ImageKindModel, f: ImageFeatures) => number[]): HeldOut[] {
  const folds = foldOf(images);
  const out: HeldOut[] = new Array<HeldOut>(images.length);
  for (let f = 0; f < FOLDS; f++) {
    const model = fit(images.filter((_, i) => folds[i] !== f));
    images.forEach((img, i) => {
      if (folds[i] === f) out[i] = { label: img.label, kind: kindOf(img.label), probabilities: predict(model, img.features) };
    });
  }
  return out;
}

export function chooseThresholds(heldOut: HeldOut[], target = TARGET_PRECISION): Partial<Record<TaggedKind, number>> {
  const thresholds: Partial<Record<TaggedKind, number>> = {};
  (['photographic', 'illustration', 'screenshot'] as const).forEach((kind) => {
    const c = IMAGE_KINDS.indexOf(kind);
    for (let t = MIN_THRESHOLD; t < 0.995; t += 0.01) {
      const tagged = heldOut.filter((h) => (h.probabilities[c] ?? 0) >= t);
      const right = tagged.filter((h) => h.kind === kind).length;
      if (tagged.length >= MIN_TAGGED && right / tagged.length >= target) {
        thresholds[kind] = Math.round(t * 100) / 100;
        return;
      }
    }
  });
  return thresholds;
}

export interface NestedPrediction extends HeldOut {
  /** The tags and category the held-out model gave, with thresholds chosen without this image's fold. */
  tags: TaggedKind[];
  category: TaggedKind | null;
  confidence: number | null;
}

/**
 * The honest estimate of what the shipped procedure does on images it never saw: for each outer fold, thresholds
 * are chosen by cross-validation inside the other folds, a model is fitted on them, and the fold is classified.
 */
export function nestedCrossValidate(images: FeaturedImage[], target = TARGET_PRECISION): NestedPrediction[] {
  const folds = foldOf(images);
  const out = new Array<NestedPrediction>(images.length);
  for (let f = 0; f < FOLDS; f++) {
    const train = images.filter((_, i) => folds[i] !== f);
    const model = { ...fit(train), tagThresholds: chooseThresholds(crossValidate(train, (m, x) => kindProbabilities(x, m)), target) };
    images.forEach((img, i) => {
      if (folds[i] !== f) return;
      const verdict = classifyImageKind(img.features, model);
      out[i] = { label: img.label, kind: kindOf(img.label), probabilities: kindProbabilities(img.features, model), tags: verdict.tags, category: verdict.category, confidence: verdict.confidence };
    });
  }
  return out;
}

async function main(): Promise<void> {
  const set = await loadImageSet();
  if (!set) throw new Error('image set not fetched: run `npm run fetch-image-set` first');
  const heldOut = crossValidate(set.images, (m, f) => kindProbabilities(f, m));
  const model = { ...fit(set.images), tagThresholds: chooseThresholds(heldOut) };
  await writeFile(new URL('../../src/media/image-kind-model.json', import.meta.url), `${JSON.stringify(model)}\n`);
  console.log(`trained on ${set.images.length} images (${set.missing} missing, ${set.changed} changed, ${set.refused} refused); thresholds ${JSON.stringify(model.tagThresholds)}`);
}

if (process.argv[1]?.endsWith('train.ts')) await main();
