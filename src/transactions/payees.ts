/**
 * Who a facilitator's payment went to (issue 34, docs/transactions.md#people-transfers-and-fees): people are never
 * the merchant. After a facilitator prefix (`PAYPAL *`, `VENMO *`, `CASH APP*`, `SQ *`, ...) the payee may be a
 * person: a name that looks like a person's is answered only through the curated alias table or a domain the
 * descriptor writes, never through a name in the index (a rent payment to "John Lewis" is not the department store);
 * after an intermediary that carries payments between people (`p2p`), a name in the index must also reach
 * P2P_NAME_CONFIDENCE. Pure.
 */
import { GIVEN_NAMES } from './given-names.js';
import type { Processor } from './processors.js';

/** Lowest confidence of a name found in the index after an intermediary that also pays people. */
export const P2P_NAME_CONFIDENCE = 0.95;

/** Titles written before a person's name. */
const HONORIFICS = new Set(['mr', 'mrs', 'ms', 'miss', 'mx', 'dr', 'herr', 'frau', 'mme', 'mlle', 'sr', 'sra', 'srta', 'sig', 'sigra', 'dhr', 'mevr']);

/** Given names glued to a surname (`johnsmith`) are recognized from this length on: shorter ones start ordinary words. */
const GLUED_NAME_MIN = 4;
/** Letters a glued surname has at least. */
const GLUED_SURNAME_MIN = 3;

/** `johnsmith`, `mariagarcia`: a given name glued to a surname, as PayPal prints a person's name. */
function gluedGivenName(word: string): boolean {
  for (let k = GLUED_NAME_MIN; k <= Math.min(word.length - GLUED_SURNAME_MIN, 12); k++) if (GIVEN_NAMES.has(word.slice(0, k))) return true;
  return false;
}

/**
 * A payee that reads as a person's name (normalized words, numbers and location already removed): a title first
 * (`MR SMITH`); one to three words of letters only whose first is an initial (`J SMITH`, `J R SMITH`) or a common
 * given name (`JANE DOE`, `MARIA DEL CARMEN`), or two words ending in an initial (`SMITH J`); one word that is a
 * given name (`JOHN`) or starts with one glued to a surname (`JOHNSMITH`).
 */
export function looksLikePersonName(words: readonly string[]): boolean {
  if (words.length === 0 || words.some((w) => !/^\p{L}+$/u.test(w))) return false;
  const [first = '', second = ''] = words;
  if (HONORIFICS.has(first) && words.length >= 2) return true;
  if (words.length === 1) return GIVEN_NAMES.has(first) || gluedGivenName(first);
  if (words.length > 3) return false;
  if (first.length === 1) return true;
  if (words.length === 2 && second.length === 1) return true;
  return GIVEN_NAMES.has(first);
}

/** A candidate as the matcher scores it: its source (`alias`, `domain`, or a name in the index) and confidence. */
export interface PayeeCandidate {
  source: string;
  confidence: number;
}

/**
 * The candidates that may name the payee after `processor` (null: none, every candidate stands). A seller of record
 * is the merchant whatever follows; after any other facilitator a person-looking payee keeps only alias-table and
 * written-domain candidates, and after an intermediary that also pays people a name in the index must reach
 * P2P_NAME_CONFIDENCE.
 */
export function admitPayees<T extends PayeeCandidate>(processor: Processor | null, payee: readonly string[], candidates: readonly T[]): T[] {
  if (!processor || processor.seller) return [...candidates];
  const curated = (c: T): boolean => c.source === 'alias' || c.source === 'domain';
  if (looksLikePersonName(payee)) return candidates.filter(curated);
  if (processor.p2p) return candidates.filter((c) => curated(c) || c.confidence >= P2P_NAME_CONFIDENCE);
  return [...candidates];
}
