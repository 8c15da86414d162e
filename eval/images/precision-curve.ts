/**
 * Precision/recall of one image tag against the threshold on its held-out probability (5-fold cross-validation
 * grouped by source folder, train.ts), with the Wilson 95% lower bound of each precision; then what the whole
 * procedure keeps held out (nested cross-validation) when thresholds are chosen for 95%, 96% or the shipped 98%
 * cross-validated precision: how the tag thresholds of docs/images.md were judged. Printed by
 * `node --import tsx eval/images/precision-curve.ts` (needs the fetched set; a few minutes).
 */
import { IMAGE_KINDS, kindProbabilities, type TaggedKind } from '../../src/media/image-kind.js';
import { loadImageSet } from './image-set.js';
import { crossValidate, nestedCrossValidate, type HeldOut } from './train.js';

export interface CurvePoint {
  threshold: number;
  tagged: number;
  right: number;
  precision: number;
  /** Wilson score interval, 95%, lower end. */
  precisionLower: number;
  recall: number;
}

/** Lower end of the Wilson score interval for k successes in n trials (z = 1.96). */
export function wilsonLower(k: number, n: number, z = 1.96): number {
  if (n === 0) return 0;
  const p = k / n;
  const z2 = z * z;
  return (p + z2 / (2 * n) - z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
}

export function precisionCurve(heldOut: readonly HeldOut[], kind: TaggedKind, thresholds: readonly number[]): CurvePoint[] {
  const c = IMAGE_KINDS.indexOf(kind);
  const positives = heldOut.filter((h) => h.kind === kind).length;
  return thresholds.map((threshold) => {
    const tagged = heldOut.filter((h) => (h.probabilities[c] ?? 0) >= threshold);
    const right = tagged.filter((h) => h.kind === kind).length;
    return {
      threshold, tagged: tagged.length, right,
      precision: tagged.length ? right / tagged.length : 1,
      precisionLower: wilsonLower(right, tagged.length),
      recall: positives ? right / positives : 0,
    };
  });
}

async function main(): Promise<void> {
  const set = await loadImageSet();
  if (!set) throw new Error('image set not fetched: run `npm run fetch-image-set` first');
  const heldOut = crossValidate(set.images, (m, f) => kindProbabilities(f, m));
  const thresholds = [0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99];
  for (const kind of ['photographic', 'illustration', 'screenshot'] as const) {
    console.log(`\n${kind} (held-out, ${heldOut.length} images)\n| threshold | tagged | right | precision | Wilson 95% lower | recall |\n|---|---|---|---|---|---|`);
    for (const p of precisionCurve(heldOut, kind, thresholds)) {
      console.log(`| ${p.threshold.toFixed(2)} | ${p.tagged} | ${p.right} | ${(p.precision * 100).toFixed(1)}% | ${(p.precisionLower * 100).toFixed(1)}% | ${(p.recall * 100).toFixed(1)}% |`);
    }
  }
  console.log('\nnested cross-validation of the whole procedure, by selection target\n| target | photographic | illustration | screenshot | all tags |\n|---|---|---|---|---|');
  for (const target of [0.95, 0.96, 0.98]) {
    const predictions = nestedCrossValidate(set.images, target);
    const cells = (['photographic', 'illustration', 'screenshot'] as const).map((tag) => {
      const given = predictions.filter((p) => p.tags.includes(tag));
      const right = given.filter((p) => p.kind === tag).length;
      const positives = predictions.filter((p) => p.kind === tag).length;
      return `${right}/${given.length}, recall ${((positives ? right / positives : 0) * 100).toFixed(1)}%`;
    });
    const all = predictions.flatMap((p) => p.tags.map((t) => t === p.kind));
    const right = all.filter(Boolean).length;
    console.log(`| ${target} | ${cells.join(' | ')} | ${right}/${all.length} (${((all.length ? right / all.length : 1) * 100).toFixed(1)}%) |`);
  }
}

if (process.argv[1]?.endsWith('precision-curve.ts')) await main();
