/**
 * Which evaluation descriptions paraphrase a row of the classifier's training file (labelled.tsv). A site whose
 * description shares most of its words, or a whole phrase, with a training sentence tests recall of the training
 * set, not classification of unseen text, so such sites are left out of the industry accuracy figure (suite.ts)
 * and listed by name. Mechanical, so the split cannot be tuned by hand:
 *   - content-word overlap: Jaccard of the classifier's own word tokens (tokenize.ts, bigrams left out) ≥ 0.5, or
 *   - a shared run of ≥ 5 consecutive words (raw words, case and accents folded).
 */
import { tokenize } from '../../../src/crawl/fields/industries/tokenize.js';
import type { Labelled } from './labelled.js';

export const JACCARD_THRESHOLD = 0.5;
export const SHARED_RUN_THRESHOLD = 5;

export interface TrainingOverlap {
  /** Highest content-word Jaccard with any training row, and that row. */
  jaccard: number;
  /** Longest run of consecutive words shared with any training row, and that row. */
  sharedRun: number;
  /** The training row that overlaps most (by Jaccard, then shared run). */
  closest: string;
  paraphrase: boolean;
}

function words(text: string): string[] {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .match(/[a-z0-9]+(?:[-'][a-z0-9]+)*/g) ?? []
  );
}

function contentWords(text: string): Set<string> {
  return new Set(tokenize(text).filter((token) => !token.includes('_')));
}

function jaccard(a: Set<string>, b: Set<string>): number {
  const shared = [...a].filter((word) => b.has(word)).length;
  const union = new Set([...a, ...b]).size;
  return union === 0 ? 0 : shared / union;
}

function longestSharedRun(a: string[], b: string[]): number {
  let best = 0;
  for (let i = 0; i < a.length; i++) {
    for (let j = 0; j < b.length; j++) {
      let k = 0;
      while (i + k < a.length && j + k < b.length && a[i + k] === b[j + k]) k++;
      best = Math.max(best, k);
    }
  }
  return best;
}

export function trainingOverlap(description: string, training: readonly Labelled[]): TrainingOverlap {
  const content = contentWords(description);
  const raw = words(description);
  let best: TrainingOverlap = { jaccard: 0, sharedRun: 0, closest: '', paraphrase: false };
  for (const row of training) {
    const j = jaccard(content, contentWords(row.text));
    const run = longestSharedRun(raw, words(row.text));
    if (j > best.jaccard || (j === best.jaccard && run > best.sharedRun)) best = { ...best, jaccard: j, closest: row.text };
    best.sharedRun = Math.max(best.sharedRun, run);
  }
  return { ...best, paraphrase: best.jaccard >= JACCARD_THRESHOLD || best.sharedRun >= SHARED_RUN_THRESHOLD };
}
