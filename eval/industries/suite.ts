/**
 * `npm run eval` suite for the industry classifier (issue 16): accuracy of the answers it gives, how often it
 * answers, and whether its scores are probabilities (expected calibration error, reliability bins), on text it was
 * never trained on:
 *   - the test split of FinanceDatabase summaries (financedatabase.ts; ../shared/refdata, or the shipped sample
 *     in test/fixtures/industries when that folder is absent), as whole summaries and as their first two sentences
 *     (closer to what a home page says about itself);
 *   - the generated eval sites' one-line self-descriptions (eval/record/brands.ts) that do not paraphrase a line
 *     of labelled.tsv, the home-page text the model does train on.
 * The real pages of the shared corpus are scored by the record suite (`--real`, real-corpus.ts). Every figure is of
 * the shipped classifier: the listing model with the home-page fallback (industry-classifier.ts).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { industryModel, industryScores, answerOf, homePageModel, topGuess } from '../../src/crawl/fields/industries/industry-classifier.js';
import { taxonomyEntry } from '../../src/crawl/fields/industries/taxonomy.js';
import type { EvalMetric, EvalSuite } from '../run.js';
import { BRANDS } from '../record/brands.js';
import { readLabelled } from '../record/industries/labelled.js';
import { trainingOverlap } from '../record/industries/training-overlap.js';
import { reliability, type Point, type Reliability } from './calibration.js';
import { readCompanies, sourceAvailable } from './financedatabase.js';

export const SAMPLE_FILE = path.resolve(import.meta.dirname, '../../test/fixtures/industries/financedatabase-heldout.tsv');

export interface LabelledText {
  text: string;
  top: string;
  sub: string | null;
}

export interface SetScore {
  n: number;
  answered: number;
  correct: number;
  subAnswered: number;
  subCorrect: number;
  calibration: Reliability;
  misses: string[];
}

/** The shipped classifier on each text: its answer (after abstention and the home-page fallback) and its top-1 calibrated probability. */
export function scoreSet(items: readonly LabelledText[]): SetScore {
  const model = industryModel();
  const points: Point[] = [];
  const score: Omit<SetScore, 'calibration'> = { n: items.length, answered: 0, correct: 0, subAnswered: 0, subCorrect: 0, misses: [] };
  for (const item of items) {
    const scores = industryScores(item.text, model);
    const best = topGuess(scores, model);
    points.push({ confidence: best?.p ?? 0, correct: best?.id === item.top });
    const answer = answerOf(scores, model);
    const top = answer.find((i) => i.parent === null);
    const sub = answer.find((i) => i.parent !== null);
    if (top) {
      score.answered += 1;
      score.correct += Number(top.id === item.top);
      if (top.id !== item.top) score.misses.push(`want ${item.top}, said ${top.id} ${top.score}: ${item.text.slice(0, 90)}`);
    }
    if (sub && item.sub) {
      score.subAnswered += 1;
      score.subCorrect += Number(sub.id === item.sub);
    }
  }
  return { ...score, calibration: reliability(points) };
}

export async function readSample(file = SAMPLE_FILE): Promise<LabelledText[]> {
  const lines = (await readFile(file, 'utf8')).split('\n').filter((l) => l && !l.startsWith('#'));
  return lines.map((line) => {
    const [top = '', sub = '-', text = ''] = line.split('\t');
    return { top, sub: sub === '-' ? null : sub, text };
  });
}

async function heldOutListings(): Promise<{ full: LabelledText[]; short: LabelledText[]; first: LabelledText[]; source: string }> {
  if (!sourceAvailable()) {
    const sample = await readSample();
    return { full: [], short: sample, first: [], source: `the shipped sample (${sample.length} rows; ../shared/refdata is absent)` };
  }
  const test = (await readCompanies()).companies.filter((c) => c.split === 'test');
  return {
    full: test.map((c) => ({ text: c.text, top: c.top, sub: c.sub })),
    short: test.map((c) => ({ text: c.short, top: c.top, sub: c.sub })),
    first: test.map((c) => ({ text: c.first, top: c.top, sub: c.sub })),
    source: `the test split of FinanceDatabase (${test.length} companies, never trained on or calibrated on)`,
  };
}

async function generatedSiteTexts(): Promise<LabelledText[]> {
  const training = await readLabelled();
  return BRANDS.filter((b) => !trainingOverlap(b.description, training).paraphrase).map((b) => ({
    text: b.description,
    top: taxonomyEntry(b.industry)?.parent ?? b.industry,
    sub: b.industry,
  }));
}

function pct(name: string, hits: number, total: number, target?: number): EvalMetric {
  return {
    name: `${name} (${hits}/${total})`, value: total ? hits / total : 0, unit: '%', kind: 'held-out',
    ...(target !== undefined ? { target: { value: target, direction: 'higher' as const } } : {}),
  };
}

/** Accuracy of answers, coverage and ECE of one labelled set; targets on the sets the issue names. */
export function setMetrics(label: string, s: SetScore, targets: boolean): EvalMetric[] {
  return [
    pct(`${label}: top-level right when answered`, s.correct, s.answered, targets ? 0.8 : undefined),
    pct(`${label}: answered`, s.answered, s.n, targets ? 0.7 : undefined),
    { name: `${label}: expected calibration error (top-1)`, value: s.calibration.ece, unit: 'ratio', kind: 'held-out', ...(targets ? { target: { value: 0.05, direction: 'lower' as const } } : {}) },
    pct(`${label}: sub-industry right when listed`, s.subCorrect, s.subAnswered),
  ];
}

export function reliabilityLines(label: string, r: Reliability): string {
  const bins = r.bins.filter((b) => b.n > 0).map((b) => `${b.range}: n ${b.n}, conf ${b.meanConfidence.toFixed(2)}, acc ${b.accuracy.toFixed(2)}`);
  return `${label} reliability (top-1 over all ${r.n}, accuracy ${(r.accuracy * 100).toFixed(1)}%): ${bins.join(' | ')}`;
}

export const run: EvalSuite = async () => {
  const listings = await heldOutListings();
  const full = listings.full.length ? scoreSet(listings.full) : null;
  const short = scoreSet(listings.short);
  const first = listings.first.length ? scoreSet(listings.first) : null;
  const sites = scoreSet(await generatedSiteTexts());
  const metrics = [
    ...(full ? setMetrics('listings, whole summary', full, true) : []),
    ...setMetrics('listings, first two sentences', short, true),
    ...(first ? setMetrics('listings, first sentence only', first, false) : []),
    ...setMetrics('generated sites unlike labelled.tsv', sites, false),
  ];
  const notes = [
    `listings: ${listings.source}; labels mapped by eval/industries/financedatabase-map.json (docs/industries.md)`,
    ...(full ? [reliabilityLines('listings, whole summary', full.calibration)] : []),
    reliabilityLines('listings, first two sentences', short.calibration),
    ...(first ? [reliabilityLines('listings, first sentence only', first.calibration)] : []),
    reliabilityLines('generated sites', sites.calibration),
    `answer threshold ${industryModel().answerThreshold}, sub-industry threshold ${industryModel().subThreshold}, temperature ${industryModel().temperature}; home-page fallback temperature ${homePageModel().file.temperature} (eval/industries/home-page-report.json)`,
  ];
  const failures = [...sites.misses.map((m) => `generated site ${m}`), ...short.misses.slice(0, 10).map((m) => `listing ${m}`)];
  return { suite: 'industries (classifier on held-out text)', sites: listings.full.length + listings.short.length + sites.n, metrics, failures, notes };
};
