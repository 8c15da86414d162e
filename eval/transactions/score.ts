/**
 * Scores the matcher on the labelled descriptors: precision on answered descriptors (an answer with the expected
 * domain, over every answer) and recall (expected merchants answered right, over descriptors that have one).
 */
import type { MerchantMatcher } from '../../src/transactions/merchant-matcher.js';
import { DESCRIPTORS, type LabelledDescriptor } from './descriptors.js';

export interface TransactionFigures {
  total: number;
  positives: number;
  answered: number;
  correct: number;
  precision: number;
  recall: number;
}

export interface TransactionScore extends TransactionFigures {
  /** Wrong answers and misses, one line each. */
  failures: string[];
  /** Every descriptor with the domain answered (null: no candidate reached the threshold, a 400). */
  outcomes: DescriptorOutcome<LabelledDescriptor>[];
}

export interface DescriptorOutcome<D extends LabelledDescriptor = LabelledDescriptor> {
  descriptor: D;
  answer: string | null;
}

/** Precision and recall over any subset of outcomes (a country, a class). */
export function figures(outcomes: readonly DescriptorOutcome[]): TransactionFigures {
  const positives = outcomes.filter((o) => o.descriptor.expected !== null).length;
  const answered = outcomes.filter((o) => o.answer !== null).length;
  const correct = outcomes.filter((o) => o.answer !== null && o.answer === o.descriptor.expected).length;
  return { total: outcomes.length, positives, answered, correct, precision: answered === 0 ? 0 : correct / answered, recall: positives === 0 ? 0 : correct / positives };
}

export async function scoreDescriptors(matcher: MerchantMatcher, descriptors: readonly LabelledDescriptor[] = DESCRIPTORS): Promise<TransactionScore> {
  const failures: string[] = [];
  const outcomes: DescriptorOutcome[] = [];
  for (const d of descriptors) {
    const best = await matcher.bestCandidate({ transactionLabel: d.label, countryCode: d.countryCode, mcc: d.mcc, city: d.city });
    const match = best && best.confidence >= matcher.threshold ? best : null;
    const got = best ? `${best.domain} (${best.confidence.toFixed(2)} ${best.source} "${best.alias}")` : 'no candidate';
    outcomes.push({ descriptor: d, answer: match ? match.domain : null });
    if (match && match.domain === d.expected) continue;
    if (match) failures.push(`WRONG ${d.label} [${d.countryCode}]: want ${d.expected ?? 'no match'}, got ${got}`);
    else if (d.expected !== null) failures.push(`MISS  ${d.label} [${d.countryCode}]: want ${d.expected}, best ${got}`);
  }
  return { ...figures(outcomes), failures, outcomes };
}
