/**
 * Names and descriptions on the real pages of the shared corpus (`npm run eval -- --real ../shared/corpus`), with
 * every miss put in a class (issue 16): for names, a legal suffix, domain suffix, section word or parenthetical
 * kept, accents lost, no name, another name; for descriptions, a lede of a content page, a cookie/login/newsletter
 * text, a fragment, or nothing where the page says what the site is. The description labels
 * (real-descriptions.json) say per page whether it is a home page or one piece of content and whether its HTML
 * describes the site; the checks below are written independently of the extractor's own filters.
 *
 * Icons cannot be scored on these corpora: they hold HTML only, no image files (the icon figure on real
 * material is the iana.org WARC recording in eval/logos/real-sites.ts).
 */
import { load } from 'cheerio';
import type { EvalMetric } from '../run.js';
import descriptionLabels from './real-descriptions.json' with { type: 'json' };
import type { SiteResult } from './suite.js';

type DescriptionLabel = { kind: 'home' | 'content'; self: string | null };
const LABELS = descriptionLabels as unknown as Record<string, DescriptionLabel | string>;

/** Names compare case-insensitively, ignoring punctuation and spaces (the corpus README's rule). */
const nameKey = (s: string): string => s.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
const foldAccents = (s: string): string => s.normalize('NFKD').replace(/\p{M}/gu, '');

export type NameMissClass = 'no name' | 'legal suffix kept' | 'domain suffix kept' | 'section word kept' | 'parenthetical kept' | 'accents lost' | 'another name';
export type DescriptionMissClass = 'lede of a content page' | 'cookie, login or newsletter text' | 'fragment' | 'missing where the site describes itself';

const LEGAL_TAIL = /^(inc|incorporated|corp|corporation|llc|ltd|limited|plc|llp|lp|gmbh|ag|kg|se|sa|sas|sarl|spa|srl|sl|bv|nv|oy|oyj|ab|asa|as|aps|kk|ptyltd|coltd|co)$/;
const SECTION_TAIL = /^(blog|news|newsroom|shop|store|online|magazine|home|support|community|docs|media|studio|app)$/;

export function nameMissClass(got: string | null | undefined, accepted: string[]): NameMissClass {
  if (!got) return 'no name';
  if (/[([]/.test(got)) return 'parenthetical kept';
  const g = nameKey(got);
  for (const a of accepted.map(nameKey)) {
    if (!g.startsWith(a) || g === a) continue;
    const tail = g.slice(a.length);
    if (LEGAL_TAIL.test(tail)) return 'legal suffix kept';
    if (/^(com|net|org|io|co|[a-z]{2})$/.test(tail) && /\.[a-z]{2,}$/i.test(got)) return 'domain suffix kept';
    if (SECTION_TAIL.test(tail)) return 'section word kept';
  }
  if (accepted.some((a) => foldAccents(a) !== a && nameKey(foldAccents(a)) === nameKey(got))) return 'accents lost';
  return 'another name';
}

/** Newsletter, login, cookie and privacy text: written here independently of description-text.ts. */
const NOT_A_DESCRIPTION = /\b(newsletter|subscribe|sign ?up|sign ?in|log ?in|cookies?|privacy|opt[- ]out|password|your inbox)\b/i;

export function descriptionMissClass(description: string | null | undefined, label: DescriptionLabel, pageHtml: string): DescriptionMissClass | null {
  if (!description) return label.self ? 'missing where the site describes itself' : null;
  const text = description.trim();
  if (NOT_A_DESCRIPTION.test(text)) return 'cookie, login or newsletter text';
  if (text.length < 20 || /^(\[|\.\.\.|…|\p{Ll})/u.test(text)) return 'fragment';
  if (label.kind === 'content' && sharesRun(text, pageTexts(pageHtml), 6)) return 'lede of a content page';
  return null;
}

/** What a content page says about itself: its meta descriptions, title, headings, article JSON-LD, first paragraphs. */
function pageTexts(html: string): string[] {
  const $ = load(html);
  const texts = [
    $('meta[property="og:description"]').attr('content'), $('meta[name="description"]').attr('content'),
    $('meta[name="twitter:description"]').attr('content'), $('title').first().text(), $('h1').first().text(),
    ...$('article p, main p').slice(0, 3).toArray().map((el) => $(el).text()),
  ];
  $('script[type="application/ld+json"]').each((_, el) => {
    const raw = $(el).text();
    for (const m of raw.matchAll(/"(?:description|headline)"\s*:\s*"((?:[^"\\]|\\.){20,2000})"/g)) {
      // Site-level nodes are what the label's `self` is about: only a page-level node's text is the lede.
      const before = raw.slice(Math.max(0, (m.index ?? 0) - 400), m.index);
      if (!/"@type"\s*:\s*"(WebSite|Organization|NewsMediaOrganization|Corporation)"[^{}]*$/.test(before)) texts.push(m[1]);
    }
  });
  return texts.filter((t): t is string => Boolean(t));
}

function words(text: string): string[] {
  return text.toLowerCase().replace(/&#?\w+;/g, ' ').split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

function sharesRun(text: string, others: string[], run: number): boolean {
  const own = words(text);
  if (own.length < run) return others.some((o) => words(o).join(' ').includes(own.join(' ')) && own.length >= 3);
  const grams = new Set<string>();
  for (let i = 0; i + run <= own.length; i += 1) grams.add(own.slice(i, i + run).join(' '));
  return others.some((o) => {
    const w = words(o);
    for (let i = 0; i + run <= w.length; i += 1) if (grams.has(w.slice(i, i + run).join(' '))) return true;
    return false;
  });
}

function count<T extends string>(classes: T[]): string {
  const tally = new Map<T, number>();
  for (const c of classes) tally.set(c, (tally.get(c) ?? 0) + 1);
  return [...tally.entries()].sort((a, b) => b[1] - a[1]).map(([c, n]) => `${c} ${n}`).join(', ') || 'none';
}

/** Name and description accuracy per corpus folder, misses by class (as failures and as a note). */
export function realIdentityMetrics(results: SiteResult[], failures: string[], notes: string[]): EvalMetric[] {
  const metrics: EvalMetric[] = [];
  for (const folder of ['real-pages', 'real-pages-2']) {
    const set = results.filter((r) => r.site.corpusPage?.startsWith(`${folder}/`));
    if (set.length === 0) continue;
    const nameMisses: NameMissClass[] = [];
    const descriptionMisses: DescriptionMissClass[] = [];
    let described = 0;
    for (const r of set) {
      const accepted = r.site.acceptedNames ?? [];
      const name = r.draft?.name;
      if (!accepted.some((a) => name && nameKey(a) === nameKey(name))) nameMisses.push(nameMissClass(name, accepted));
      const label = LABELS[r.site.corpusPage ?? ''];
      if (!label || typeof label === 'string') continue;
      described += Number(Boolean(r.draft?.description));
      const body = r.site.files['/']?.body;
      const miss = descriptionMissClass(r.draft?.description, label, typeof body === 'string' ? body : String(body ?? ''));
      if (miss) {
        descriptionMisses.push(miss);
        failures.push(`real ${r.site.corpusPage} description [${miss}]: ${r.draft?.description ?? 'none'}`);
      }
    }
    const n = set.length;
    metrics.push(
      { name: `real pages: clean description or rightly none, ${folder} (${n - descriptionMisses.length}/${n})`, value: (n - descriptionMisses.length) / n, unit: '%', kind: 'regression', target: { value: 0.95, direction: 'higher' } },
      { name: `real pages: description given, ${folder} (${described}/${n})`, value: described / n, unit: '%', kind: 'regression' },
    );
    notes.push(`${folder}: name misses by class: ${count(nameMisses)}; description misses by class: ${count(descriptionMisses)}`);
  }
  return metrics;
}
