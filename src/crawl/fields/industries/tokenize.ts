/**
 * Tokens for the industry classifier: lower-case words without accents, stop words dropped, a light plural
 * stemmer, plus bigrams of neighbouring content words ("real estate", "machine learning") because many
 * industries are named by two words whose parts alone are ambiguous. Training (scripts/train-industries.ts)
 * and prediction use this same function, so the model's vocabulary always matches.
 */
const STOP_WORDS = new Set(
  `a about above after again all also am an and any are as at be because been before being below between both but by
  can could did do does doing down during each every few for from further get gets had has have having he her here
  hers him his how i if in into is it its just me more most my no nor not now of off on once only or other our ours
  out over own same she should so some such than that the their them then there these they this those through to too
  under until up us very was we were what when where which while who whom why will with would you your yours new one
  all-in-one best way world today make makes made help helps free day days every everyone people things thing per
  s re t ll ve d m o just like use using used home page site website welcome learn more read click`
    .split(/\s+/)
    .filter(Boolean),
);

const MAX_TOKENS = 4000;

export function tokenize(text: string): string[] {
  const words = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .match(/[a-z0-9]+(?:[-'][a-z0-9]+)*/g);
  const tokens: string[] = [];
  let previous: string | null = null;
  for (const raw of (words ?? []).slice(0, MAX_TOKENS)) {
    const word = stem(raw.endsWith("'s") ? raw.slice(0, -2) : raw);
    if (STOP_WORDS.has(word) || word.length < 2 || /^\d+$/.test(word)) {
      previous = null;
      continue;
    }
    tokens.push(word);
    if (previous) tokens.push(`${previous}_${word}`);
    previous = word;
  }
  return tokens;
}

/** Plural to singular for the common English endings; enough for bag-of-words features. */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && endsWithAny(word, ES_PLURALS)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !endsWithAny(word, NOT_PLURALS)) return word.slice(0, -1);
  return word;
}

const ES_PLURALS = ['ches', 'shes', 'xes', 'sses'];
const NOT_PLURALS = ['ss', 'us', 'is', 'aas', 'news', 'series', 'sports', 'logistics', 'analytics', 'ethics', 'physics', 'gas'];

/** Suffix checks without a regex per word (the tokenizer stems every word of a page). */
function endsWithAny(word: string, suffixes: readonly string[]): boolean {
  return suffixes.some((suffix) => word.endsWith(suffix));
}
