/**
 * What kind of image a banner or picture is (spec 2.6 tags, `imageCategory`): gradient-boosted depth-2 decision trees
 * over the hand features of image-features.ts (softmax over four classes), trained offline on labelled real images
 * (eval/images/train.ts, docs/images.md) and shipped as image-kind-model.json (a few hundred small trees, evaluated in
 * microseconds). Classes: photographic, illustration, screenshot and `other` (anything no tag fits: filtered or
 * composited images, diagrams with text, textures, blank-ish art). A class becomes a tag only at or above its own
 * threshold, chosen on held-out predictions for at least 98% precision, so most images get no tag: a wrong tag is
 * worse than none. The category is the likeliest class when it is not `other` and its probability reaches
 * `categoryMin`; its confidence is that probability (held-out reliability in docs/images.md).
 * A linear model over the same features was tried first: it fitted only 75% of its own training images.
 */
import modelData from './image-kind-model.json' with { type: 'json' };
import { IMAGE_FEATURE_NAMES, type ImageFeatures } from './image-features.js';

export const IMAGE_KINDS = ['photographic', 'illustration', 'screenshot', 'other'] as const;
export type ImageKind = (typeof IMAGE_KINDS)[number];
export type TaggedKind = Exclude<ImageKind, 'other'>;

/** A leaf's score, or a split: feature index `f`, go left when the value is ≤ `t`. */
export type KindTree = number | { f: number; t: number; l: KindTree; r: KindTree };

export interface ImageKindModel {
  features: string[];
  classes: string[];
  /** Starting score of each class (log prior). */
  base: number[];
  /** rounds[round][class]: one tree per class per boosting round, already scaled by the learning rate. */
  rounds: KindTree[][];
  /** Minimum probability for each class to become a tag (held-out precision ≥ 98%); absent: never tagged. */
  tagThresholds: Partial<Record<TaggedKind, number>>;
  categoryMin: number;
}

export interface ImageKindVerdict {
  probabilities: Record<ImageKind, number>;
  tags: TaggedKind[];
  category: TaggedKind | null;
  confidence: number | null;
}

// The JSON's inferred type spells out every tree; the shape is checked by kindProbabilities' feature check and tests.
export const IMAGE_KIND_MODEL = modelData as unknown as ImageKindModel;

export function classifyImageKind(features: ImageFeatures, model: ImageKindModel = IMAGE_KIND_MODEL): ImageKindVerdict {
  const probs = kindProbabilities(features, model);
  const probabilities = Object.fromEntries(IMAGE_KINDS.map((k) => [k, probs[model.classes.indexOf(k)] ?? 0])) as Record<ImageKind, number>;
  const tags = (Object.entries(model.tagThresholds) as [TaggedKind, number][]).filter(([k, t]) => probabilities[k] >= t).map(([k]) => k);
  const [best, p] = (Object.entries(probabilities) as [ImageKind, number][]).reduce((a, b) => (b[1] > a[1] ? b : a));
  const category = best !== 'other' && p >= model.categoryMin ? best : null;
  return { probabilities, tags, category, confidence: category ? Math.round(p * 100) / 100 : null };
}

/** Softmax over the classes (model order) of the summed tree scores. */
export function kindProbabilities(features: ImageFeatures, model: ImageKindModel): number[] {
  if (model.features.join() !== IMAGE_FEATURE_NAMES.join()) throw new Error('image-kind-model.json was trained on other features');
  return softmax(kindScores(featureVector(features), model));
}

export function kindScores(x: readonly number[], model: Pick<ImageKindModel, 'base' | 'rounds'>): number[] {
  const scores = [...model.base];
  for (const round of model.rounds) round.forEach((tree, c) => (scores[c] = (scores[c] ?? 0) + leafOf(tree, x)));
  return scores;
}

export function featureVector(features: ImageFeatures): number[] {
  return IMAGE_FEATURE_NAMES.map((n) => features[n]);
}

function leafOf(tree: KindTree, x: readonly number[]): number {
  let node = tree;
  while (typeof node !== 'number') node = (x[node.f] ?? 0) <= node.t ? node.l : node.r;
  return node;
}

export function softmax(logits: number[]): number[] {
  const max = Math.max(...logits);
  const exps = logits.map((l) => Math.exp(l - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}
