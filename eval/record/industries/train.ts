/**
 * Trains the industry classifier offline and writes src/crawl/fields/industries/model.json plus reliability.json.
 *   node --import tsx eval/record/industries/train.ts
 * Data: the taxonomy's keywords (one pseudo-document per sub-industry) and labelled.tsv (hand-written
 * one-sentence descriptions, 2–4 per sub-industry). Calibration: the softmax temperature that minimises the
 * negative log-likelihood of the true sub-industry over leave-one-out predictions (each labelled text scored
 * by a model trained without it). Reliability bins of those held-out predictions are written for the docs.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { logLikelihoods, posteriors, trainNaiveBayes, type TrainingDocument } from '../../../src/crawl/fields/industries/naive-bayes.js';
import { subIndustries, taxonomyEntry } from '../../../src/crawl/fields/industries/taxonomy.js';
import { tokenize } from '../../../src/crawl/fields/industries/tokenize.js';

export interface Labelled {
  label: string;
  text: string;
}

const KEYWORD_WEIGHT = 1;
const ALPHA = 0.3;

export async function readLabelled(): Promise<Labelled[]> {
  const text = await readFile(new URL('./labelled.tsv', import.meta.url), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => {
      const [label = '', body = ''] = line.split('\t');
      return { label, text: body };
    });
}

export function classifierLabels(): string[] {
  return subIndustries().filter((e) => !e.nsfw).map((e) => e.id);
}

export function keywordDocuments(): TrainingDocument[] {
  return subIndustries()
    .filter((e) => !e.nsfw)
    .map((e) => ({ label: e.id, tokens: (e.keywords ?? []).flatMap((k) => tokenize(k)), weight: KEYWORD_WEIGHT }));
}

function documents(set: Labelled[]): TrainingDocument[] {
  return set.map((l) => ({ label: l.label, tokens: tokenize(l.text), weight: 1 }));
}

interface HeldOut {
  label: string;
  logLikelihood: number[];
}

function leaveOneOut(labels: string[], set: Labelled[]): HeldOut[] {
  return set.map((item, i) => {
    const model = trainNaiveBayes(labels, [...keywordDocuments(), ...documents(set.filter((_, j) => j !== i))], ALPHA);
    return { label: item.label, logLikelihood: logLikelihoods(model, tokenize(item.text)) };
  });
}

function meanNll(labels: string[], heldOut: HeldOut[], temperature: number): number {
  let sum = 0;
  for (const h of heldOut) sum -= Math.log(Math.max(1e-12, posteriors(h.logLikelihood, temperature)[labels.indexOf(h.label)] ?? 0));
  return sum / heldOut.length;
}

export function fitTemperature(labels: string[], heldOut: HeldOut[]): number {
  let best = { t: 1, nll: Infinity };
  for (let t = 0.25; t <= 30; t *= 1.05) {
    const nll = meanNll(labels, heldOut, t);
    if (nll < best.nll) best = { t, nll };
  }
  return Math.round(best.t * 1000) / 1000;
}

export interface ReliabilityBin {
  range: string;
  n: number;
  meanConfidence: number;
  accuracy: number;
}

/** Top-1 confidence vs accuracy, for sub-industries and for top-level industries (sum of children). */
export function reliability(labels: string[], heldOut: HeldOut[], temperature: number, level: 'sub' | 'top'): { bins: ReliabilityBin[]; accuracy: number; ece: number } {
  const points = heldOut.map((h) => {
    const p = posteriors(h.logLikelihood, temperature);
    const scores = new Map<string, number>();
    labels.forEach((id, i) => {
      const key = level === 'sub' ? id : (taxonomyEntry(id)?.parent ?? id);
      scores.set(key, (scores.get(key) ?? 0) + (p[i] ?? 0));
    });
    const [top, confidence] = [...scores.entries()].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
    const truth = level === 'sub' ? h.label : (taxonomyEntry(h.label)?.parent ?? h.label);
    return { confidence, correct: top === truth };
  });
  const edges = [0, 0.2, 0.4, 0.6, 0.8, 1.0001];
  const bins = edges.slice(0, -1).map((lo, i) => {
    const hi = edges[i + 1] ?? 1;
    const inBin = points.filter((pt) => pt.confidence >= lo && pt.confidence < hi);
    const mean = (f: (x: { confidence: number; correct: boolean }) => number): number => (inBin.length ? inBin.reduce((s, x) => s + f(x), 0) / inBin.length : 0);
    return { range: `${lo.toFixed(1)}–${Math.min(1, hi).toFixed(1)}`, n: inBin.length, meanConfidence: round(mean((x) => x.confidence)), accuracy: round(mean((x) => (x.correct ? 1 : 0))) };
  });
  const ece = bins.reduce((s, b) => s + (b.n / points.length) * Math.abs(b.meanConfidence - b.accuracy), 0);
  return { bins, accuracy: round(points.filter((p) => p.correct).length / points.length), ece: round(ece) };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

async function main(): Promise<void> {
  const labels = classifierLabels();
  const set = await readLabelled();
  const unknown = set.filter((l) => !labels.includes(l.label));
  if (unknown.length) throw new Error(`labels not in the taxonomy: ${unknown.map((u) => u.label).join(', ')}`);
  const heldOut = leaveOneOut(labels, set);
  const temperature = fitTemperature(labels, heldOut);
  const model = { ...trainNaiveBayes(labels, [...keywordDocuments(), ...documents(set)], ALPHA), temperature };
  const report = {
    labelledTexts: set.length,
    subIndustries: labels.length,
    temperature,
    rawNll: round(meanNll(labels, heldOut, 1)),
    calibratedNll: round(meanNll(labels, heldOut, temperature)),
    sub: reliability(labels, heldOut, temperature, 'sub'),
    top: reliability(labels, heldOut, temperature, 'top'),
    rawTop: reliability(labels, heldOut, 1, 'top'),
  };
  await writeFile(new URL('../../../src/crawl/fields/industries/model.json', import.meta.url), `${JSON.stringify(model)}\n`);
  await writeFile(new URL('./reliability.json', import.meta.url), `${JSON.stringify(report, null, 2)}\n`);
  console.log(JSON.stringify(report, null, 2));
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
