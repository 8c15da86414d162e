/**
 * The home-page register model: a small naive Bayes over top-level industries, trained on the taxonomy's keywords
 * and the project's labelled home-page sentences only (eval/industries/home-page-train.ts). The listing model
 * (industry-model.ts) learned from stock-listing summaries, which rarely say "stream", "playlist", "lessons" or
 * "checkout", and it has no listing label at all for education, marketing, sports, agriculture or the public sector;
 * on a home page's one-line self-description it is unsure and abstains. This model speaks that register.
 * industry-classifier.ts asks it only where the listing model abstains, and takes its answer only when the listing
 * model does not contradict it (same top-1, or an industry the listings have no label for); it answers the
 * top-level industry only. Its temperature is fitted on exactly those fallback cases among the listing
 * calibration split's texts, never on the test split (docs/industries.md, ADR 0025).
 */

export interface HomePageModelFile {
  header: { about: string; trainedBy: string; documents: number };
  /** Top-level industry ids. */
  classes: string[];
  vocabulary: string[];
  /** Per token, per class: log P(token | class), vocabulary-major, rounded to 3 decimals. */
  logLikelihood: number[];
  /**
   * Naive Bayes log-odds are over-confident: probabilities are softmax(log-likelihood sum / temperature), the
   * temperature fitted on the fallback cases of the listing model's calibration split.
   */
  temperature: number;
  /** A top-level industry is answered at this calibrated probability or above (the listing model's threshold). */
  answerThreshold: number;
  /** Top-level industries the listing model was trained with labels of: a different listing top-1 among these contradicts. */
  listingClasses: string[];
  /** Fewer distinct known tokens than this says too little. */
  minKnownTokens: number;
}

export interface HomePageModel {
  file: HomePageModelFile;
  index: Map<string, number>;
}

export interface HomePageScores {
  known: number;
  /** Top-level industries, most probable first. */
  tops: { id: string; p: number }[];
}

export function loadHomePageModel(file: HomePageModelFile): HomePageModel {
  if (file.logLikelihood.length !== file.vocabulary.length * file.classes.length) {
    throw new Error(`home-page model: ${file.logLikelihood.length} values for ${file.vocabulary.length} tokens × ${file.classes.length} classes`);
  }
  return { file, index: new Map(file.vocabulary.map((t, i) => [t, i])) };
}

/** Summed log-likelihoods of the text's distinct known tokens, per class (uniform prior: the web's mix is unknown). */
export function homePageLogits(model: HomePageModel, tokens: readonly string[]): { logits: number[]; known: number } {
  const n = model.file.classes.length;
  const logits = new Array<number>(n).fill(0);
  const seen = new Set<number>();
  for (const token of tokens) {
    const i = model.index.get(token);
    if (i === undefined || seen.has(i)) continue;
    seen.add(i);
    for (let c = 0; c < n; c += 1) logits[c] = (logits[c] ?? 0) + (model.file.logLikelihood[i * n + c] ?? 0);
  }
  return { logits, known: seen.size };
}

export function homePageProbabilities(logits: readonly number[], temperature: number): number[] {
  const scaled = logits.map((l) => l / temperature);
  const max = Math.max(...scaled);
  const exps = scaled.map((s) => Math.exp(s - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}

export function scoreHomePage(model: HomePageModel, tokens: readonly string[]): HomePageScores {
  const { logits, known } = homePageLogits(model, tokens);
  const p = homePageProbabilities(logits, model.file.temperature);
  const tops = model.file.classes.map((id, c) => ({ id, p: known ? (p[c] ?? 0) : 0 })).sort((a, b) => b.p - a.p);
  return { known, tops };
}
