/**
 * `npm run eval` suite for transaction matching (issue 21, docs/transactions.md): the labelled descriptors of
 * descriptors.ts against a fresh store with the embedded reference data and the held brands of held-brands.ts.
 * The list and the rules were written by the same team: the figures are regression gates, not accuracy on
 * statements nobody read while writing the rules.
 */
import type { EvalSuite } from '../run.js';
import { openEvalStore } from './eval-store.js';
import { HELD_OUT } from './held-out.js';
import { scoreDescriptors } from './score.js';

export const PRECISION_TARGET = 0.97;
export const RECALL_TARGET = 0.85;

export const run: EvalSuite = async () => {
  const evalStore = await openEvalStore();
  try {
    const score = await scoreDescriptors(evalStore.matcher);
    const heldOut = await scoreDescriptors(evalStore.matcher, HELD_OUT);
    return {
      suite: 'transactions (labelled card descriptors)',
      sites: score.total,
      metrics: [
        { name: 'precision on answered descriptors', value: score.precision, unit: '%', target: { value: PRECISION_TARGET, direction: 'higher' } },
        { name: 'recall (merchants answered right)', value: score.recall, unit: '%', target: { value: RECALL_TARGET, direction: 'higher' } },
        { name: 'descriptors answered', value: score.answered, unit: 'count' },
        { name: 'descriptors with a merchant', value: score.positives, unit: 'count' },
        { name: 'held-out: precision on answered', value: heldOut.precision, unit: '%', kind: 'held-out' },
        { name: 'held-out: recall', value: heldOut.recall, unit: '%', kind: 'held-out' },
      ],
      failures: [...score.failures, ...heldOut.failures.map((f) => `held-out ${f}`)],
      notes: [
        `threshold ${evalStore.matcher.threshold}; ${score.total - score.positives} of ${score.total} descriptors must not match`,
        `held-out: ${heldOut.total} descriptors (eval/transactions/held-out.ts) written after the rules and never tuned on`,
      ],
    };
  } finally {
    await evalStore.close();
  }
};
