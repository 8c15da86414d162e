/**
 * Industry model start-up and prediction cost (ADR 0025): in each of ROUNDS fresh Node processes, the time to read
 * and parse src/crawl/fields/industries/industry-model.json and decode it (loadIndustryModel), the first
 * prediction (cold), and the mean of later predictions on a home-page-sized text; then the same parse and decode of
 * the home-page fallback model (industry-home-page-model.json). Prints medians over the rounds.
 * Run alone: `node --import tsx bench/industry-model-load.ts`; or call `benchIndustryModelLoad()` (npm run bench).
 */
import { fork } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { once } from 'node:events';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadHomePageModel, type HomePageModelFile } from '../src/crawl/fields/industries/home-page-model.js';
import { loadIndustryModel, scoreTokens, type IndustryModelFile } from '../src/crawl/fields/industries/industry-model.js';
import { tokenize } from '../src/crawl/fields/industries/tokenize.js';

const MODEL = path.resolve(import.meta.dirname, '../src/crawl/fields/industries/industry-model.json');
const HOME_PAGE_MODEL = path.resolve(import.meta.dirname, '../src/crawl/fields/industries/industry-home-page-model.json');
const ROUNDS = 5;
const WARM_PREDICTIONS = 200;
const TEXT = `Ship parcels worldwide with express delivery, tracking, freight forwarding and customs clearance for your supply chain. `.repeat(40);

export interface IndustryModelLoadResult {
  fileKb: number;
  parseMs: number;
  decodeMs: number;
  firstPredictionMs: number;
  warmPredictionMs: number;
  homePageFileKb: number;
  /** Parse and decode of the home-page fallback model. */
  homePageLoadMs: number;
}

type Measured = Omit<IndustryModelLoadResult, 'fileKb' | 'homePageFileKb'>;

async function measureOnce(): Promise<Measured> {
  const t0 = performance.now();
  const file = JSON.parse(await readFile(MODEL, 'utf8')) as IndustryModelFile;
  const t1 = performance.now();
  const model = loadIndustryModel(file);
  const t2 = performance.now();
  scoreTokens(model, tokenize(TEXT));
  const t3 = performance.now();
  for (let i = 0; i < WARM_PREDICTIONS; i += 1) scoreTokens(model, tokenize(TEXT));
  const t4 = performance.now();
  loadHomePageModel(JSON.parse(await readFile(HOME_PAGE_MODEL, 'utf8')) as HomePageModelFile);
  const t5 = performance.now();
  return { parseMs: t1 - t0, decodeMs: t2 - t1, firstPredictionMs: t3 - t2, warmPredictionMs: (t4 - t3) / WARM_PREDICTIONS, homePageLoadMs: t5 - t4 };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Number((sorted[Math.floor(sorted.length / 2)] ?? 0).toFixed(2));
}

export async function benchIndustryModelLoad(): Promise<IndustryModelLoadResult> {
  const runs: Measured[] = [];
  for (let i = 0; i < ROUNDS; i += 1) {
    const child = fork(import.meta.filename, ['--child'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    const [message] = (await once(child, 'message')) as [Measured];
    runs.push(message);
    await once(child, 'exit');
  }
  const pick = (k: keyof Measured): number => median(runs.map((r) => r[k]));
  return {
    fileKb: Math.round((await stat(MODEL)).size / 1024),
    parseMs: pick('parseMs'),
    decodeMs: pick('decodeMs'),
    firstPredictionMs: pick('firstPredictionMs'),
    warmPredictionMs: pick('warmPredictionMs'),
    homePageFileKb: Math.round((await stat(HOME_PAGE_MODEL)).size / 1024),
    homePageLoadMs: pick('homePageLoadMs'),
  };
}

if (process.argv.includes('--child')) {
  process.send?.(await measureOnce());
} else if (import.meta.filename === process.argv[1]) {
  console.log(JSON.stringify(await benchIndustryModelLoad(), null, 2));
}
