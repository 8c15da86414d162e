/**
 * Scores the matcher on the labelled descriptors: precision on answered descriptors (an answer with the expected
 * domain, over every answer) and recall (expected merchants answered right, over descriptors that have one).
 */
import type { MerchantMatcher } from '../../src/transactions/merchant-matcher.js';
import { DESCRIPTORS, type LabelledDescriptor } from './descriptors.js';

export interface TransactionScore {
  total: number;
  positives: number;
  answered: number;
  correct: number;
  precision: number;
  recall: number;
  /** Wrong answers and misses, one line each. */
  failures: string[];
}

export async function scoreDescriptors(matcher: MerchantMatcher, descriptors: readonly LabelledDescriptor[] = DESCRIPTORS): Promise<TransactionScore> {
  let answered = 0;
  let correct = 0;
  const failures: string[] = [];
  for (const d of descriptors) {
    const best = await matcher.bestCandidate({ transactionLabel: d.label, countryCode: d.countryCode, mcc: d.mcc, city: d.city });
    const match = best && best.confidence >= matcher.threshold ? best : null;
    const got = best ? `${best.domain} (${best.confidence.toFixed(2)} ${best.source} "${best.alias}")` : 'no candidate';
    if (match) answered += 1;
    if (match && match.domain === d.expected) correct += 1;
    else if (match) failures.push(`WRONG ${d.label} [${d.countryCode}]: want ${d.expected ?? 'no match'}, got ${got}`);
    else if (d.expected !== null) failures.push(`MISS  ${d.label} [${d.countryCode}]: want ${d.expected}, best ${got}`);
  }
  const positives = descriptors.filter((d) => d.expected !== null).length;
  return { total: descriptors.length, positives, answered, correct, precision: answered === 0 ? 0 : correct / answered, recall: positives === 0 ? 0 : correct / positives, failures };
}
