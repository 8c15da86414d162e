/**
 * Trains the home-page register model (src/crawl/fields/industries/home-page-model.ts, industry-home-page-model.json):
 * multinomial naive Bayes over top-level industries on the taxonomy's keywords (one document per sub-industry) and
 * eval/record/industries/labelled.tsv (one document per sentence). Run by scripts/train-industries.ts after the
 * listing model, whose shipped file it reads.
 *
 * Calibration, in the regime the classifier uses it (industry-classifier.ts): the listing model's calibration
 * split (whole summaries, first two sentences, first sentence; never trained on, and not the test split `npm run
 * eval` measures) is scored by both models; the cases where the listing model abstains and the naive Bayes top-1
 * is not contradicted (same listing top-1, or an industry the listings have no label for) are the fallback cases,
 * and the temperature minimising their negative log-likelihood is the model's. That register is harder than a home
 * page's (the fallback is right on about half of them), so the scores are conservative on home pages.
 *
 * The report also keeps the naive Bayes alone, out of fold on labelled.tsv (5 folds by a hash of the sentence, the
 * keywords always in): how well it reads the register it was built for. Deterministic.
 */
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { answerOf, fallbackOf } from '../../src/crawl/fields/industries/industry-classifier.js';
import { homePageLogits, homePageProbabilities, loadHomePageModel, type HomePageModel, type HomePageModelFile } from '../../src/crawl/fields/industries/home-page-model.js';
import { loadIndustryModel, scoreTokens, type IndustryModel, type IndustryModelFile } from '../../src/crawl/fields/industries/industry-model.js';
import { subIndustries, taxonomyEntry, TAXONOMY } from '../../src/crawl/fields/industries/taxonomy.js';
import { tokenize } from '../../src/crawl/fields/industries/tokenize.js';
import { readLabelled, type Labelled } from '../record/industries/labelled.js';
import { fitTemperature, lowestThreshold, reliability, answered, type Point } from './calibration.js';
import { readCompanies } from './financedatabase.js';
import { MODEL_PATH } from './train.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
export const HOME_PAGE_MODEL_PATH = path.join(ROOT, 'src/crawl/fields/industries/industry-home-page-model.json');
export const HOME_PAGE_REPORT_PATH = path.join(ROOT, 'eval/industries/home-page-report.json');

const SMOOTHING = 0.5;
const MIN_KNOWN_TOKENS = 2;
const FOLDS = 5;
/** Only for the out-of-fold report of the model alone: the listing model's answer target. */
const REPORT_ANSWER_TARGET = 0.86;

interface Doc {
  tokens: string[];
  top: string;
}

/** The fold of a labelled sentence: the first byte of its sha256, modulo the fold count (stable across runs). */
function fold(text: string): number {
  return (createHash('sha256').update(text).digest()[0] ?? 0) % FOLDS;
}

function topOf(id: string): string {
  return taxonomyEntry(id)?.parent ?? id;
}

function keywordDocs(): Doc[] {
  return subIndustries()
    .filter((e) => !e.nsfw)
    .map((e) => ({ tokens: (e.keywords ?? []).flatMap((k) => tokenize(k)), top: topOf(e.id) }));
}

function labelledDocs(labelled: readonly Labelled[]): Doc[] {
  return labelled.map((l) => ({ tokens: tokenize(l.text), top: topOf(l.label) }));
}

/** Vocabulary: unigrams, and bigrams only where a keyword is a two-word phrase (sentence bigrams are too sparse). */
function vocabularyOf(docs: readonly Doc[], keywordTokens: ReadonlySet<string>): string[] {
  return [...new Set(docs.flatMap((d) => d.tokens).filter((t) => !t.includes('_') || keywordTokens.has(t)))].sort();
}

function trainNaiveBayes(docs: readonly Doc[], classes: readonly string[], vocabulary: readonly string[]): number[] {
  const index = new Map(vocabulary.map((t, i) => [t, i]));
  const n = classes.length;
  const classIndex = new Map(classes.map((c, i) => [c, i]));
  const counts = new Array<number>(vocabulary.length * n).fill(0);
  const totals = new Array<number>(n).fill(0);
  for (const d of docs) {
    const c = classIndex.get(d.top);
    if (c === undefined) continue;
    for (const t of new Set(d.tokens)) {
      const i = index.get(t);
      if (i === undefined) continue;
      counts[i * n + c] = (counts[i * n + c] ?? 0) + 1;
      totals[c] = (totals[c] ?? 0) + 1;
    }
  }
  return counts.map((k, j) => {
    const c = j % n;
    return Math.round(Math.log((k + SMOOTHING) / ((totals[c] ?? 0) + SMOOTHING * vocabulary.length)) * 1000) / 1000;
  });
}

function fileOf(docs: readonly Doc[], classes: string[], keywordTokens: ReadonlySet<string>, listingClasses: string[]): HomePageModelFile {
  const vocabulary = vocabularyOf(docs, keywordTokens);
  return {
    header: {
      about: 'Brandbase home-page register industry model: naive Bayes over top-level industries on taxonomy keywords and eval/record/industries/labelled.tsv, temperature fitted on the listing model\'s FinanceDatabase calibration split where it is the fallback; trained by scripts/train-industries.ts; docs/industries.md',
      trainedBy: 'scripts/train-industries.ts (eval/industries/home-page-train.ts)',
      documents: docs.length,
    },
    classes,
    vocabulary,
    logLikelihood: trainNaiveBayes(docs, classes, vocabulary),
    temperature: 1,
    answerThreshold: 1,
    minKnownTokens: MIN_KNOWN_TOKENS,
    listingClasses,
  };
}

interface Scored {
  logits: number[];
  known: number;
  top: string;
}

function nll(classes: readonly string[], scored: readonly Scored[], temperature: number): number {
  let sum = 0;
  for (const s of scored) {
    const p = homePageProbabilities(s.logits, temperature);
    sum -= Math.log(Math.max(p[classes.indexOf(s.top)] ?? 0, 1e-9));
  }
  return sum / scored.length;
}

function top1(classes: readonly string[], s: Scored, temperature: number): Point {
  if (s.known < MIN_KNOWN_TOKENS) return { confidence: 0, correct: false };
  const p = homePageProbabilities(s.logits, temperature);
  let best = 0;
  p.forEach((v, i) => { if (v > (p[best] ?? 0)) best = i; });
  return { confidence: p[best] ?? 0, correct: classes[best] === s.top };
}

/** The naive Bayes alone, out of fold on labelled.tsv: its own temperature and reliability (report only). */
function outOfFoldReport(labelled: readonly Labelled[], keywords: readonly Doc[], classes: string[], keywordTokens: ReadonlySet<string>): object {
  const scored: Scored[] = [];
  for (let k = 0; k < FOLDS; k += 1) {
    const train = [...keywords, ...labelledDocs(labelled.filter((l) => fold(l.text) !== k))];
    const model = loadHomePageModel(fileOf(train, classes, keywordTokens, []));
    for (const l of labelled.filter((row) => fold(row.text) === k)) scored.push({ ...homePageLogits(model, tokenize(l.text)), top: topOf(l.label) });
  }
  const temperature = fitTemperature((t) => nll(classes, scored, t));
  const points = scored.map((s) => top1(classes, s, temperature));
  const threshold = lowestThreshold(points, REPORT_ANSWER_TARGET, 0.5);
  return { folds: FOLDS, temperature, nll: Number(nll(classes, scored, temperature).toFixed(4)), reliability: reliability(points), answeredAt: { threshold, ...answered(points, threshold) } };
}

/** The calibration split's texts on which the classifier would ask the home-page model (any temperature: the top-1 does not depend on it). */
function fallbackCases(listing: IndustryModel, homePage: HomePageModel, texts: readonly { text: string; top: string }[]): Scored[] {
  const out: Scored[] = [];
  for (const { text, top } of texts) {
    const tokens = tokenize(text);
    const scores = scoreTokens(listing, tokens);
    const page = homePageLogits(homePage, tokens);
    if (answerOf(scores, listing, null).length > 0) continue;
    if (fallbackOf({ ...scores, homePage: { known: page.known, tops: topsOf(homePage, page.logits) } }, homePage, 0) === null) continue;
    out.push({ ...page, top });
  }
  return out;
}

function topsOf(model: HomePageModel, logits: readonly number[]): { id: string; p: number }[] {
  const p = homePageProbabilities(logits, 1);
  return model.file.classes.map((id, c) => ({ id, p: p[c] ?? 0 })).sort((a, b) => b.p - a.p);
}

export async function trainHomePage(source?: string): Promise<HomePageModelFile> {
  const listingFile = JSON.parse(await readFile(MODEL_PATH, 'utf8')) as IndustryModelFile;
  const listing = loadIndustryModel(listingFile);
  const { companies } = await readCompanies(source);
  const listingClasses = [...new Set(companies.map((c) => c.top))].sort();
  const labelled = (await readLabelled()).filter((l) => !taxonomyEntry(l.label)?.nsfw);
  const keywords = keywordDocs();
  const keywordTokens = new Set(keywords.flatMap((d) => d.tokens));
  const classes = TAXONOMY.filter((e) => e.parent === null && !e.nsfw).map((e) => e.id);
  const file = fileOf([...keywords, ...labelledDocs(labelled)], classes, keywordTokens, listingClasses);
  file.answerThreshold = listingFile.answerThreshold;
  const calibrationTexts = companies.filter((c) => c.split === 'calibration').flatMap((c) => [c.text, c.short, c.first].map((text) => ({ text, top: c.top })));
  const cases = fallbackCases(listing, loadHomePageModel(file), calibrationTexts);
  file.temperature = fitTemperature((t) => nll(classes, cases, t));
  await writeFile(HOME_PAGE_MODEL_PATH, `${JSON.stringify(file)}\n`);
  const points = cases.map((s) => top1(classes, s, file.temperature));
  const report = {
    documents: { keywordLists: keywords.length, labelledSentences: labelled.length },
    vocabulary: file.vocabulary.length,
    listingClasses,
    fallbackCalibration: {
      texts: calibrationTexts.length,
      fallbackCases: cases.length,
      temperature: file.temperature,
      answerThreshold: file.answerThreshold,
      reliability: reliability(points),
      answered: answered(points, file.answerThreshold),
    },
    aloneOutOfFoldOnLabelled: outOfFoldReport(labelled, keywords, classes, keywordTokens),
  };
  await writeFile(HOME_PAGE_REPORT_PATH, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`home-page model: ${file.vocabulary.length} tokens; ${cases.length} fallback cases of ${calibrationTexts.length} calibration texts; temperature ${file.temperature}`);
  return file;
}
