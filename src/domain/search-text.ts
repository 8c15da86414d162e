/**
 * Text rules of search by name (issue 20, docs/search.md): how names and queries are normalized for the index,
 * how a reference-data company name is shown, and how well a candidate matches a query. Pure functions: the store
 * normalizes with them when it writes, the search service when it reads, so both sides agree.
 */

/** Lower case, accents removed (NFKD minus combining marks), `&` as `and`, every other non-alphanumeric a space. */
export function normalizeName(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/æ/g, 'ae')
    .replace(/ø/g, 'o')
    .replace(/œ/g, 'oe')
    .replace(/ł/g, 'l')
    .replace(/&/g, ' and ')
    .replace(/['’]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Legal-form and listing words that say nothing of the brand (`Apple Inc.` is searched and shown as `Apple`). */
const TRAILING_NOISE = new Set([
  'inc', 'incorporated', 'corp', 'corporation', 'co', 'company', 'companies', 'ltd', 'limited', 'llc', 'lp', 'llp', 'plc', 'sa', 'ag', 'nv', 'se',
  'spa', 'sab', 'de', 'cv', 'bv', 'ab', 'asa', 'oyj', 'as', 'a', 's', 'kgaa', 'gmbh', 'holdings', 'holding', 'group', 'the', 'adr', 'ads',
  'class', 'b', 'c', 'ordinary', 'shares', 'common', 'stock', 'registered', 'sponsored', 'tbk', 'pt', 'bhd', 'berhad', 'pcl', 'n', 'v', 'p',
  // `Amazon.com, Inc.` is listed as `AMAZON COM INC`.
  'com',
]);

/** A word (`Co.,LTD` included) made only of legal-form words. */
function isNoiseWord(word: string): boolean {
  const parts = normalizeName(word).split(' ');
  return parts.every((p) => p === '' || TRAILING_NOISE.has(p)) || TRAILING_NOISE.has(parts.join(''));
}

/**
 * A reference-data company name as a brand name: text after ` - ` or `(` dropped, legal-form words at the end
 * dropped (never the first word), a leading `The` dropped, ALL-CAPS names title-cased.
 */
export function displayCompanyName(raw: string): string {
  let name = raw.split(/\s+-\s+|\s*\(/)[0]?.trim() ?? raw.trim();
  const words = name.split(/\s+/);
  while (words.length > 1 && isNoiseWord(words[words.length - 1] ?? '')) words.pop();
  if (words.length > 1 && /^the$/i.test(words[0] ?? '')) words.shift();
  name = words.join(' ').replace(/[,.;:]+$/, '');
  if (name === name.toUpperCase() && /[A-Z]{4}/.test(name)) name = name.toLowerCase().replace(/(^|[\s-])(\p{L})/gu, (_m, sep: string, ch: string) => sep + ch.toUpperCase());
  return name || raw.trim();
}

/** The first label of a registrable domain (`stripe` of `stripe.com`), normalized: names are often typed as it. */
export function domainLabel(domain: string): string {
  return normalizeName(domain.split('.')[0] ?? domain);
}

/** A ticker as people type it: `BRK.B` → `brk` (the share class is left out), `7203` stays. */
export function tickerNorm(ticker: string): string {
  return normalizeName(ticker.split(/[.\-/\s]/)[0] ?? ticker);
}

/**
 * The ticker a normalized query may be (`aapl`, `brk b` typed as `BRK.B` → `brk`), or null when it cannot be one
 * (more than a word and a share class, or too long).
 */
export function tickerQuery(norm: string): string | null {
  const match = /^([\p{L}\p{N}]{1,10})(?: [\p{L}\p{N}]{1,2})?$/u.exec(norm);
  return match?.[1] ?? null;
}

/** Distinct character trigrams of a normalized text (what the FTS5 trigram tokenizer indexes). */
export function trigrams(norm: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i + 3 <= norm.length; i++) out.add(norm.slice(i, i + 3));
  return [...out];
}

/**
 * One-edit variants of a short query (adjacent transpositions and single deletions): `nkie` → `nike`. Trigram
 * overlap cannot find these in short words, where one edit breaks every trigram; a prefix lookup per variant can.
 */
export function typoVariants(norm: string): string[] {
  const out = new Set<string>();
  if (norm.length < 3 || norm.length > 12) return [];
  for (let i = 0; i + 1 < norm.length; i++) out.add(norm.slice(0, i) + (norm[i + 1] ?? '') + (norm[i] ?? '') + norm.slice(i + 2));
  if (norm.length >= 4) for (let i = 0; i < norm.length; i++) out.add(norm.slice(0, i) + norm.slice(i + 1));
  // A letter left out (`toyta` → toyota): the query's head as a prefix, read biggest companies first.
  if (norm.length >= 5) out.add(norm.slice(0, Math.max(3, norm.length - 2)));
  out.delete(norm);
  return [...out].filter((v) => v.length >= 3 && !v.startsWith(' ') && !v.endsWith(' '));
}

/** Optimal string alignment distance (Damerau–Levenshtein with adjacent transpositions), capped at `max + 1`. */
export function editDistance(a: string, b: string, max = 3): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) rows.push([i]);
  for (let j = 1; j <= b.length; j++) (rows[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] as number[];
    const prev = rows[i - 1] as number[];
    let best = Infinity;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = d;
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/** Edits a query of this length may carry and still match (autocomplete: none below 4 characters). */
function allowedEdits(length: number): number {
  if (length < 4) return 0;
  return length < 8 ? 1 : 2;
}

/** Smallest edit distance between the query and a prefix of `text` of about the query's length. */
function prefixDistance(query: string, text: string, max: number): number {
  let best = max + 1;
  for (let len = Math.max(1, query.length - max); len <= Math.min(text.length, query.length + max); len++) {
    best = Math.min(best, editDistance(query, text.slice(0, len), max));
  }
  return best;
}

function squash(text: string): string {
  return text.replace(/ /g, '');
}

/**
 * How well a name matches a query, 0 (not at all) to 1 (exactly), both normalized. Tiers, best first: the whole
 * name or the domain label equal to the query; the name starting with it; the domain label starting with it; a
 * later word starting with it; the name containing it; then typos (one edit in 4–7 characters, two from 8), as a
 * prefix of the name, a word or the label. Ties within a tier are broken by prominence (search service).
 */
export function matchQuality(query: string, norm: string, label: string): number {
  if (query.length === 0) return 0;
  const q = squash(query);
  if (norm === query || squash(norm) === q || label === q) return 1;
  if (norm.startsWith(query) || squash(norm).startsWith(q)) return 0.9 + 0.05 * (query.length / norm.length);
  if (label.startsWith(q)) return 0.86;
  if (norm.includes(` ${query}`)) return 0.8;
  if (query.length >= 3 && norm.includes(query)) return 0.7;
  const max = allowedEdits(query.length);
  if (max === 0) return 0;
  const words = norm.split(' ');
  const candidates = [squash(norm), label, ...words.slice(1)];
  let best = max + 1;
  for (const text of candidates) best = Math.min(best, prefixDistance(q, text, max));
  if (best > max) return 0;
  // An edit in a whole-name match is worth more than one in a prefix (the user typed the whole name, wrongly).
  const whole = editDistance(q, squash(norm), max) <= max || editDistance(q, label, max) <= max;
  return (whole ? 0.68 : 0.62) - 0.08 * (best - 1);
}
