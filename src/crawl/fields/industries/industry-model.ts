/**
 * The industry model: multinomial logistic regression (softmax) over "leaves" of our taxonomy, trained offline by
 * scripts/train-industries.ts on FinanceDatabase company summaries plus the taxonomy's keywords and our labelled
 * home-page sentences (docs/industries.md, ADR 0025). A leaf is a sub-industry, or a top-level industry whose
 * training rows named no sub-industry of ours ("Manufacturing, kind unknown"); a top-level industry's probability
 * is the sum of its leaves. Features are the page's distinct known tokens (tokenize.ts), L2-normalised, so a long
 * page and a one-line summary weigh alike (idf weighting was tried and made home-page text less certain). The weights ship as int8 with a scale per leaf (base64) to keep the
 * file small; the softmax temperature and the answer thresholds were fitted on a held-out calibration split.
 */

export interface IndustryModelHeader {
  /** What the file is and how it was made: shown to anyone who opens it. */
  about: string;
  source: string;
  commit: string;
  date: string;
  licence: string;
  trainedBy: string;
  trainingRows: number;
}

/** The JSON file as written by the training script. */
export interface IndustryModelFile {
  header: IndustryModelHeader;
  /** Taxonomy ids: a sub-industry, or a top-level industry (no sub-industry known). */
  leaves: string[];
  /** The top-level industry of each leaf. */
  tops: string[];
  vocabulary: string[];
  bias: number[];
  /** Per leaf: weight = int8 × scale. */
  scales: number[];
  /** base64 of an Int8Array, vocabulary-major: token t's weights are [t × leaves, (t + 1) × leaves). */
  weights: string;
  temperature: number;
  /**
   * The temperature depends on how much text there is: T × (known / lengthReference) ^ lengthExponent. Unit-length
   * features make a one-line text's logits small, and a single temperature left one-liners under-confident.
   */
  lengthExponent: number;
  lengthReference: number;
  /** A top-level industry is answered at this calibrated probability or above. */
  answerThreshold: number;
  /** A sub-industry is listed (under an answered top-level one) at this probability or above. */
  subThreshold: number;
  /** Fewer distinct known tokens than this is too little text to say anything. */
  minKnownTokens: number;
}

export interface IndustryModel {
  header: IndustryModelHeader;
  leaves: string[];
  tops: string[];
  index: Map<string, number>;
  weights: Float32Array;
  bias: Float64Array;
  temperature: number;
  lengthExponent: number;
  lengthReference: number;
  answerThreshold: number;
  subThreshold: number;
  minKnownTokens: number;
}

export function loadIndustryModel(file: IndustryModelFile): IndustryModel {
  const n = file.leaves.length;
  const bytes = Buffer.from(file.weights, 'base64');
  const expected = file.vocabulary.length * n;
  if (bytes.length !== expected || file.tops.length !== n || file.bias.length !== n || file.scales.length !== n) {
    throw new Error(`industry model: ${bytes.length} weights for ${file.vocabulary.length} tokens × ${n} leaves`);
  }
  const q = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  const weights = new Float32Array(expected);
  for (let i = 0; i < expected; i += 1) weights[i] = (q[i] ?? 0) * (file.scales[i % n] ?? 0);
  return {
    header: file.header,
    leaves: file.leaves,
    tops: file.tops,
    index: new Map(file.vocabulary.map((token, i) => [token, i])),
    weights,
    bias: Float64Array.from(file.bias),
    temperature: file.temperature,
    lengthExponent: file.lengthExponent,
    lengthReference: file.lengthReference,
    answerThreshold: file.answerThreshold,
    subThreshold: file.subThreshold,
    minKnownTokens: file.minKnownTokens,
  };
}

/** Distinct vocabulary indices of the tokens. */
export function knownFeatures(model: Pick<IndustryModel, 'index'>, tokens: readonly string[]): number[] {
  const seen = new Set<number>();
  for (const token of tokens) {
    const i = model.index.get(token);
    if (i !== undefined) seen.add(i);
  }
  return [...seen];
}

/** Feature values: every known token weighs the same, scaled so the vector has unit length (1/√n each). */
export function featureValues(features: readonly number[]): number[] {
  const x = features.length ? 1 / Math.sqrt(features.length) : 0;
  return features.map(() => x);
}

/** Leaf logits: the bias plus each known token's weight row times its feature value. */
export function leafLogits(model: Pick<IndustryModel, 'leaves' | 'weights' | 'bias'>, features: readonly number[]): Float64Array {
  const n = model.leaves.length;
  const logits = Float64Array.from(model.bias);
  if (features.length === 0) return logits;
  const x = 1 / Math.sqrt(features.length);
  for (const f of features) {
    const base = f * n;
    for (let l = 0; l < n; l += 1) logits[l] = (logits[l] ?? 0) + (model.weights[base + l] ?? 0) * x;
  }
  return logits;
}

export function softmax(logits: ArrayLike<number>, temperature = 1): number[] {
  const scaled = Array.from(logits, (l) => l / temperature);
  const max = Math.max(...scaled);
  const exps = scaled.map((s) => Math.exp(s - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}

export interface ScoredIndustry {
  id: string;
  p: number;
}

export interface IndustryScores {
  /** Distinct known tokens the scores rest on. */
  known: number;
  /** Top-level industries, most probable first (the sum of their leaves). */
  tops: ScoredIndustry[];
  /** Sub-industry leaves, most probable first. */
  subs: ScoredIndustry[];
}

/** The calibrated temperature for a text with `known` distinct known tokens. */
export function temperatureFor(model: Pick<IndustryModel, 'temperature' | 'lengthExponent' | 'lengthReference'>, known: number): number {
  return model.temperature * (Math.max(1, known) / model.lengthReference) ** model.lengthExponent;
}

/** Calibrated probabilities of the taxonomy's industries for a text's tokens. */
export function scoreTokens(model: IndustryModel, tokens: readonly string[]): IndustryScores {
  const features = knownFeatures(model, tokens);
  const p = softmax(leafLogits(model, features), temperatureFor(model, features.length));
  return { known: features.length, ...groupLeaves(model, p) };
}

/** Leaf probabilities summed into top-level industries, and the sub-industry leaves on their own. */
export function groupLeaves(model: Pick<IndustryModel, 'leaves' | 'tops'>, p: readonly number[]): Omit<IndustryScores, 'known'> {
  const tops = new Map<string, number>();
  const subs: ScoredIndustry[] = [];
  model.leaves.forEach((id, l) => {
    const top = model.tops[l] ?? id;
    tops.set(top, (tops.get(top) ?? 0) + (p[l] ?? 0));
    if (id !== top) subs.push({ id, p: p[l] ?? 0 });
  });
  const byP = (a: ScoredIndustry, b: ScoredIndustry): number => b.p - a.p;
  return { tops: [...tops].map(([id, v]) => ({ id, p: v })).sort(byP), subs: subs.sort(byP) };
}
