/**
 * Multinomial logistic regression by stochastic gradient descent (AdaGrad step sizes, L2 penalty on the rows a
 * document touches), on sparse feature vectors of unit length: the same features leafLogits() reads at prediction
 * time. Deterministic: documents are shuffled by a seeded generator.
 */
import { seededRandom } from '../../src/platform/seeded-random.js';

export interface TrainingExample {
  features: number[];
  /** The features' values (unit length), as featureValues() computes them at prediction time. */
  values: number[];
  leaf: number;
  weight: number;
}

export interface TrainedWeights {
  /** vocabulary-major, features × leaves */
  weights: Float64Array;
  bias: Float64Array;
}

export interface TrainOptions {
  epochs: number;
  learningRate: number;
  l2: number;
  seed: number;
}

export function trainSoftmax(examples: readonly TrainingExample[], features: number, leaves: number, options: TrainOptions): TrainedWeights {
  const weights = new Float64Array(features * leaves);
  const bias = new Float64Array(leaves);
  const g2 = new Float64Array(features * leaves).fill(1e-8);
  const b2 = new Float64Array(leaves).fill(1e-8);
  const random = seededRandom(options.seed);
  const order = examples.map((_, i) => i);
  const p = new Float64Array(leaves);
  for (let epoch = 0; epoch < options.epochs; epoch += 1) {
    for (let i = order.length - 1; i > 0; i -= 1) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j] ?? 0, order[i] ?? 0];
    }
    for (const k of order) {
      const ex = examples[k];
      if (!ex || ex.features.length === 0) continue;
      for (let l = 0; l < leaves; l += 1) p[l] = bias[l] ?? 0;
      ex.features.forEach((f, k) => {
        const x = ex.values[k] ?? 0;
        for (let l = 0; l < leaves; l += 1) p[l] = (p[l] ?? 0) + (weights[f * leaves + l] ?? 0) * x;
      });
      let max = -Infinity;
      for (let l = 0; l < leaves; l += 1) max = Math.max(max, p[l] ?? 0);
      let sum = 0;
      for (let l = 0; l < leaves; l += 1) {
        p[l] = Math.exp((p[l] ?? 0) - max);
        sum += p[l] ?? 0;
      }
      for (let l = 0; l < leaves; l += 1) {
        const err = (((p[l] ?? 0) / sum) - (l === ex.leaf ? 1 : 0)) * ex.weight;
        b2[l] = (b2[l] ?? 0) + err * err;
        bias[l] = (bias[l] ?? 0) - (options.learningRate * err) / Math.sqrt(b2[l] ?? 1);
        for (let k = 0; k < ex.features.length; k += 1) {
          const w = (ex.features[k] ?? 0) * leaves + l;
          const grad = err * (ex.values[k] ?? 0) + options.l2 * (weights[w] ?? 0);
          g2[w] = (g2[w] ?? 0) + grad * grad;
          weights[w] = (weights[w] ?? 0) - (options.learningRate * grad) / Math.sqrt(g2[w] ?? 1);
        }
      }
    }
  }
  return { weights, bias };
}

/** int8 per weight with one scale per leaf (the leaf's largest magnitude / 127). */
export function quantize(weights: Float64Array, leaves: number): { bytes: Int8Array; scales: number[] } {
  const scales = Array.from({ length: leaves }, () => 0);
  for (let i = 0; i < weights.length; i += 1) scales[i % leaves] = Math.max(scales[i % leaves] ?? 0, Math.abs(weights[i] ?? 0));
  const rounded = scales.map((s) => (s > 0 ? s / 127 : 1));
  const bytes = new Int8Array(weights.length);
  for (let i = 0; i < weights.length; i += 1) bytes[i] = Math.round((weights[i] ?? 0) / (rounded[i % leaves] ?? 1));
  return { bytes, scales: rounded.map((s) => Number(s.toPrecision(6))) };
}
