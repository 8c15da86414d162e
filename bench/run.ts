/**
 * `npm run bench`: cached `GET /v2/brands/{domain}` on a real `brandbase serve` process against a bare Fastify
 * route returning the same JSON bytes, same load generator (autocannon), same run. Prints the ratio.
 * Figures and the command are recorded in docs/performance.md. `npm run bench -- --base REV` also runs revision REV
 * and this tree side by side, alternating: cached and paid lookups, crawls and webhook delivery, through each tree's
 * CLI and HTTP only (bench/compare-revisions.ts); `--base REV --revisions-only` runs only that comparison. CLI start
 * times against a base revision (bench/cli-start.ts, `--cli-base REV`) are part of every run.
 * `npm run bench -- --cached-only` measures the cached lookup ratio alone (the "Cached keyed lookup" row of
 * docs/performance.md). The rate limiter is on, as in production, with a limit the load never reaches. First
 * lookups of the shared corpus's real pages (bench/first-lookups.ts) run at the end when the corpus is there.
 * `npm run bench -- --fleet` runs only the fleet figures (bench/fleet-bench.ts: two API processes vs one, two
 * worker processes vs one, on PostgreSQL); the full run includes them.
 * `npm run bench -- --million` runs only bench/million-brands.ts (lookup p50/p99 with 10k, 100k and 1M brands held,
 * SQLite and PostgreSQL; `--keep` keeps the generated stores for the next run); the full run includes it.
 * `npm run bench -- --attacks` runs only the issue-33 attack measurements (bench/attacks/run-attacks.ts: a victim's
 * answer time at rest and during each attack); the full run does not include them.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { FIXTURE_HOSTS, startFixtureSites } from '../test/helpers/fixture-sites.js';
import { compareRevisions } from './compare-revisions.js';
import { PREVIOUS_RELEASE } from '../test/helpers/release-tree.js';
import { measureCliStart } from './cli-start.js';
import { loadConfig } from '../src/config/config.js';
import { createServices } from '../src/main/services.js';
import { silentLogger } from '../src/platform/logger.js';
import { benchRefdataImport } from './refdata-import.js';
import { benchPaletteBuild } from './palette-build.js';
import { benchIndustryModelLoad } from './industry-model-load.js';
import { benchImageKind } from './image-kind.js';
import { benchSearch } from './search.js';
import { benchMetricsOverhead } from './metrics-overhead.js';
import { measureAccessPurchase, measurePaidLookup } from './paid-lookup.js';
import { benchLogoCdn } from './logo-cdn.js';
import { benchWebhookDelivery } from './webhook-delivery.js';
import { benchTransactionMatch } from './transaction-match.js';
import { benchContextBuild } from './context-build.js';
import { benchFleet } from './fleet-bench.js';
import { benchMillionBrands, millionSizes } from './million-brands.js';
import type { Brand } from '../src/domain/brand.js';
import { brandIdForDomain, brandUrn } from '../src/domain/ids.js';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 32;
/** On by default, as in production; `BENCH_RATE_LIMIT_PER_MINUTE=0` switches it off to measure what it costs. */
const BENCH_RATE_LIMIT_PER_MINUTE = Number(process.env.BENCH_RATE_LIMIT_PER_MINUTE ?? 1_000_000_000);
const CACHED_ONLY = process.argv.includes('--cached-only');
/** `npm run bench -- --fleet`: only the fleet figures (two API processes vs one, two workers vs one; bench/fleet-bench.ts). */
const FLEET_ONLY = process.argv.includes('--fleet');
/** `npm run bench -- --million`: only the lookups with 10k, 100k and 1M brands held (bench/million-brands.ts). */
const MILLION_ONLY = process.argv.includes('--million');
/** `npm run bench -- --revisions-only [--base REV]`: only revision REV (default PREVIOUS_RELEASE) against this tree (bench/compare-revisions.ts). */
const REVISIONS_ONLY = process.argv.includes('--revisions-only');
/** `npm run bench -- --attacks`: only the attack measurements (bench/attacks/run-attacks.ts). */
const ATTACKS_ONLY = process.argv.includes('--attacks');
const ROOT = path.resolve(import.meta.dirname, '..');

async function waitForHttp(url: string, headers: Record<string, string> = {}): Promise<void> {
  // Up to 60 s: a new store loads the embedded reference data first, slow on a loaded machine.
  for (let i = 0; i < 600; i++) {
    try {
      const res = await fetch(url, { headers });
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${url}`);
}

async function load(url: string, headers: Record<string, string>, post?: string): Promise<number> {
  const request = post ? { method: 'POST' as const, body: post, headers: { ...headers, 'content-type': 'application/json' } } : { headers };
  const result = await autocannon({ url, ...request, connections: post ? 8 : CONNECTIONS, duration: DURATION_S, pipelining: 1 });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

/**
 * Batch throughput: 100 distinct cached brands per request (copies of the crawled record under 100 domains,
 * written to the store the server reads), identifiers per second against single lookups per second.
 */
async function measureBatch(dataDir: string, port: number, headers: Record<string, string>, brandJson: Buffer): Promise<Record<string, number>> {
  const config = loadConfig({ BRANDBASE_DATA_DIR: dataDir });
  const services = await createServices(config, silentLogger());
  const template = asStored(JSON.parse(brandJson.toString('utf8')) as Brand);
  const domains = Array.from({ length: 100 }, (_, i) => `bench-brand-${i}.test`);
  const now = new Date();
  for (const domain of domains) {
    const id = brandIdForDomain(domain);
    await services.stores.brands.saveBrand({ brand: { ...template, id, domain, urn: brandUrn(id) }, status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: domain }]);
  }
  await services.close();
  const url = `http://127.0.0.1:${port}/v2/brands/batch`;
  const payload = JSON.stringify({ identifiers: domains });
  const first = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: payload });
  if (first.status !== 200) throw new Error(`batch warm-up answered ${first.status}`);
  const single = `http://127.0.0.1:${port}/v2/brands/${domains[0]}`;
  const batchRates: number[] = [];
  const singleRates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    batchRates.push(await load(url, headers, payload));
    singleRates.push(await load(single, headers));
  }
  const identifiersPerSecond = median(batchRates) * 100;
  return {
    batchRequestsPerSec: Math.round(median(batchRates)),
    batchIdentifiersPerSec: Math.round(identifiersPerSecond),
    singleLookupsPerSec: Math.round(median(singleRates)),
    identifiersPerSecRatio: Number((identifiersPerSecond / median(singleRates)).toFixed(2)),
  };
}

/** The answered record as the store holds it: asset URLs back to their keys (ADR 0011). */
function asStored(brand: Brand): Brand {
  const keyed = <T extends { formats: Brand['logos'][number]['formats'] }>(entry: T): T => ({ ...entry, formats: entry.formats.map((f) => ({ ...f, src: f.src.slice(f.src.lastIndexOf('/') + 1) })) });
  return { ...brand, logos: brand.logos.map(keyed), images: brand.images.map(keyed) };
}

/** Extraction time per site against metascraper, no network (bench/extraction.ts, its own process). */
function measureExtraction(): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/extraction.ts'), '--json'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>) : reject(new Error(`bench/extraction.ts exited ${code}`))));
  });
}

/** Re-crawl of unchanged sites against their first crawl, content-hash cache on and off (bench/recrawl.ts, own process). */
function measureRecrawl(): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/recrawl.ts'), '--rounds', '3', '--json'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>) : reject(new Error(`bench/recrawl.ts exited ${code}`))));
  });
}

/**
 * bench/first-lookups.ts in its own process, on `--corpus DIR` (default ../shared/corpus); skipped when that
 * folder does not exist (a fresh checkout has no corpus). The per-page times are left out of this report.
 */
async function measureFirstLookups(): Promise<Record<string, unknown> | null> {
  const corpusAt = process.argv.indexOf('--corpus');
  const corpus = path.resolve(ROOT, corpusAt > 0 ? (process.argv[corpusAt + 1] ?? '') : '../shared/corpus');
  if (!existsSync(corpus)) return null;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/first-lookups.ts'), '--corpus', corpus, '--json'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`bench/first-lookups.ts exited ${code}`));
      const { lookups: _perPage, ...summary } = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
      resolve(summary);
    });
  });
}

/** Batch throughput, extraction speed, revisions and CLI start: everything but the cached lookup ratio. */
async function measureTheRest(dataDir: string, port: number, headers: Record<string, string>, body: Buffer, children: ChildProcess[]): Promise<Record<string, unknown>> {
  const batch = await measureBatch(dataDir, port, headers, body);
  for (const child of children) child.kill('SIGTERM');
  const extraction = await measureExtraction();
  // A refresh's re-crawl of an unchanged site against its first crawl (the content-hash analysis cache, ADR 0030).
  const recrawl = await measureRecrawl();
  const baseAt = process.argv.indexOf('--base');
  const base = baseAt > 0 ? process.argv[baseAt + 1] : undefined;
  const revisions = base ? await compareRevisions(base) : undefined;
  const cliBaseAt = process.argv.indexOf('--cli-base');
  const cliStart = await measureCliStart(cliBaseAt > 0 ? process.argv[cliBaseAt + 1] : undefined);
  // Streaming reference-data import of a generated 1-million-row GLEIF-like file: rows/s and peak memory (~40 s).
  const refdataImport = await benchRefdataImport();
  // First lookups of the shared corpus's real pages, Chromium on (bench/first-lookups.ts): only where the corpus is.
  const firstLookups = await measureFirstLookups();
  // Palette build time per site from a stored crawl, and the read that follows (bench/palette-build.ts).
  const paletteBuild = await benchPaletteBuild();
  // Industry model: parse and decode at start, first and warm prediction (bench/industry-model-load.ts).
  const industryModelLoad = await benchIndustryModelLoad();
  // Image tags: decode to the classification raster, features and model per banner/picture file (bench/image-kind.ts).
  const imageKind = await benchImageKind();
  // Logo CDN: a cached variant on its own port vs @fastify/static serving the same bytes, SQLite and PostgreSQL (bench/logo-cdn.ts).
  const logoCdn = await benchLogoCdn({ durationSeconds: DURATION_S, rounds: ROUNDS });
  // Webhook deliveries per second through the outbox vs the same signed POSTs with no store (bench/webhook-delivery.ts).
  const webhookDelivery = await benchWebhookDelivery({ rounds: ROUNDS });
  // Transaction matches per second with 100,000 more names in the index, against a fresh store (bench/transaction-match.ts).
  const transactionMatch = await benchTransactionMatch();
  // Context build time per site (issue 21): first request (build) and later ones (read) against a store read.
  const contextBuild = await benchContextBuild();
  // Search by name with 100,000 brands against an indexed lookup by domain, SQLite and PostgreSQL (bench/search.ts).
  const search = await benchSearch();
  // What /metrics recording costs the cached lookup: the same services with and without it (bench/metrics-overhead.ts).
  const metricsOverhead = await benchMetricsOverhead();
  // Two API processes vs one and two worker processes vs one, on PostgreSQL (bench/fleet-bench.ts, issue 22).
  const fleet = await benchFleet({ durationSeconds: DURATION_S, rounds: ROUNDS });
  // Lookups p50/p99 with 10k, 100k and 1M generated brands held, cached and uncached, SQLite and PostgreSQL (bench/million-brands.ts).
  const millionBrands = await benchMillionBrands({ sizes: millionSizes(), backends: ['sqlite', 'postgres'], keep: false });
  return { fleet, millionBrands, metricsOverhead, batch, extraction, recrawl, cliStart, refdataImport, paletteBuild, industryModelLoad, imageKind, search, logoCdn, webhookDelivery, transactionMatch, contextBuild, ...(firstLookups ? { firstLookups } : {}), ...(revisions ? { revisions } : {}) };
}

/**
 * Cached lookup by ticker against cached lookup by domain of the same brand, same server, alternating rounds
 * (target ≥ 0.9: a cached ticker costs a Map lookup like a domain). The ticker is attached to the crawled brand in
 * the store the server reads, as a resolved ticker is (rule 7); the first lookup caches it.
 */
async function measureTickerRatio(dataDir: string, port: number, headers: Record<string, string>, domain: string): Promise<Record<string, unknown>> {
  const services = await createServices(loadConfig({ BRANDBASE_DATA_DIR: dataDir }), silentLogger());
  const stored = await services.stores.brands.findBrandByIdentifier({ kind: 'domain', value: domain });
  if (!stored) throw new Error(`${domain} is not held`);
  await services.stores.brands.saveBrand(stored, [{ kind: 'ticker', value: 'NWND' }]);
  await services.close();
  const byDomain = `http://127.0.0.1:${port}/v2/brands/${domain}`;
  const byTicker = `http://127.0.0.1:${port}/v2/brands/ticker/NWND`;
  const first = await fetch(byTicker, { headers });
  if (first.status !== 200) throw new Error(`ticker warm-up answered ${first.status}`);
  await load(byTicker, headers);
  const domainRates: number[] = [];
  const tickerRates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    domainRates.push(await load(byDomain, headers));
    tickerRates.push(await load(byTicker, headers));
  }
  const ratio = median(tickerRates) / median(domainRates);
  return { domainReqPerSec: domainRates.map(Math.round), tickerReqPerSec: tickerRates.map(Math.round), ratio: Number(ratio.toFixed(3)), target: 0.9, pass: ratio >= 0.9 };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function main(): Promise<void> {
  if (MILLION_ONLY) {
    console.log(JSON.stringify(await benchMillionBrands({ sizes: millionSizes(), backends: ['sqlite', 'postgres'], keep: process.argv.includes('--keep') }), null, 2));
    return;
  }
  const sites = await startFixtureSites();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'brandbase-bench-'));
  const port = 18787;
  const barePort = 18788;
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', BRANDBASE_DATA_DIR: dataDir, BRANDBASE_CRAWL_HOSTS: JSON.stringify(sites.hostMap) };
  const config = loadConfig(env);
  const services = await createServices(config, silentLogger());
  const org = await services.accounts.createOrganization({ name: 'bench', plan: 'paid', quota: 1_000_000_000 });
  // The rate limiter stays on, as in production (every request takes a token), with a limit the load never
  // reaches: 0 would switch the limiter off and measure a path production does not run.
  await services.stores.billing.updateOrganization(org.id, { rateLimitPerMinute: BENCH_RATE_LIMIT_PER_MINUTE });
  const { key } = await services.accounts.createApiKey({ orgId: org.id });
  await services.close();

  const children: ChildProcess[] = [];
  try {
    // The real program, as `npm start` runs it, request logging on (to a discarded stdout).
    const server = spawn(process.execPath, [path.join(ROOT, 'bin/brandbase.js'), 'serve'], { env, stdio: ['ignore', process.env.BENCH_SERVER_LOG ? 'inherit' : 'ignore', 'inherit'] });
    children.push(server);
    const domain = FIXTURE_HOSTS.northwind;
    const url = `http://127.0.0.1:${port}/v2/brands/${domain}`;
    const headers = { authorization: `Bearer ${key}` };
    await waitForHttp(`http://127.0.0.1:${port}/healthz`);
    const first = await fetch(url, { headers });
    if (first.status !== 200) throw new Error(`warm-up lookup answered ${first.status}`);
    const body = Buffer.from(await first.arrayBuffer());
    const bodyFile = path.join(dataDir, 'body.json');
    await writeFile(bodyFile, body);

    const bare = fork(path.join(ROOT, 'bench/bare-server.ts'), [bodyFile, String(barePort)], { execArgv: ['--import', 'tsx'], stdio: 'ignore' });
    children.push(bare);
    const bareUrl = `http://127.0.0.1:${barePort}/v2/brands/${domain}`;
    await waitForHttp(bareUrl);

    const brandbase: number[] = [];
    const baseline: number[] = [];
    await load(url, headers); // warm both before measuring
    await load(bareUrl, {});
    for (let round = 0; round < ROUNDS; round++) {
      baseline.push(await load(bareUrl, {}));
      brandbase.push(await load(url, headers));
    }
    const ratio = median(brandbase) / median(baseline);
    const tickerVsDomain = await measureTickerRatio(dataDir, port, headers, domain);
    // Pay per request (x402, embedded facilitator) against an API key, same cached brand (bench/paid-lookup.ts).
    const paidLookup = await measurePaidLookup(dataDir, port, headers, domain, ROUNDS);
    // Standing access bought with x402 against a paid lookup, same server (bench/paid-lookup.ts).
    const accessPurchase = await measureAccessPurchase(dataDir, port, domain);
    const rest = CACHED_ONLY ? {} : await measureTheRest(dataDir, port, headers, body, children);
    const report = {
      benchmark: 'cached GET /v2/brands/{domain} vs bare Fastify route, same bytes',
      rateLimiter: BENCH_RATE_LIMIT_PER_MINUTE > 0 ? `on, ${BENCH_RATE_LIMIT_PER_MINUTE} per minute (never reached)` : 'off (BENCH_RATE_LIMIT_PER_MINUTE=0)',
      loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))),
      bodyBytes: body.length,
      connections: CONNECTIONS,
      durationSeconds: DURATION_S,
      rounds: ROUNDS,
      brandbaseReqPerSec: brandbase.map(Math.round),
      baselineReqPerSec: baseline.map(Math.round),
      ratio: Number(ratio.toFixed(3)),
      target: 0.7,
      pass: ratio >= 0.7,
      tickerVsDomain,
      paidLookup,
      accessPurchase,
      ...rest,
    };
    console.log(JSON.stringify(report, null, 2));
    if (!report.pass) process.exitCode = 1;
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await sites.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (ATTACKS_ONLY) await (await import('./attacks/run-attacks.js')).runAttacks();
else if (FLEET_ONLY) console.log(JSON.stringify(await benchFleet({ durationSeconds: DURATION_S, rounds: ROUNDS }), null, 2));
else if (REVISIONS_ONLY) console.log(JSON.stringify(await compareRevisions(process.argv.includes('--base') ? (process.argv[process.argv.indexOf('--base') + 1] ?? PREVIOUS_RELEASE) : PREVIOUS_RELEASE), null, 2));
else await main();
