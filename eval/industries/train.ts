/**
 * Trains the industry model (src/crawl/fields/industries/industry-model.json) from FinanceDatabase company
 * summaries, the taxonomy's keywords and labelled.tsv; run by `node --import tsx scripts/train-industries.ts`.
 *
 * 1. Rows: financedatabase.ts (cleaned, mapped to our taxonomy, split 70/15/15 by company name).
 * 2. Vocabulary: tokens (tokenize.ts) in at least MIN_DF training summaries or in our own home-page texts, minus
 *    proper nouns (words capitalised mid-sentence in most of their uses: places, people, product names; a home page
 *    does not share them) and listing register words; the MAX_VOCABULARY most informative by χ² on top-level labels.
 * 3. Softmax regression over leaves (softmax-trainer.ts); each summary is also trained as its first two sentences,
 *    since a home page says less than a listing; classes weighted towards balance (the listing mix is not the web's).
 * 4. Calibration on the calibration split (full and short texts): the temperature minimising top-level NLL, then the
 *    lowest answer threshold whose answered accuracy reaches ANSWER_TARGET, and the sub-industry threshold alike.
 * 5. A small sample of the test split is written to test/fixtures/industries/ (MIT, attributed) for the tests.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { featureValues, loadIndustryModel, leafLogits, knownFeatures, softmax, groupLeaves, temperatureFor, type IndustryModelFile } from '../../src/crawl/fields/industries/industry-model.js';
import { subIndustries, taxonomyEntry } from '../../src/crawl/fields/industries/taxonomy.js';
import { stem, tokenize } from '../../src/crawl/fields/industries/tokenize.js';
import { readLabelled, type Labelled } from '../record/industries/labelled.js';
import { fitTemperature, lowestThreshold, reliability, answered, type Point } from './calibration.js';
import { PROVENANCE, readCompanies, type LabelledCompany } from './financedatabase.js';
import { quantize, trainSoftmax, type TrainingExample } from './softmax-trainer.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
export const MODEL_PATH = path.join(ROOT, 'src/crawl/fields/industries/industry-model.json');
export const REPORT_PATH = path.join(ROOT, 'eval/industries/training-report.json');
export const SAMPLE_PATH = path.join(ROOT, 'test/fixtures/industries/financedatabase-heldout.tsv');

const MIN_DF = 6;
const MAX_VOCABULARY = 3500;
const SHORT_WEIGHT = 0.7;
const OWN_TEXT_WEIGHT = 4;
/** 0 = the listing mix as is, 1 = every top-level industry weighs the same. */
const BALANCE = 0.7;
const ANSWER_TARGET = 0.86;
const SUB_TARGET = 0.86;
const MIN_KNOWN_TOKENS = 6;
const LENGTH_REFERENCE = 40;
const SAMPLE_SIZE = 300;
const TRAIN = { epochs: 8, learningRate: 0.08, l2: 1e-5, seed: 16 };

/** Words of a listing's register: they say "this is a stock summary", not what the company does. */
const REGISTER = new Set(['segment', 'subsidiary', 'subsidiary', 'engage', 'engaged', 'operate', 'operates', 'worldwide', 'internationally', 'incorporated', 'headquartered', 'limited', 'inc', 'ltd', 'plc', 'corp', 'corporation', 'holding', 'berhad', 'bhd', 'tbk', 'co', 'sa', 'ag', 'nv', 'se', 'along', 'well', 'addition', 'including', 'various', 'other', 'related', 'activity', 'principally', 'primarily']);

interface Doc {
  tokens: string[];
  leaf: string;
  weight: number;
}

/** Stemmed lower-case words that are capitalised in most of their mid-sentence uses in the listing texts. */
function properNouns(texts: readonly string[]): Set<string> {
  const upper = new Map<string, number>();
  const total = new Map<string, number>();
  for (const text of texts) {
    const words = text.normalize('NFKD').replace(/\p{M}/gu, '').match(/[A-Za-z][A-Za-z0-9'-]*|[.!?;:]/g) ?? [];
    let sentenceStart = true;
    for (const w of words) {
      if (/^[.!?;:]$/.test(w)) {
        sentenceStart = true;
        continue;
      }
      if (!sentenceStart) {
        const key = stem(w.toLowerCase());
        total.set(key, (total.get(key) ?? 0) + 1);
        if (/^[A-Z]/.test(w)) upper.set(key, (upper.get(key) ?? 0) + 1);
      }
      sentenceStart = false;
    }
  }
  return new Set([...total].filter(([k, n]) => n >= 2 && (upper.get(k) ?? 0) / n >= 0.6).map(([k]) => k));
}

function usable(token: string, proper: Set<string>): boolean {
  return token.split('_').every((part) => !proper.has(part) && !REGISTER.has(part));
}

/** The top-level industry of a leaf id. */
function topOf(leaf: string): string {
  return taxonomyEntry(leaf)?.parent ?? leaf;
}

function chiSquare(docs: readonly Doc[], candidates: ReadonlySet<string>): Map<string, number> {
  const tops = [...new Set(docs.map((d) => topOf(d.leaf)))];
  const topIndex = new Map(tops.map((t, i) => [t, i]));
  const perTop = tops.map(() => 0);
  const df = new Map<string, number[]>();
  for (const d of docs) {
    const t = topIndex.get(topOf(d.leaf)) ?? 0;
    perTop[t] = (perTop[t] ?? 0) + 1;
    for (const token of new Set(d.tokens)) {
      if (!candidates.has(token)) continue;
      let row = df.get(token);
      if (!row) df.set(token, (row = tops.map(() => 0)));
      row[t] = (row[t] ?? 0) + 1;
    }
  }
  const n = docs.length;
  const scores = new Map<string, number>();
  for (const [token, row] of df) {
    const a = row.reduce((s, v) => s + v, 0);
    let score = 0;
    row.forEach((observed, t) => {
      const expected = (a * (perTop[t] ?? 0)) / n;
      if (expected > 0) score = Math.max(score, ((observed - expected) ** 2) / expected);
    });
    scores.set(token, score);
  }
  return scores;
}

function ownDocuments(labelled: readonly Labelled[]): Doc[] {
  const keywordDocs = subIndustries()
    .filter((e) => !e.nsfw)
    .map((e) => ({ tokens: (e.keywords ?? []).flatMap((k) => tokenize(k)), leaf: e.id, weight: OWN_TEXT_WEIGHT }));
  return [...keywordDocs, ...labelled.map((l) => ({ tokens: tokenize(l.text), leaf: l.label, weight: OWN_TEXT_WEIGHT }))];
}

function listingDocuments(companies: readonly LabelledCompany[]): Doc[] {
  return companies.flatMap((c) => {
    const leaf = c.sub ?? c.top;
    const docs = [{ tokens: tokenize(c.text), leaf, weight: 1 }];
    if (c.short !== c.text) docs.push({ tokens: tokenize(c.short), leaf, weight: SHORT_WEIGHT });
    if (c.first !== c.short) docs.push({ tokens: tokenize(c.first), leaf, weight: SHORT_WEIGHT });
    return docs;
  });
}

/** Class weights towards balance: (mean top-level mass / this top-level's mass) ^ BALANCE. */
function balance(docs: Doc[]): Doc[] {
  const mass = new Map<string, number>();
  for (const d of docs) mass.set(topOf(d.leaf), (mass.get(topOf(d.leaf)) ?? 0) + d.weight);
  const mean = [...mass.values()].reduce((a, b) => a + b, 0) / mass.size;
  return docs.map((d) => ({ ...d, weight: d.weight * (mean / (mass.get(topOf(d.leaf)) ?? mean)) ** BALANCE }));
}

interface Scored {
  logits: Float64Array;
  known: number;
  top: string;
  sub: string | null;
}

type Calibration = Pick<IndustryModelFile, 'temperature' | 'lengthExponent' | 'lengthReference' | 'leaves' | 'tops'>;

function probabilities(model: Calibration, s: Scored): ReturnType<typeof groupLeaves> {
  return groupLeaves(model, softmax(s.logits, temperatureFor(model, s.known)));
}

function topPoints(model: Calibration, scored: readonly Scored[]): Point[] {
  return scored.map((s) => {
    const best = probabilities(model, s).tops[0];
    return { confidence: best?.p ?? 0, correct: best?.id === s.top };
  });
}

function subPoints(model: Calibration, scored: readonly Scored[]): Point[] {
  return scored.filter((s) => s.sub !== null).map((s) => {
    const best = probabilities(model, s).subs[0];
    return { confidence: best?.p ?? 0, correct: best?.id === s.sub };
  });
}

/** Mean negative log-likelihood of the true top-level industry (the hot loop of the calibration grid search). */
function meanNll(model: Calibration, scored: readonly Scored[]): number {
  let sum = 0;
  for (const s of scored) {
    const t = temperatureFor(model, s.known);
    let max = -Infinity;
    for (const l of s.logits) max = Math.max(max, l / t);
    let all = 0;
    let truth = 0;
    s.logits.forEach((l, i) => {
      const e = Math.exp(l / t - max);
      all += e;
      if (model.tops[i] === s.top) truth += e;
    });
    sum -= Math.log(Math.max(truth / all, 1e-9));
  }
  return sum / scored.length;
}

/** What every fit shares: the cleaned rows and the proper nouns of the training summaries. */
export interface TrainingData {
  companies: LabelledCompany[];
  report: Awaited<ReturnType<typeof readCompanies>>['report'];
  trainRows: LabelledCompany[];
  calibrationRows: LabelledCompany[];
  proper: Set<string>;
  listing: Doc[];
}

export async function readTrainingData(source?: string): Promise<TrainingData> {
  const { companies, report } = await readCompanies(source);
  const trainRows = companies.filter((c) => c.split === 'train');
  return {
    companies, report, trainRows,
    calibrationRows: companies.filter((c) => c.split === 'calibration'),
    proper: properNouns(trainRows.map((c) => c.text)),
    listing: listingDocuments(trainRows),
  };
}

export interface FittedModel {
  file: IndustryModelFile;
  raw: IndustryModelFile;
  scored: Scored[];
  points: Point[];
  own: number;
}

/**
 * Vocabulary, softmax training and calibration on the listings plus our own texts (`labelled`: all of labelled.tsv
 * for the shipped model). `log`: print the training's progress.
 */
export function fitListingModel(data: TrainingData, labelled: readonly Labelled[], log = true): FittedModel {
  const { trainRows, proper, listing } = data;
  const own = ownDocuments(labelled);
  const keywordTokens = new Set(subIndustries().flatMap((e) => (e.keywords ?? []).flatMap((k) => tokenize(k))));
  const df = new Map<string, number>();
  for (const d of listing) if (d.weight === 1) for (const t of new Set(d.tokens)) df.set(t, (df.get(t) ?? 0) + 1);
  const ownTokens = new Set(own.flatMap((d) => d.tokens.filter((t) => !t.includes('_') || keywordTokens.has(t))));
  // Our own home-page texts are home-page words by definition: the proper-noun filter does not apply to them.
  const candidates = new Set([...[...df].filter(([t, n]) => n >= MIN_DF && usable(t, proper)).map(([t]) => t), ...[...ownTokens].filter((t) => usable(t, new Set()))]);
  const allDocs = [...listing, ...own];
  const chi = chiSquare(allDocs, candidates);
  const fromListings = [...chi].filter(([t]) => !ownTokens.has(t)).sort((a, b) => b[1] - a[1]).slice(0, MAX_VOCABULARY).map(([t]) => t);
  const vocabulary = [...new Set([...fromListings, ...[...ownTokens].filter((t) => candidates.has(t))])].sort();
  const leaves = [...new Set(allDocs.map((d) => d.leaf))].sort();
  const leafIndex = new Map(leaves.map((l, i) => [l, i]));
  const index = new Map(vocabulary.map((t, i) => [t, i]));
  const examples: TrainingExample[] = balance(allDocs).map((d) => {
    const features = knownFeatures({ index }, d.tokens);
    return { features, values: featureValues(features), leaf: leafIndex.get(d.leaf) ?? 0, weight: d.weight };
  });
  if (log) console.log(`rows ${JSON.stringify(data.report)}; training docs ${examples.length}, vocabulary ${vocabulary.length}, leaves ${leaves.length}, proper nouns dropped ${proper.size}`);
  const started = Date.now();
  const trained = trainSoftmax(examples, vocabulary.length, leaves.length, TRAIN);
  if (log) console.log(`trained in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const { bytes, scales } = quantize(trained.weights, leaves.length);
  const file: IndustryModelFile = {
    header: {
      about: 'Brandbase industry model: softmax regression over taxonomy leaves; trained by scripts/train-industries.ts; docs/industries.md',
      ...PROVENANCE,
      trainedBy: `scripts/train-industries.ts (${new Date().toISOString().slice(0, 10)})`,
      trainingRows: trainRows.length,
    },
    leaves,
    tops: leaves.map(topOf),
    vocabulary,
    bias: Array.from(trained.bias, (b) => Number(b.toFixed(4))),
    scales,
    weights: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
    temperature: 1,
    lengthExponent: 0,
    lengthReference: 1,
    answerThreshold: 1,
    subThreshold: 1,
    minKnownTokens: MIN_KNOWN_TOKENS,
  };
  const model = loadIndustryModel(file);
  const scoreOf = (text: string): { logits: Float64Array; known: number } => {
    const features = knownFeatures(model, tokenize(text));
    return { logits: leafLogits(model, features), known: features.length };
  };
  const scored: Scored[] = data.calibrationRows.flatMap((c) => [
    { ...scoreOf(c.text), top: c.top, sub: c.sub },
    { ...scoreOf(c.short), top: c.top, sub: c.sub },
    { ...scoreOf(c.first), top: c.top, sub: c.sub },
  ]);
  const raw = { ...file };
  file.lengthReference = LENGTH_REFERENCE;
  let best = { nll: Infinity, temperature: 1, lengthExponent: 0 };
  for (let lengthExponent = 0; lengthExponent <= 0.6; lengthExponent = Math.round((lengthExponent + 0.05) * 100) / 100) {
    const temperature = fitTemperature((t) => meanNll({ ...file, temperature: t, lengthExponent }, scored));
    const nll = meanNll({ ...file, temperature, lengthExponent }, scored);
    if (nll < best.nll) best = { nll, temperature, lengthExponent };
  }
  file.temperature = best.temperature;
  file.lengthExponent = best.lengthExponent;
  const points = topPoints(file, scored);
  file.answerThreshold = lowestThreshold(points, ANSWER_TARGET, 0.5);
  const answeredScored = scored.filter((_, i) => (points[i]?.confidence ?? 0) >= file.answerThreshold && points[i]?.correct);
  file.subThreshold = Math.max(file.answerThreshold, lowestThreshold(subPoints(file, answeredScored), SUB_TARGET, 0.5));
  return { file, raw, scored, points, own: own.length };
}

export async function train(source?: string): Promise<void> {
  const data = await readTrainingData(source);
  const labelled = await readLabelled();
  const { file, raw, scored, points, own } = fitListingModel(data, labelled);
  await writeFile(MODEL_PATH, `${JSON.stringify(file)}\n`);
  const trainingReport = {
    provenance: PROVENANCE,
    rows: data.report,
    split: { train: data.trainRows.length, calibration: data.calibrationRows.length, test: data.companies.filter((c) => c.split === 'test').length },
    ownTexts: own,
    vocabulary: file.vocabulary.length,
    leaves: file.leaves.length,
    temperature: file.temperature,
    lengthExponent: file.lengthExponent,
    lengthReference: file.lengthReference,
    answerThreshold: file.answerThreshold,
    subThreshold: file.subThreshold,
    calibration: {
      nllRaw: Number(meanNll(raw, scored).toFixed(4)),
      nllCalibrated: Number(meanNll(file, scored).toFixed(4)),
      rawEce: reliability(topPoints(raw, scored)).ece,
      top: reliability(points),
      answered: answered(points, file.answerThreshold),
    },
  };
  await writeFile(REPORT_PATH, `${JSON.stringify(trainingReport, null, 2)}\n`);
  await writeSample(data.companies.filter((c) => c.split === 'test'));
  console.log(JSON.stringify({ ...trainingReport, calibration: { ...trainingReport.calibration, top: { ...trainingReport.calibration.top, bins: undefined } } }, null, 2));
}

/** Every n-th test row's short text: a held-out sample the tests can score without ../shared. */
async function writeSample(test: readonly LabelledCompany[]): Promise<void> {
  const step = Math.max(1, Math.floor(test.length / SAMPLE_SIZE));
  const rows = test.filter((_, i) => i % step === 0).slice(0, SAMPLE_SIZE);
  const header = [
    `# Held-out sample of FinanceDatabase company summaries (test split of eval/industries/financedatabase.ts; never trained on).`,
    `# Source: ${PROVENANCE.source} @${PROVENANCE.commit} (${PROVENANCE.date}); licence ${PROVENANCE.licence}.`,
    `# Licence text: LICENSE-FinanceDatabase in this folder.`,
    `# Columns: top-level industry, sub-industry or -, first two sentences of the cleaned summary (company name removed).`,
  ];
  const lines = rows.map((c) => `${c.top}\t${c.sub ?? '-'}\t${c.short.replace(/\s+/g, ' ')}`);
  await mkdir(path.dirname(SAMPLE_PATH), { recursive: true });
  await writeFile(SAMPLE_PATH, `${[...header, ...lines].join('\n')}\n`);
}
