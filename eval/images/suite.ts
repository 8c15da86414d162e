/**
 * Image tags and categories (spec 2.6, issue 16) on the labelled real images of eval/images/labels.tsv, fetched
 * beforehand by `npm run fetch-image-set` (Debian packages; sources and licences in docs/images.md). Without the
 * fetched set the suite says so and scores nothing.
 *
 * Accuracy: nested 5-fold cross-validation of the whole training procedure (train.ts), folds grouped by source
 * folder: every image is judged by a model and thresholds that never saw it. Per tag: precision (target ≥ 95%, the
 * issue's) and recall, over all labelled images (an image labelled `none` that gets a tag counts against precision).
 * Category: accuracy where one is given, coverage, and the expected calibration error of categoryConfidence.
 * Also printed: the shipped model on the whole set, which it was trained on (a regression gate, not accuracy).
 */
import type { EvalMetric, EvalSuite } from '../run.js';
import { classifyImageKind, type TaggedKind } from '../../src/media/image-kind.js';
import { loadImageSet, type FeaturedImage } from './image-set.js';
import { kindOf, nestedCrossValidate, type NestedPrediction } from './train.js';

const TAGS: TaggedKind[] = ['photographic', 'illustration', 'screenshot'];
const TARGET = 0.95;
const CALIBRATION_BINS = 10;

export const run: EvalSuite = async () => {
  const set = await loadImageSet();
  if (!set) return { suite: 'image tags (eval/images)', sites: 0, metrics: [], failures: [], notes: ['labelled images not fetched: run `npm run fetch-image-set` first (needs apt)'] };
  const predictions = nestedCrossValidate(set.images);
  const metrics: EvalMetric[] = [{ name: 'labelled real images', value: set.images.length, unit: 'count', kind: 'held-out' }];
  const notes: string[] = [];
  if (set.missing || set.changed) notes.push(`${set.missing} labelled files missing and ${set.changed} changed in the fetched packages were left out`);
  if (set.refused) notes.push(`${set.refused} labelled files over the decoder's pixel limit were left out (a crawl never lists them)`);
  metrics.push(...tagMetrics(predictions, notes), ...categoryMetrics(predictions), ...shippedModel(set.images));
  return { suite: 'image tags (eval/images)', sites: set.images.length, metrics, failures: wrongTags(predictions, set.images), notes };
};

function tagMetrics(predictions: NestedPrediction[], notes: string[]): EvalMetric[] {
  const metrics: EvalMetric[] = [];
  let tagged = 0;
  let right = 0;
  for (const tag of TAGS) {
    const given = predictions.filter((p) => p.tags.includes(tag));
    const correct = given.filter((p) => p.kind === tag).length;
    const positives = predictions.filter((p) => p.kind === tag).length;
    tagged += given.length;
    right += correct;
    if (given.length === 0) {
      notes.push(`${tag}: never tagged (no threshold reached 98% held-out precision with 20 or more images tagged)`);
      continue;
    }
    metrics.push({ name: `${tag}: precision (held out)`, value: correct / given.length, unit: '%', kind: 'held-out', target: { value: TARGET, direction: 'higher' } });
    metrics.push({ name: `${tag}: recall (held out)`, value: positives ? correct / positives : 0, unit: '%', kind: 'held-out' });
  }
  metrics.push({ name: 'all tags: precision (held out)', value: tagged ? right / tagged : 1, unit: '%', kind: 'held-out', target: { value: TARGET, direction: 'higher' } });
  metrics.push({ name: 'all tags: tags given (held out)', value: tagged, unit: 'count', kind: 'held-out' });
  return metrics;
}

function categoryMetrics(predictions: NestedPrediction[]): EvalMetric[] {
  const given = predictions.filter((p) => p.category !== null);
  const correct = given.filter((p) => p.category === p.kind).length;
  return [
    { name: 'imageCategory: accuracy where given', value: given.length ? correct / given.length : 0, unit: '%', kind: 'held-out' },
    { name: 'imageCategory: coverage', value: given.length / predictions.length, unit: '%', kind: 'held-out' },
    { name: 'categoryConfidence: expected calibration error', value: calibrationError(given), unit: 'ratio', kind: 'held-out', target: { value: 0.1, direction: 'lower' } },
  ];
}

/** Expected calibration error over 10 equal-width confidence bins. */
export function calibrationError(given: NestedPrediction[]): number {
  let sum = 0;
  for (let b = 0; b < CALIBRATION_BINS; b++) {
    const inBin = given.filter((p) => Math.min(CALIBRATION_BINS - 1, Math.floor((p.confidence ?? 0) * CALIBRATION_BINS)) === b);
    if (inBin.length === 0) continue;
    const confidence = inBin.reduce((s, p) => s + (p.confidence ?? 0), 0) / inBin.length;
    const accuracy = inBin.filter((p) => p.category === p.kind).length / inBin.length;
    sum += (inBin.length / given.length) * Math.abs(confidence - accuracy);
  }
  return given.length ? sum : 0;
}

function shippedModel(images: FeaturedImage[]): EvalMetric[] {
  const verdicts = images.map((img) => ({ kind: kindOf(img.label), tags: classifyImageKind(img.features).tags }));
  const given = verdicts.flatMap((v) => v.tags.map((t) => t === v.kind));
  return [{ name: 'shipped model on its training set: tag precision', value: given.length ? given.filter(Boolean).length / given.length : 1, unit: '%' }];
}

function wrongTags(predictions: NestedPrediction[], images: FeaturedImage[]): string[] {
  return predictions.flatMap((p, i) => p.tags.filter((t) => t !== p.kind).map((t) => `${images[i]?.pkg}${images[i]?.path}: tagged ${t}, labelled ${p.label}`));
}
