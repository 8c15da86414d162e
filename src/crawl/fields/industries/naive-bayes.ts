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
  return knownLogLikelihoods(model, knownTokens(model, tokens));
}

/** logLikelihoods of tokens already filtered by knownTokens. */
export function knownLogLikelihoods(model: NaiveBayesModel, known: string[]): number[] {
  const scale = known.length > model.lengthCap ? model.lengthCap / known.length : 1;
  const sums = new Float64Array(model.labels.length);
  // Token by token, each label's sum receives the same terms in the same order as a per-label loop would.
  for (const token of known) {
    const row = tokenRow(model, token);
    for (let i = 0; i < sums.length; i += 1) sums[i] = (sums[i] ?? 0) + (row[i] ?? 0);
  }
  return model.labels.map((_, i) => (sums[i] ?? 0) * scale);
}

const rows = new WeakMap<NaiveBayesModel, Map<string, Float64Array>>();

/**
 * A token's log-probability term under every label, computed once per model and token: the classifier reads
 * the same few hundred words on every page, and 54 labels × every token of object lookups and logarithms per
 * page was most of its time.
 */
function tokenRow(model: NaiveBayesModel, token: string): Float64Array {
  let cache = rows.get(model);
  if (!cache) {
    cache = new Map();
    rows.set(model, cache);
  }
  let row = cache.get(token);
  if (!row) {
    row = Float64Array.from(model.labels, (_, i) => {
      const denominator = Math.log((model.totals[i] ?? 0) + model.alpha * model.vocabularySize);
      return Math.log((model.counts[i]?.[token] ?? 0) + model.alpha) - denominator;
    });
    cache.set(token, row);
  }
  return row;
}

/** Softmax of log-likelihoods divided by the temperature. */
export function posteriors(logLikelihood: number[], temperature: number): number[] {
  const scaled = logLikelihood.map((l) => l / temperature);
  const max = Math.max(...scaled);
  const exps = scaled.map((s) => Math.exp(s - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}
