/**
 * What reading the merchant corrections costs a transaction (issue 34, ADR 0053): every `POST /v2/brands/transaction`
 * reads the corrections table once (no cache), before any rule. Alone: `node --import tsx bench/correction-lookup.ts`
 * (PostgreSQL too with BENCH_PG_URL=postgres://...). A fresh store as `serve` opens it, filled with 10,000 corrections
 * of the organization that asks, 10,000 operator aliases and 200 other organizations of 100 each (40,000 rows); then
 * `MerchantCorrections.find` is timed for descriptors that hit a correction and for descriptors that miss (the common
 * case: the rules then answer), one at a time. Reported: finds per second and p50/p95 in microseconds. Wall-clock on
 * whatever machine runs it: a figure, never a test.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../src/config/config.js';
import { newId } from '../src/domain/ids.js';
import { openBackends } from '../src/main/open-backends.js';
import { correctionKey, OPERATOR_SCOPE, type MerchantCorrection } from '../src/transactions/corrections/merchant-correction.js';
import { MerchantCorrections } from '../src/transactions/corrections/merchant-corrections.js';

const SECONDS = Number(process.env.BENCH_CORRECTION_SECONDS ?? 3);
const WORDS = ['blue', 'bottle', 'acme', 'north', 'river', 'stone', 'green', 'market', 'coffee', 'bakery', 'motors', 'garden', 'pixel', 'harbor', 'cedar', 'summit'];

/** A distinct descriptor per `i` below 16^4: `<prefix>` and four words, then a store number. */
function label(prefix: string, i: number): string {
  const words = [0, 1, 2, 3].map((k) => WORDS[Math.floor(i / 16 ** k) % 16] ?? '');
  return `${prefix} ${words.join(' ')} 1234`.toUpperCase();
}

function row(scope: string, text: string, at: number): MerchantCorrection {
  return { id: newId('mco'), scope, label: text, key: correctionKey(text, 'US'), countryCode: 'US', domain: 'example.com', createdBy: 'bench', createdAt: new Date(at), removedBy: null, removedAt: null };
}

interface Rate {
  perSecond: number;
  p50Us: number;
  p95Us: number;
}

async function rate(corrections: MerchantCorrections, org: string, labels: readonly string[]): Promise<Rate> {
  const times: number[] = [];
  const start = performance.now();
  for (let i = 0; performance.now() - start < SECONDS * 1000; i++) {
    const t0 = performance.now();
    await corrections.find(org, { transactionLabel: labels[i % labels.length] ?? '', countryCode: 'US' });
    times.push(performance.now() - t0);
  }
  const elapsed = (performance.now() - start) / 1000;
  times.sort((a, b) => a - b);
  const at = (p: number): number => Math.round((times[Math.floor((times.length - 1) * p)] ?? 0) * 1000);
  return { perSecond: Math.round(times.length / elapsed), p50Us: at(0.5), p95Us: at(0.95) };
}

async function measure(name: string, env: Record<string, string>): Promise<Record<string, unknown>> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'brandbase-correction-bench-'));
  const backends = await openBackends(loadConfig({ BRANDBASE_DATA_DIR: dataDir, ...env }));
  try {
    const store = backends.stores.merchantCorrections;
    const org = newId('org');
    let at = Date.now() - 1_000_000;
    const fill = async (scope: string, prefix: string, count: number) => {
      for (let i = 0; i < count; i++) await store.addMerchantCorrection(row(scope, label(prefix, i), at++), null);
    };
    const t0 = performance.now();
    await fill(org, 'own', 10_000);
    await fill(OPERATOR_SCOPE, 'op', 10_000);
    for (let o = 0; o < 200; o++) await fill(newId('org'), 'other', 100);
    const fillSeconds = Math.round((performance.now() - t0) / 100) / 10;
    const corrections = new MerchantCorrections(store);
    const hits = Array.from({ length: 500 }, (_, i) => label('own', i * 19));
    const misses = Array.from({ length: 500 }, (_, i) => label('nobody', i * 7));
    const hit = await rate(corrections, org, hits);
    const miss = await rate(corrections, org, misses);
    return { backend: name, rows: 40_000, fillSeconds, hit, miss };
  } finally {
    await backends.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** A schema of its own on `url`, dropped after `run`. */
async function inSchema<T>(url: string, run: (schemaUrl: string) => Promise<T>): Promise<T> {
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(statement).finally(() => client.end());
  };
  await admin(`create schema "${schema}"`);
  try {
    const withSchema = new URL(url);
    withSchema.searchParams.set('options', `-c search_path=${schema}`);
    return await run(withSchema.toString());
  } finally {
    await admin(`drop schema if exists "${schema}" cascade`);
  }
}

const results = [await measure('sqlite', {})];
const pgUrl = process.env.BENCH_PG_URL;
if (pgUrl) results.push(await inSchema(pgUrl, (url) => measure('postgres', { BRANDBASE_DATABASE_URL: url })));
console.log(JSON.stringify({ bench: 'correction-lookup', seconds: SECONDS, results }, null, 2));
