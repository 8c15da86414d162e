/**
 * `npm run eval` suite for search by name (issue 20): top-1 and top-3 on the labelled queries of queries.tsv over a
 * real SQLite store (embedded reference data plus held-brands.tsv), and over PostgreSQL too when
 * BRANDBASE_EVAL_PG_URL names one (a fresh schema, dropped afterwards). Targets from the issue: top-1 ≥ 90%,
 * top-3 ≥ 97%. Issue 34's held-out queries (queries-34.tsv, written before its knowledge set and never tuned on)
 * run on the same stores and are reported apart, without a gate: top-1 overall and per category, and how many
 * answer an investor-relations or holding domain first.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openPostgresStore, openSqliteStore, type OpenedStore } from '../../test/store/open-store.js';
import type { EvalMetric, EvalReport, EvalSuite } from '../run.js';
import { fillSearchStore, labelledQueries, scoreSearch, type SearchScore } from './search-eval.js';

interface Scores {
  regression: SearchScore;
  heldOut34: SearchScore;
}

async function onSqlite(): Promise<Scores> {
  const dir = await mkdtemp(path.join(tmpdir(), 'brandbase-search-eval-'));
  const opened = await openSqliteStore({ file: path.join(dir, 'search.sqlite') });
  try {
    return await scored(opened);
  } finally {
    await opened.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function onPostgres(url: string): Promise<Scores> {
  const schema = `eval_${randomBytes(5).toString('hex')}`;
  const opened = await openPostgresStore({ url, schema });
  try {
    return await scored(opened);
  } finally {
    await opened.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`drop schema if exists "${schema}" cascade`);
    await client.end();
  }
}

async function scored(opened: OpenedStore): Promise<Scores> {
  await fillSearchStore(opened);
  return { regression: await scoreSearch(opened.stores.search), heldOut34: await scoreSearch(opened.stores.search, labelledQueries('./queries-34.tsv')) };
}

function metrics(label: string, score: SearchScore): EvalMetric[] {
  const out: EvalMetric[] = [
    { name: `${label} top-1`, value: score.top1 / score.queries, unit: '%', kind: 'regression', target: { value: 0.9, direction: 'higher' } },
    { name: `${label} top-3`, value: score.top3 / score.queries, unit: '%', kind: 'regression', target: { value: 0.97, direction: 'higher' } },
  ];
  for (const [kind, k] of Object.entries(score.byKind)) out.push({ name: `${label} top-1, ${kind} (${k.queries})`, value: k.top1 / k.queries, unit: '%', kind: 'regression' });
  return out;
}

function heldOut34Metrics(label: string, score: SearchScore): EvalMetric[] {
  const name = `${label} issue 34 held-out`;
  const out: EvalMetric[] = [
    { name: `${name} top-1 (${score.top1}/${score.queries})`, value: score.top1 / score.queries, unit: '%', kind: 'held-out' },
    { name: `${name} top-3`, value: score.top3 / score.queries, unit: '%', kind: 'held-out' },
    { name: `${name}: IR/holding domain as top-1 where the brand's own site is known`, value: score.holdingTop1.length, unit: 'count', kind: 'held-out' },
  ];
  for (const [kind, k] of Object.entries(score.byKind)) out.push({ name: `${name} top-1, ${kind} (${k.top1}/${k.queries})`, value: k.top1 / k.queries, unit: '%', kind: 'held-out' });
  return out;
}

function add(report: EvalReport, label: string, scores: Scores): void {
  report.metrics.push(...metrics(label, scores.regression), ...heldOut34Metrics(label, scores.heldOut34));
  report.failures.push(
    ...scores.regression.misses.map((m) => `${label}: ${m}`),
    ...scores.heldOut34.holdingTop1.map((m) => `${label} held-out-34 IR/holding top-1: ${m}`),
    ...scores.heldOut34.misses.map((m) => `${label} held-out-34: ${m}`),
  );
}

export const run: EvalSuite = async () => {
  const queries = labelledQueries();
  const heldOut34 = labelledQueries('./queries-34.tsv');
  const report: EvalReport = { suite: 'search by name (eval/search)', sites: queries.length, metrics: [], failures: [] };
  add(report, 'SQLite', await onSqlite());
  const pgUrl = process.env.BRANDBASE_EVAL_PG_URL;
  if (pgUrl) add(report, 'PostgreSQL', await onPostgres(pgUrl));
  report.notes = [
    `${queries.length} labelled queries written for this eval (queries.tsv), over the embedded reference data plus held-brands.tsv; "sites" counts queries.`,
    'The list was read while the ranking was developed (a first run showed tickers missed: only one ticker per company was indexed), so the figures are not a held-out measure.',
    `issue 34 held-out: ${heldOut34.length} queries (queries-34.tsv: ${[...new Set(heldOut34.map((q) => q.kind))].map((k) => `${heldOut34.filter((q) => q.kind === k).length} ${k}`).join(', ')}) written 2026-12-07 before the knowledge set and never tuned on; the expected domain is the brand's own site, and a top-1 that is the listed parent's investor-relations or holding site is counted apart.`,
    pgUrl ? 'PostgreSQL: BRANDBASE_EVAL_PG_URL.' : 'PostgreSQL not run: set BRANDBASE_EVAL_PG_URL to score it too (test/search/search-eval.test.ts gates both).',
  ];
  return report;
};
