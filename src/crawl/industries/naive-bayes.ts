/**
 * Multinomial naive Bayes with Laplace smoothing and a softmax temperature. The temperature is the single
 * calibration parameter (temperature scaling, the one-parameter multiclass form of Platt scaling): raw naive
 * Bayes posteriors are far too confident because word occurrences are not independent.
 */

export interface NaiveBayesModel {
  labels: string[];
  /** Per label: token → (weighted) count. */
  counts: Record<string, number>[];
  /** Per label: sum of its counts. */
  totals: number[];
  vocabularySize: number;
  alpha: number;
  temperature: number;
  /**
   * Evidence is counted as if the text had at most this many known tokens: the temperature was fitted on
   * one-sentence texts, and without the cap a long page would make every posterior 0 or 1.
   */
  lengthCap: number;
}

export const DEFAULT_LENGTH_CAP = 12;

export interface TrainingDocument {
  label: string;
  tokens: string[];
  weight: number;
}

export function trainNaiveBayes(labels: string[], docs: TrainingDocument[], alpha = 0.5): NaiveBayesModel {
  const counts = labels.map(() => ({}) as Record<string, number>);
  const totals = labels.map(() => 0);
  const vocabulary = new Set<string>();
  for (const doc of docs) {
    const index = labels.indexOf(doc.label);
    const bucket = counts[index];
    if (!bucket) continue;
    for (const token of doc.tokens) {
      bucket[token] = (bucket[token] ?? 0) + doc.weight;
      totals[index] = (totals[index] ?? 0) + doc.weight;
      vocabulary.add(token);
    }
  }
  return { labels, counts, totals, vocabularySize: vocabulary.size, alpha, temperature: 1, lengthCap: DEFAULT_LENGTH_CAP };
}

const vocabularies = new WeakMap<NaiveBayesModel, Set<string>>();

/** Tokens the model has seen: unknown tokens carry no evidence and are ignored. */
export function knownTokens(model: NaiveBayesModel, tokens: string[]): string[] {
  let vocabulary = vocabularies.get(model);
  if (!vocabulary) {
    vocabulary = new Set(model.counts.flatMap((c) => Object.keys(c)));
    vocabularies.set(model, vocabulary);
  }
  const known = vocabulary;
  return tokens.filter((t) => known.has(t));
}

/**
 * Per-label log-likelihood of the known tokens (uniform prior: the training set's label mix is not the web's),
 * scaled down to `lengthCap` tokens' worth of evidence for longer texts.
 */
export function logLikelihoods(model: NaiveBayesModel, tokens: string[]): number[] {
  const known = knownTokens(model, tokens);
  const scale = known.length > model.lengthCap ? model.lengthCap / known.length : 1;
  return model.labels.map((_, i) => {
    const counts = model.counts[i] ?? {};
    const denominator = Math.log((model.totals[i] ?? 0) + model.alpha * model.vocabularySize);
    let sum = 0;
    for (const token of known) sum += Math.log((counts[token] ?? 0) + model.alpha) - denominator;
    return sum * scale;
  });
}

/** Softmax of log-likelihoods divided by the temperature. */
export function posteriors(logLikelihood: number[], temperature: number): number[] {
  const scaled = logLikelihood.map((l) => l / temperature);
  const max = Math.max(...scaled);
  const exps = scaled.map((s) => Math.exp(s - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}
