/**
 * The project's own list of 200+ identifiers (test/fixtures/identifiers/resolution-list.ts: twelve-plus exchanges,
 * share classes, ETFs, ISINs of several countries, crypto symbols) resolved against the embedded reference data on
 * both backends, through the explicit-route parser and the resolver. A wrong company counts worse than a 404: the
 * target is at least 98% right with no wrong company at all. A second, unseen list is gated too. Reports are printed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FinancialResolver } from '../../src/brands/financial-resolver.js';
import { loadConfig } from '../../src/config/config.js';
import { parseTypedIdentifier } from '../../src/domain/identifiers.js';
import { openBackends, type Backends } from '../../src/main/open-backends.js';
import { RESOLUTION_LIST, type ResolutionCase } from '../fixtures/identifiers/resolution-list.js';
import { UNSEEN_LIST } from '../fixtures/identifiers/unseen-list.js';
import { sharedPostgres, type SharedDatabase } from '../helpers/shared-database.js';
import { PG_URL } from '../store/temp-database.js';
import { needsPostgres } from '../helpers/optional.js';

type Verdict = 'right' | '404' | 'wrong';

interface Outcome {
  item: ResolutionCase;
  verdict: Verdict;
  got: string | null;
}

async function resolveAll(backends: Backends, list: readonly ResolutionCase[] = RESOLUTION_LIST): Promise<Outcome[]> {
  const resolver = new FinancialResolver(backends.stores.referenceData);
  const outcomes: Outcome[] = [];
  for (const item of list) {
    const parsed = parseTypedIdentifier(item.type, item.value);
    if (!parsed.ok) throw new Error(`${item.value} does not parse: ${parsed.message}`);
    const got = (await resolver.resolve(parsed.readings.primary))?.domain ?? null;
    outcomes.push({ item, got, verdict: got === null ? '404' : item.expect.includes(got) ? 'right' : 'wrong' });
  }
  return outcomes;
}

function report(backend: string, outcomes: Outcome[]): string {
  const count = (v: Verdict) => outcomes.filter((o) => o.verdict === v).length;
  const groups = [...new Set(outcomes.map((o) => o.item.group))];
  const lines = [`resolution list on ${backend}: ${outcomes.length} identifiers, right ${count('right')}, 404 ${count('404')}, WRONG COMPANY ${count('wrong')}`];
  for (const group of groups) {
    const mine = outcomes.filter((o) => o.item.group === group);
    lines.push(`  ${group.padEnd(12)} ${mine.filter((o) => o.verdict === 'right').length}/${mine.length}`);
  }
  for (const o of outcomes.filter((x) => x.verdict !== 'right')) {
    lines.push(`  ${o.verdict === 'wrong' ? 'WRONG COMPANY' : '404'}: ${o.item.type} ${o.item.value} → ${o.got ?? '-'} (expected ${o.item.expect.join(' | ')})`);
  }
  return lines.join('\n');
}

/**
 * Issue 15's target on the project's list: at least 98% right and no wrong company. The unseen list
 * (unseen-list.ts, written after the curated rows, see its header) holds large caps nothing was tuned for; it is
 * gated at the level it reached (93%, no wrong company), which is the better estimate for a held-out list: its misses
 * are companies the openly licensed sources give no website (Korean and Hong Kong mid caps, renamed tickers).
 */
const TARGET = { right: 0.98, wrong: 0 };
const UNSEEN_GATE = { right: 0.9, wrong: 0 };

function check(backend: string, outcomes: Outcome[], bar: { right: number; wrong: number }): void {
  console.log(report(backend, outcomes));
  const right = outcomes.filter((o) => o.verdict === 'right').length / outcomes.length;
  const wrong = outcomes.filter((o) => o.verdict === 'wrong').map((o) => `${o.item.value} → ${o.got}`);
  expect(wrong).toHaveLength(bar.wrong);
  expect(right).toBeGreaterThanOrEqual(bar.right);
}

describe('the resolution list', () => {
  it('has at least 200 identifiers across at least 12 exchanges, with ETFs, share classes, ISINs and crypto', () => {
    expect(RESOLUTION_LIST.length).toBeGreaterThanOrEqual(200);
    const exchanges = new Set(RESOLUTION_LIST.filter((i) => i.type === 'ticker' && i.group !== 'ETF').map((i) => i.group));
    expect(exchanges.size).toBeGreaterThanOrEqual(12);
    expect(RESOLUTION_LIST.filter((i) => i.group === 'ETF').length).toBeGreaterThanOrEqual(10);
    expect(new Set(RESOLUTION_LIST.filter((i) => i.type === 'isin').map((i) => i.group)).size).toBeGreaterThanOrEqual(8);
    expect(RESOLUTION_LIST.filter((i) => i.type === 'crypto').length).toBeGreaterThanOrEqual(10);
    expect(RESOLUTION_LIST.map((i) => i.value)).toEqual(expect.arrayContaining(['BRK.B', 'BRK-B']));
  });
});

describe('resolution list on SQLite', () => {
  let dir: string;
  let backends: Backends;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'brandbase-resolution-'));
    backends = await openBackends(loadConfig({ BRANDBASE_DATA_DIR: dir }));
  }, 120_000);
  afterAll(async () => {
    await backends?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('resolves the project list: ≥ 98% right, no wrong company', async () => {
    check('SQLite', await resolveAll(backends), TARGET);
  }, 120_000);
  it('resolves the unseen list at the level reached, with no wrong company', async () => {
    check('SQLite (unseen list)', await resolveAll(backends, UNSEEN_LIST), UNSEEN_GATE);
  }, 120_000);
});

needsPostgres.describe('resolution list on PostgreSQL', () => {
  let shared: SharedDatabase;
  let backends: Backends;
  beforeAll(async () => {
    shared = await sharedPostgres(PG_URL as string);
    backends = await openBackends(loadConfig(shared.env));
  }, 180_000);
  afterAll(async () => {
    await backends?.close();
    await shared?.cleanup();
  });

  it('resolves the project list: ≥ 98% right, no wrong company', async () => {
    check('PostgreSQL', await resolveAll(backends), TARGET);
  }, 180_000);
  it('resolves the unseen list at the level reached, with no wrong company', async () => {
    check('PostgreSQL (unseen list)', await resolveAll(backends, UNSEEN_LIST), UNSEEN_GATE);
  }, 180_000);
});

