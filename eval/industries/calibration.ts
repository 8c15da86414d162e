/**
 * Calibration arithmetic shared by the training script, `npm run eval` and the tests: reliability bins and the
 * expected calibration error (ECE) of top-1 confidences, the softmax temperature that minimises negative
 * log-likelihood, and the lowest answer threshold that keeps the accuracy of answered items at a target.
 */

export interface Point {
  /** Top-1 probability. */
  confidence: number;
  correct: boolean;
}

export interface ReliabilityBin {
  range: string;
  n: number;
  meanConfidence: number;
  accuracy: number;
}

export interface Reliability {
  n: number;
  accuracy: number;
  /** Σ over bins of (bin share × |mean confidence − accuracy|), 10 equal-width bins. */
  ece: number;
  bins: ReliabilityBin[];
}

function round(x: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

export function reliability(points: readonly Point[], binCount = 10): Reliability {
  const bins: ReliabilityBin[] = [];
  let ece = 0;
  for (let b = 0; b < binCount; b += 1) {
    const lo = b / binCount;
    const hi = (b + 1) / binCount;
    const inBin = points.filter((p) => p.confidence >= lo && (p.confidence < hi || (b === binCount - 1 && p.confidence <= 1)));
    const n = inBin.length;
    const meanConfidence = n ? inBin.reduce((s, p) => s + p.confidence, 0) / n : 0;
    const accuracy = n ? inBin.filter((p) => p.correct).length / n : 0;
    if (points.length) ece += (n / points.length) * Math.abs(meanConfidence - accuracy);
    bins.push({ range: `${lo.toFixed(1)}–${hi.toFixed(1)}`, n, meanConfidence: round(meanConfidence), accuracy: round(accuracy) });
  }
  const accuracy = points.length ? points.filter((p) => p.correct).length / points.length : 0;
  return { n: points.length, accuracy: round(accuracy), ece: round(ece, 4), bins };
}

/** Coverage and accuracy of the items whose confidence reaches the threshold. */
export function answered(points: readonly Point[], threshold: number): { coverage: number; accuracy: number; n: number } {
  const kept = points.filter((p) => p.confidence >= threshold);
  return {
    n: kept.length,
    coverage: points.length ? kept.length / points.length : 0,
    accuracy: kept.length ? kept.filter((p) => p.correct).length / kept.length : 0,
  };
}

/** The lowest threshold (step 0.01) whose answered accuracy reaches `target`; 1 when none does. */
export function lowestThreshold(points: readonly Point[], target: number, minimum = 0.3): number {
  for (let t = minimum; t < 1; t = round(t + 0.01, 2)) {
    const a = answered(points, t);
    if (a.n > 0 && a.accuracy >= target) return t;
  }
  return 1;
}

/**
 * The temperature minimising mean negative log-likelihood of the true class: golden-section search on log T over
 * [0.2, 8] (NLL is convex in 1/T for fixed logits). `nll(t)` is the caller's: it knows how leaf probabilities sum to
 * the class that is scored.
 */
export function fitTemperature(nll: (temperature: number) => number): number {
  const ratio = (Math.sqrt(5) - 1) / 2;
  let lo = Math.log(0.2);
  let hi = Math.log(8);
  let a = hi - ratio * (hi - lo);
  let b = lo + ratio * (hi - lo);
  let fa = nll(Math.exp(a));
  let fb = nll(Math.exp(b));
  while (hi - lo > 0.005) {
    if (fa < fb) {
      hi = b;
      b = a;
      fb = fa;
      a = hi - ratio * (hi - lo);
      fa = nll(Math.exp(a));
    } else {
      lo = a;
      a = b;
      fa = fb;
      b = lo + ratio * (hi - lo);
      fb = nll(Math.exp(b));
    }
  }
  return round(Math.exp((lo + hi) / 2));
}
