/**
 * The brand name by agreement: every source's candidate is cleaned (clean-name.ts) and grouped by comparison key
 * ("Example, Inc." from a JSON-LD Corporation, "Example" from the WebSite node and "Example" from the manifest
 * are one group); a group scores the weights of the distinct sources in it plus a bonus for resembling the
 * domain label, and the best group's best-written form is the name. Segments of a multi-part title or site
 * name that resemble neither the domain nor another source are never a name on their own ("webpack 3
 * released | Acme" says Acme, not the headline).
 */
import { cleanName, compactKey, keySimilarity } from './clean-name.js';
import type { NameCandidate, NameSource } from './name-sources.js';

/** Weight of resembling the domain label (1 for an exact match): as much as one strong source. */
const LABEL_BONUS = 3;
const MAX_NAME_CHARS = 80;
const MAX_NAME_WORDS = 8;
/** Titles and site names that name no brand. */
export const GENERIC_NAMES = /^(home|homepage|home page|welcome|index|untitled|default|main|start|startseite|accueil|inicio|coming soon|under construction|404|not found|page not found|error|loading\.*|document|blog|news|shop|store|menu|search|log ?in|sign ?in)$/i;

interface Cleaned extends NameCandidate {
  name: string;
  key: string;
}

interface Group {
  key: string;
  labelKey: string;
  members: Cleaned[];
  score: number;
  labelMatch: number;
}

export function chooseName(candidates: NameCandidate[], label: string): string | null {
  const cleaned = cleanAll(candidates, label);
  const groups = supportNearTwins(groupByKey(cleaned, label)).filter(eligible);
  groups.sort((a, b) => b.score - a.score || order(a) - order(b));
  const best = groups[0];
  return best ? displayForm(best) : null;
}

/** Cleans every candidate; a section word is dropped when the shorter form is what another source says. */
function cleanAll(candidates: NameCandidate[], label: string): Cleaned[] {
  const firstPass = candidates.map((c) => cleanName(c.text, { label })).filter((n): n is string => n !== null);
  const keys = new Set(firstPass.map(compactKey));
  const out: Cleaned[] = [];
  for (const c of candidates) {
    const name = cleanName(c.text, { label, otherKeys: keys });
    if (!name || !usable(name)) continue;
    out.push({ ...c, name, key: compactKey(name) });
  }
  return out;
}

function usable(name: string): boolean {
  return name.length <= MAX_NAME_CHARS && name.split(/\s+/).length <= MAX_NAME_WORDS && !GENERIC_NAMES.test(name) && compactKey(name).length > 0;
}

function groupByKey(cleaned: Cleaned[], label: string): Group[] {
  const byKey = new Map<string, Cleaned[]>();
  for (const c of cleaned) byKey.set(c.key, [...(byKey.get(c.key) ?? []), c]);
  const labelKey = compactKey(label);
  return [...byKey.entries()].map(([key, members]) => {
    // Each source counts once per group, with its strongest candidate; the organization node and the publisher
    // reference to it are one source (an article's JSON-LD names its publisher in both).
    const perSource = new Map<string, number>();
    for (const m of members) perSource.set(FAMILY[m.source] ?? m.source, Math.max(perSource.get(FAMILY[m.source] ?? m.source) ?? 0, m.weight));
    const labelMatch = keySimilarity(key, labelKey);
    const score = [...perSource.values()].reduce((a, b) => a + b, 0) + LABEL_BONUS * labelMatch;
    return { key, labelKey, members, score, labelMatch };
  });
}

/** Keys this close are one name written two ways ("Volvo Car" / "Volvo Cars"): each counts the other's sources. */
const NEAR_TWIN_CHARS = 2;

function supportNearTwins(groups: Group[]): Group[] {
  const sourceScore = (g: Group): number => g.score - LABEL_BONUS * g.labelMatch;
  const base = groups.map(sourceScore);
  return groups.map((g) => {
    let support = 0;
    groups.forEach((other, i) => {
      if (other === g) return;
      const [short, long] = other.key.length < g.key.length ? [other.key, g.key] : [g.key, other.key];
      if (short.length >= 3 && long.startsWith(short) && long.length - short.length <= NEAR_TWIN_CHARS) support += base[i] ?? 0;
    });
    return support ? { ...g, score: g.score + support } : g;
  });
}

/**
 * A group may name the brand when it resembles the domain, when two sources agree on it, or when it comes
 * whole from one source (not a piece of a multi-part title). A one-segment <title> counts only when short
 * (a sentence-long title is a tagline or a headline, not a name), and a twitter handle or copyright line alone only when
 * it resembles the domain.
 */
/** Sources that usually repeat one statement: they count once together. */
const FAMILY: Partial<Record<NameSource, string>> = {
  'json-ld-organization': 'publisher',
  'json-ld-publisher': 'publisher',
  'microdata-publisher': 'publisher',
  'manifest-short-name': 'manifest',
  'manifest-name': 'manifest',
};

function eligible(group: Group): boolean {
  // Containing the domain label ("Acme Studios" on acme.test) is evidence enough, unless the label is too short to mean much.
  if (group.labelMatch >= 0.5 || (group.labelMatch > 0 && group.key.length >= 3 && group.labelKey.length >= 3)) return true;
  const sources = new Set(group.members.map((m) => m.source));
  if (sources.size >= 2) return true;
  return group.members.some((m) => {
    if (m.segment) return false;
    if (m.source === 'title') return m.name.split(/\s+/).length <= 4;
    if (m.source === 'twitter-site' || m.source === 'copyright') return group.labelMatch > 0;
    return true;
  });
}

/** Earlier sources win ties: the candidate list is in the order the sources are read. */
function order(group: Group): number {
  return Math.min(...group.members.map((m) => SOURCE_ORDER.indexOf(m.source)));
}

const SOURCE_ORDER: NameSource[] = [
  'json-ld-organization', 'json-ld-website', 'og-site-name', 'json-ld-publisher', 'microdata-publisher', 'meta-publisher',
  'application-name', 'manifest-short-name', 'manifest-name', 'logo-alt', 'title', 'json-ld-alternate-name', 'twitter-site', 'copyright',
];

/**
 * How the group is written: the form of its strongest source, except that a form with accents beats the same
 * letters without them ("Città" over "Citta"), and a form with capitals beats an all-lower-case one (alt text
 * and handles are often lower case).
 */
function displayForm(group: Group): string {
  const rank = (m: Cleaned): number => m.weight + (hasAccents(m.name) ? 10 : 0) + (m.name !== m.name.toLowerCase() ? 5 : 0) - (m.source === 'twitter-site' ? 4 : 0);
  const sorted = [...group.members].sort((a, b) => rank(b) - rank(a) || SOURCE_ORDER.indexOf(a.source) - SOURCE_ORDER.indexOf(b.source));
  return sorted[0]?.name ?? group.key;
}

function hasAccents(text: string): boolean {
  return /\p{M}/u.test(text.normalize('NFD'));
}
