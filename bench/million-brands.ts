/**
 * A million brands (issue 22 item 6): lookup latency p50/p99 with 10k, 100k and 1M brands held, cached and
 * uncached, on SQLite and PostgreSQL, against the real program (`node bin/brandbase.js serve --no-worker`), and
 * the peak resident memory (VmHWM) of that API process with the largest set held and its brand cache full. The
 * brands are written by `brandbase generate-brands` (the generation rate is reported too).
 *
 * - uncached: the in-memory brand cache is off (BRANDBASE_BRAND_CACHE_MB=0): every lookup reads the store (one
 *   indexed query by domain), for random brands across the whole set;
 * - cached: the default cache; 1,000 random brands are looked up once, then again at random (all hits);
 * - memory (largest size only): after the cached run, 20,000 distinct random brands looked up once each (about
 *   310 MB of records by the cache's estimate), so the cache fills to its byte budget and evicts; VmHWM of the
 *   server process then.
 * Latency is measured per request by the load generator (4 concurrent keep-alive clients, `BENCH_MILLION_SECONDS`
 * per measurement, default 6), so it includes the loopback HTTP round trip.
 *
 * `npm run bench -- --million` runs this alone (bench/run.ts); standalone:
 *   npx tsx bench/million-brands.ts [--sizes 10000,100000,1000000] [--backends sqlite,postgres] [--keep]
 * Each size has its own store: `$BENCH_MILLION_DIR/sqlite-<size>` (default dir: the system temp folder's
 * `brandbase-million`) and PostgreSQL schema `bench_million_<size>` in `BENCH_PG_URL` (default the local `test`
 * database). Without `--keep` they are dropped after the run; with it they are kept and a later run only generates
 * what a store lacks (one 1M generation takes tens of minutes on a loaded machine).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { Accounts } from '../src/billing/accounts.js';
import type { BillingStore } from '../src/billing/billing-store.js';
import { generatedBrand } from '../src/cli/generated-brand.js';
import { openPostgresStore, openSqliteStore } from '../test/store/open-store.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const SECONDS = Number(process.env.BENCH_MILLION_SECONDS ?? 6);
const CLIENTS = 4;
const SEED = 1;
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const STORES = process.env.BENCH_MILLION_DIR ?? path.join(tmpdir(), 'brandbase-million');

type Backend = 'sqlite' | 'postgres';

export interface MillionOptions {
  sizes: number[];
  backends: Backend[];
  keep: boolean;
}

interface Latency {
  requests: number;
  p50Ms: number;
  p99Ms: number;
}

interface SizeReport {
  brands: number;
  generated: { inserted: number; seconds: number; brandsPerSecond: number } | null;
  uncached: Latency;
  cached: Latency;
  peakRssMb?: number;
  distinctLookedUp?: number;
}

/** Where the store of one size lives, and the settings that point brandbase at it. */
interface SizedStore {
  env: Record<string, string>;
  open(): Promise<{ migrate(): Promise<void>; close(): Promise<void>; billing: BillingStore; count(): Promise<number> }>;
  drop(): Promise<void>;
}

function sizedStore(backend: Backend, size: number): SizedStore {
  const dataDir = path.join(STORES, `${backend}-${size}`);
  if (backend === 'sqlite') {
    return {
      env: { BRANDBASE_DATA_DIR: dataDir },
      async open() {
        await mkdir(dataDir, { recursive: true });
        const { migrate, close, stores, db } = await openSqliteStore({ file: path.join(dataDir, 'brandbase.sqlite') });
        await migrate();
        return { migrate, close, billing: stores.billing, count: async () => Number((await sql<{ n: number }>`select count(*) as n from brands`.execute(db)).rows[0]?.n ?? 0) };
      },
      drop: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  const schema = `bench_million_${size}`;
  const url = new URL(PG_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    env: { BRANDBASE_DATA_DIR: dataDir, BRANDBASE_DATABASE_URL: url.toString() },
    async open() {
      await mkdir(dataDir, { recursive: true });
      // Migrated with the schema named: a process given only the search_path may meet other schemas' migration tables.
      const { migrate, close, stores, db } = await openPostgresStore({ url: PG_URL, schema });
      await migrate();
      return { migrate, close, billing: stores.billing, count: async () => Number((await sql<{ n: string }>`select count(*) as n from brands`.execute(db)).rows[0]?.n ?? 0) };
    },
    async drop() {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      try {
        await client.query(`drop schema if exists "${schema}" cascade`);
      } finally {
        await client.end();
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

function runCli(env: Record<string, string>, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/brandbase.js'), ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`brandbase ${args.join(' ')} exited ${code}`))));
  });
}

async function waitForHttp(url: string, server: ChildProcess): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (server.exitCode !== null || server.signalCode !== null) throw new Error(`the server exited (${server.exitCode ?? server.signalCode}) before answering`);
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${url}`);
}

function percentile(sorted: number[], p: number): number {
  return Number((sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0).toFixed(3));
}

/** CLIENTS keep-alive clients for SECONDS, each request for a domain `next()` picks; latency per request. */
async function measure(base: string, headers: Record<string, string>, next: () => string): Promise<Latency> {
  const latencies: number[] = [];
  const until = performance.now() + SECONDS * 1000;
  const client = async () => {
    while (performance.now() < until) {
      const started = performance.now();
      const res = await fetch(`${base}/v2/brands/${next()}`, { headers });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`lookup answered ${res.status}`);
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, p50Ms: percentile(latencies, 0.5), p99Ms: percentile(latencies, 0.99) };
}

function spawnServer(env: Record<string, string>, port: number): ChildProcess {
  const serverEnv = { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', BRANDBASE_LOG_LEVEL: 'warn' };
  return spawn(process.execPath, [path.join(ROOT, 'bin/brandbase.js'), 'serve', '--no-worker'], { env: serverEnv, stdio: ['ignore', 'ignore', 'inherit'] });
}

/** Looks every domain up once, 16 at a time. */
async function fill(base: string, headers: Record<string, string>, domains: readonly string[]): Promise<void> {
  let next = 0;
  const client = async () => {
    while (next < domains.length) {
      const res = await fetch(`${base}/v2/brands/${domains[next++]}`, { headers });
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: 16 }, client));
}

/**
 * A server answering on `port`. Started again (up to three times) when it exits before answering: on a PostgreSQL
 * database where other schemas are created and dropped meanwhile (tests), the start's migration check can fail
 * with undefined_table when it only has a search_path (shared-database.ts says why).
 */
async function startServer(env: Record<string, string>, port: number): Promise<ChildProcess> {
  for (let attempt = 1; ; attempt++) {
    const server = spawnServer(env, port);
    try {
      await waitForHttp(`http://127.0.0.1:${port}/healthz`, server);
      return server;
    } catch (error) {
      await stopServer(server);
      if (attempt === 3) throw error;
    }
  }
}

async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((r) => server.once('exit', r));
  server.kill('SIGTERM');
  await exited;
}

async function peakRssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** Random domains among brands 0 .. size-1 (a pool drawn once; the records are a pure function of the number). */
function domainPool(size: number, count: number): string[] {
  const now = new Date();
  return Array.from({ length: count }, () => generatedBrand(SEED, Math.floor(Math.random() * size), now).stored.brand.domain);
}

async function benchSize(backend: Backend, size: number, withMemory: boolean, keep: boolean): Promise<SizeReport> {
  const target = sizedStore(backend, size);
  const { close, billing, count } = await target.open();
  const held = await count();
  const accounts = new Accounts(billing, { freeQuota: 100, paidQuota: 1_000_000_000 });
  const org = await accounts.createOrganization({ name: 'bench', plan: 'paid', quota: 1_000_000_000 });
  await billing.updateOrganization(org.id, { rateLimitPerMinute: 1_000_000_000 });
  const { key } = await accounts.createApiKey({ orgId: org.id });
  await close();
  await writeFile(path.join(target.env.BRANDBASE_DATA_DIR as string, 'brandbase.env'), '');
  const env = { ...target.env, BRANDBASE_CONFIG_FILE: path.join(target.env.BRANDBASE_DATA_DIR as string, 'brandbase.env') };
  let generated: SizeReport['generated'] = null;
  if (held < size) {
    const out = await runCli(env, ['generate-brands', '--seed', String(SEED), '--from', String(held), '--count', String(size - held), '--json']);
    const summary = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as { inserted: number; seconds: number; brandsPerSecond: number };
    generated = { inserted: summary.inserted, seconds: Number(summary.seconds.toFixed(1)), brandsPerSecond: summary.brandsPerSecond };
  }
  const headers = { authorization: `Bearer ${key}` };
  const port = 18900 + Math.floor(Math.random() * 90);
  const base = `http://127.0.0.1:${port}`;
  const pool = domainPool(size, 20_000);
  const random = () => pool[Math.floor(Math.random() * pool.length)] as string;
  try {
    // Uncached: no brand cache at all.
    const uncachedServer = await startServer({ ...env, BRANDBASE_BRAND_CACHE_MB: '0' }, port);
    let uncached: Latency;
    try {
      await measure(base, headers, random).catch(() => undefined); // warm-up (page cache, JIT)
      uncached = await measure(base, headers, random);
    } finally {
      await stopServer(uncachedServer);
    }
    // Cached: the default cache, a hot set of 1,000 brands.
    const server = await startServer(env, port);
    try {
      const hot = pool.slice(0, 1000);
      for (const domain of hot) await (await fetch(`${base}/v2/brands/${domain}`, { headers })).arrayBuffer();
      const cachedPick = () => hot[Math.floor(Math.random() * hot.length)] as string;
      await measure(base, headers, cachedPick);
      const cached = await measure(base, headers, cachedPick);
      const report: SizeReport = { brands: size, generated, uncached, cached };
      if (withMemory && server.pid !== undefined) {
        // Every brand of the pool once (20,000 distinct brands, ~310 MB of records by the cache's estimate): the
        // cache fills to its budget and evicts; then the peak.
        await fill(base, headers, pool);
        report.peakRssMb = await peakRssMb(server.pid);
        report.distinctLookedUp = new Set(pool).size;
      }
      return report;
    } finally {
      await stopServer(server);
    }
  } finally {
    if (!keep) await target.drop();
  }
}

function ratio(a: number, b: number): number {
  return Number((a / b).toFixed(2));
}

export async function benchMillionBrands(options: MillionOptions): Promise<Record<string, unknown>> {
  if (!existsSync(path.join(ROOT, 'dist/cli/main.js'))) throw new Error('run `npm run build` first: the bench runs bin/brandbase.js');
  const report: Record<string, unknown> = { seconds: SECONDS, clients: CLIENTS, loadAverageBefore: os.loadavg().map((l) => Number(l.toFixed(2))) };
  const largest = Math.max(...options.sizes);
  for (const backend of options.backends) {
    const sizes: SizeReport[] = [];
    for (const size of [...options.sizes].sort((a, b) => a - b)) {
      sizes.push(await benchSize(backend, size, size === largest, options.keep));
      process.stderr.write(`million-brands: ${backend} ${size}: ${JSON.stringify(sizes.at(-1))}\n`);
    }
    const small = sizes[0];
    const big = sizes.at(-1);
    const ratios =
      small && big && small !== big
        ? {
            uncachedP50: ratio(big.uncached.p50Ms, small.uncached.p50Ms),
            uncachedP99: ratio(big.uncached.p99Ms, small.uncached.p99Ms),
            cachedP50: ratio(big.cached.p50Ms, small.cached.p50Ms),
            cachedP99: ratio(big.cached.p99Ms, small.cached.p99Ms),
            target: 1.2,
          }
        : null;
    report[backend] = { sizes, [`largestVsSmallest`]: ratios };
  }
  report.loadAverageAfter = os.loadavg().map((l) => Number(l.toFixed(2)));
  return report;
}

/** Sizes from `BENCH_MILLION_SIZES` (comma-separated), default 10k, 100k and 1M. */
export function millionSizes(raw = process.env.BENCH_MILLION_SIZES ?? '10000,100000,1000000'): number[] {
  return raw.split(',').map(Number);
}

function arg(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = millionSizes(arg('--sizes'));
  const backends = (arg('--backends') ?? 'sqlite,postgres').split(',') as Backend[];
  benchMillionBrands({ sizes, backends, keep: process.argv.includes('--keep') })
    .then((report) => console.log(JSON.stringify(report, null, 2)))
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
}
