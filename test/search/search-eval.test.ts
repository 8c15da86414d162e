/**
 * The search eval as a regression gate (issue 20, labelled `regression` by issue 32): eval/search's labelled queries
 * over real stores filled with the embedded reference data and the held brands, top-1 ≥ 90% and top-3 ≥ 97%, on
 * SQLite and (when one answers) PostgreSQL. The queries are the rule examples of docs/search.md, written with the
 * rules: they show the documented matching still works, not how search does on queries nobody wrote the rules for.
 * `npm run eval` prints the same figures with the misses.
 */
import { describe, expect, it } from 'vitest';
import { fillSearchStore, labelledQueries, scoreSearch } from '../../eval/search/search-eval.js';
import type { TempDatabase } from '../store/temp-database.js';
import { PG_URL, tempPostgres, tempSqlite } from '../store/temp-database.js';
import { needsPostgres } from '../helpers/optional.js';

async function check(open: () => Promise<TempDatabase>): Promise<void> {
  const opened = await open();
  const { cleanup } = opened;
  try {
    await fillSearchStore(opened);
    const score = await scoreSearch(opened.stores.search);
    expect(score.queries).toBeGreaterThanOrEqual(100);
    expect(score.top1 / score.queries, score.misses.join('\n')).toBeGreaterThanOrEqual(0.9);
    expect(score.top3 / score.queries, score.misses.join('\n')).toBeGreaterThanOrEqual(0.97);
  } finally {
    await cleanup();
  }
}

describe('search regression on the labelled queries (the rule examples)', () => {
  it('has at least 100 queries of every kind the issue names', () => {
    const kinds = new Set(labelledQueries().map((q) => q.kind));
    for (const kind of ['prefix', 'typo', 'accent', 'multi-word', 'ticker']) expect(kinds).toContain(kind);
  });

  it('SQLite: top-1 ≥ 90%, top-3 ≥ 97%', () => check(tempSqlite), 180_000);

  needsPostgres.it('PostgreSQL: top-1 ≥ 90%, top-3 ≥ 97%', { timeout: 180_000 }, () => check(() => tempPostgres(PG_URL ?? '')));
});
