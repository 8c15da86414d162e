/**
 * `npm run eval` suite for search by name (issue 20): top-1 and top-3 on the labelled queries of queries.tsv over a
 * real SQLite store (embedded reference data plus held-brands.tsv), and over PostgreSQL too when
 * BRANDBASE_EVAL_PG_URL names one (a fresh schema, dropped afterwards). Targets from the issue: top-1 ≥ 90%,
 * top-3 ≥ 97%.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openPostgresStore, openSqliteStore, type OpenedStore } from '../../test/store/open-store.js';
import type { EvalMetric, EvalReport, EvalSuite } from '../run.js';
import { fillSearchStore, labelledQueries, scoreSearch, type SearchScore } from './search-eval.js';

async function onSqlite(): Promise<SearchScore> {
  const dir = await mkdtemp(path.join(tmpdir(), 'brandbase-search-eval-'));
  const opened = await openSqliteStore({ file: path.join(dir, 'search.sqlite') });
  try {
    return await scored(opened);
  } finally {
    await opened.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function onPostgres(url: string): Promise<SearchScore> {
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

async function scored(opened: OpenedStore): Promise<SearchScore> {
  await fillSearchStore(opened);
  return scoreSearch(opened.stores.search);
}

function metrics(label: string, score: SearchScore): EvalMetric[] {
  const out: EvalMetric[] = [
    { name: `${label} top-1`, value: score.top1 / score.queries, unit: '%', kind: 'regression', target: { value: 0.9, direction: 'higher' } },
    { name: `${label} top-3`, value: score.top3 / score.queries, unit: '%', kind: 'regression', target: { value: 0.97, direction: 'higher' } },
  ];
  for (const [kind, k] of Object.entries(score.byKind)) out.push({ name: `${label} top-1, ${kind} (${k.queries})`, value: k.top1 / k.queries, unit: '%', kind: 'regression' });
  return out;
}

export const run: EvalSuite = async () => {
  const queries = labelledQueries();
  const sqlite = await onSqlite();
  const report: EvalReport = { suite: 'search by name (eval/search)', sites: queries.length, metrics: metrics('SQLite', sqlite), failures: sqlite.misses.map((m) => `SQLite: ${m}`) };
  const pgUrl = process.env.BRANDBASE_EVAL_PG_URL;
  if (pgUrl) {
    const postgres = await onPostgres(pgUrl);
    report.metrics.push(...metrics('PostgreSQL', postgres));
    report.failures.push(...postgres.misses.map((m) => `PostgreSQL: ${m}`));
  }
  report.notes = [
    `${queries.length} labelled queries written for this eval (queries.tsv), over the embedded reference data plus held-brands.tsv; "sites" counts queries.`,
    'The list was read while the ranking was developed (a first run showed tickers missed: only one ticker per company was indexed), so the figures are not a held-out measure.',
    pgUrl ? 'PostgreSQL: BRANDBASE_EVAL_PG_URL.' : 'PostgreSQL not run: set BRANDBASE_EVAL_PG_URL to score it too (test/search/search-eval.test.ts gates both).',
  ];
  return report;
};
