/**
 * Crawl throughput with one `brandbase worker` process against two (issue 22, docs/performance.md "Fleet"): the 65
 * sites of the logo corpus (eval/logos) served on loopback by a process of their own (bench/corpus-server.ts), every
 * answer after 50 ms like a site across a network, reached through the crawler's host map. Per case a fresh
 * PostgreSQL schema (migrated and seeded before the clock starts), N worker processes started, warmed by crawling
 * the first 24 sites untimed, then one crawl job queued per remaining site through the queue the store opens
 * (main/open-backends.ts); the time runs from the first enqueue to the last job finished (done, failed, or failed
 * with its retry scheduled). Every process has the same worker concurrency (BRANDBASE_WORKER_CONCURRENCY, default
 * 2). The palette's background render (a job of its own after a crawl, ADR 0023) is off, so the figure is crawls
 * only; a crawl's own render of a script-built page stays as configured.
 *
 *   node --import tsx bench/fleet-crawl.ts      (after `npm run build`; BENCH_PG_URL, BENCH_FLEET_CRAWL_ROUNDS,
 *                                               BENCH_FLEET_CONCURRENCY, BENCH_FLEET_LATENCY_MS, BENCH_FLEET_WARMUP_SITES)
 */
import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config/config.js';
import { JOB_NAMES, type Job } from '../src/jobs/queue.js';
import { openBackends, type Backends } from '../src/main/open-backends.js';
import { sharedPostgres } from '../test/helpers/shared-database.js';
import { ROOT, loadAverage, ownSessions, machineCpuSeconds, median, note, postgresReachable, round, startBrandbaseReady, stopProcess, treeCpuSeconds } from './fleet-processes.js';

const BENCH = 'fleet-crawl';
const IDLE_SAMPLE_MS = 5000;

export interface FleetCrawlOptions {
  /** Pairs of cases, run one-two then two-one alternately. */
  rounds: number;
  /** BRANDBASE_WORKER_CONCURRENCY of every worker process. */
  concurrency: number;
  latencyMs: number;
  /** Sites crawled first, untimed, to warm the worker processes; the rest of the corpus is measured. */
  warmupSites: number;
}

interface CrawlCase {
  workers: number;
  seconds: number;
  brandsPerSecond: number;
  done: number;
  failed: number;
  /** CPU cores used on average during the crawls: all worker processes with their crawl-worker children; the machine. */
  workerCores: number;
  /** CPU seconds the worker processes (with their children) spent per brand indexed. */
  workerCpuSecondsPerBrand: number;
  /** CPU cores the worker processes used idle, warmed, with nothing queued (measured over 5 s before the crawls). */
  workerIdleCores: number;
  machineBusyCores: number;
}

/** The corpus server (its own process); resolves with its host map once it listens. */
function startCorpus(latencyMs: number): Promise<{ child: ChildProcess; hostMap: Record<string, string> }> {
  const child = fork(path.join(ROOT, 'bench/corpus-server.ts'), [String(latencyMs)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (message: { hostMap: Record<string, string> }) => resolve({ child, hostMap: message.hostMap }));
    child.once('exit', (code) => reject(new Error(`corpus server exited ${code}`)));
  });
}

/** Finished: done, failed for good, or failed with a retry scheduled (the bench does not wait out the backoff). */
function finished(job: Job | null): 'done' | 'failed' | null {
  if (job === null) return null;
  if (job.state === 'done') return 'done';
  if (job.state === 'failed' || (job.state === 'queued' && job.attempts > 0)) return 'failed';
  return null;
}

async function waitForJobs(backends: Backends, ids: string[]): Promise<{ done: number; failed: number }> {
  const outcome = new Map<string, 'done' | 'failed'>();
  const deadline = Date.now() + 30 * 60_000;
  while (outcome.size < ids.length) {
    if (Date.now() > deadline) throw new Error(`only ${outcome.size} of ${ids.length} crawls finished in 30 minutes`);
    for (const id of ids) {
      if (outcome.has(id)) continue;
      const state = finished(await backends.queue.get(id));
      if (state) outcome.set(id, state);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const states = [...outcome.values()];
  return { done: states.filter((s) => s === 'done').length, failed: states.filter((s) => s === 'failed').length };
}

/** One crawl job per domain, queued as the operator's own work (no owner); returns the job ids. */
async function enqueueAll(backends: Backends, domains: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const domain of domains) ids.push((await backends.queue.enqueue(JOB_NAMES.crawlBrand, domain, { domain, refresh: false }, { owner: null })).id);
  return ids;
}

async function runCase(pgUrl: string, hostMap: Record<string, string>, workers: number, options: FleetCrawlOptions): Promise<CrawlCase> {
  const db = await sharedPostgres(pgUrl);
  const env = {
    ...db.env,
    BRANDBASE_CRAWL_HOSTS: JSON.stringify(hostMap),
    BRANDBASE_WORKER_CONCURRENCY: String(options.concurrency),
    BRANDBASE_PALETTE_RENDER: 'off',
  };
  // Migrated and seeded with the embedded reference data here, before any worker starts and before the clock.
  const backends = await openBackends(loadConfig(env));
  const children: ChildProcess[] = [];
  try {
    for (let i = 0; i < workers; i++) children.push(await startBrandbaseReady(['worker'], env, 'brandbase worker running'));
    const domains = Object.keys(hostMap);
    // Warm-up, untimed: a fleet's workers run for days, so the figure is their steady state, not each process's
    // first crawls (JIT, the crawl-worker children a process starts when crawls wait: ADR 0014).
    await waitForJobs(backends, await enqueueAll(backends, domains.slice(0, options.warmupSites)));
    const measured = domains.slice(options.warmupSites);
    const pids = children.map((c) => c.pid as number);
    // What the processes cost with nothing to crawl (queue polls, schedulers), over 5 s: part of each brand's CPU.
    const idleBefore = treeCpuSeconds(pids).reduce((a, b) => a + b, 0);
    await new Promise((r) => setTimeout(r, IDLE_SAMPLE_MS));
    // A crawl-worker child that exits meanwhile takes its ticks along (fleet-processes.ts): never below zero.
    const idleCores = Math.max(0, treeCpuSeconds(pids).reduce((a, b) => a + b, 0) - idleBefore) / (IDLE_SAMPLE_MS / 1000);
    note(BENCH, `${workers} worker process(es) up and warm (idle: ${round(idleCores)} cores), queueing ${measured.length} crawls`);
    const cpuBefore = treeCpuSeconds(pids);
    const machineBefore = machineCpuSeconds();
    const started = process.hrtime.bigint();
    const { done, failed } = await waitForJobs(backends, await enqueueAll(backends, measured));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const cpuAfter = treeCpuSeconds(pids);
    const machineAfter = machineCpuSeconds();
    const workerCpu = cpuAfter.reduce((a, b) => a + b, 0) - cpuBefore.reduce((a, b) => a + b, 0);
    const result = {
      workers,
      seconds: round(seconds),
      brandsPerSecond: round(done / seconds),
      done,
      failed,
      workerCores: round(workerCpu / seconds),
      workerCpuSecondsPerBrand: round(workerCpu / Math.max(done, 1), 3),
      workerIdleCores: round(idleCores),
      machineBusyCores: round((machineAfter.busy - machineBefore.busy) / seconds),
    };
    note(BENCH, `${workers} worker(s): ${done} done, ${failed} failed in ${result.seconds} s (${result.brandsPerSecond} brands/s), workers ${result.workerCores} cores, machine ${result.machineBusyCores}`);
    return result;
  } finally {
    await Promise.all(children.map(stopProcess));
    await backends.close();
    await db.cleanup();
  }
}

/** PostgreSQL only (the fleet's store); reported as skipped when no server answers at BENCH_PG_URL. */
export async function benchFleetCrawl(options: FleetCrawlOptions): Promise<Record<string, unknown>> {
  const pgUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const header = {
    benchmark: 'crawl jobs for the corpus sites after a warm-up (every answer after the latency): two `brandbase worker` processes vs one, PostgreSQL store',
    cores: os.availableParallelism(),
    ownSessions: ownSessions(),
    workerConcurrency: options.concurrency,
    latencyMs: options.latencyMs,
    rounds: options.rounds,
    warmupSites: options.warmupSites,
  };
  if (!(await postgresReachable(pgUrl))) return { ...header, skipped: `no PostgreSQL at ${pgUrl}` };
  const loadBefore = loadAverage();
  const corpus = await startCorpus(options.latencyMs);
  try {
    const one: CrawlCase[] = [];
    const two: CrawlCase[] = [];
    for (let r = 0; r < options.rounds; r++) {
      const order = r % 2 === 0 ? [1, 2] : [2, 1];
      for (const workers of order) (workers === 1 ? one : two).push(await runCase(pgUrl, corpus.hostMap, workers, options));
    }
    const ratio = median(two.map((c) => c.brandsPerSecond)) / median(one.map((c) => c.brandsPerSecond));
    return { ...header, sitesMeasured: Object.keys(corpus.hostMap).length - options.warmupSites, loadAverageBefore: loadBefore, loadAverageAfter: loadAverage(), oneWorker: one, twoWorkers: two, ratio: round(ratio, 3) };
  } finally {
    corpus.child.disconnect();
  }
}

// `node --import tsx bench/fleet-crawl.ts`: this benchmark alone (after `npm run build`).
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const report = await benchFleetCrawl({
    rounds: Number(process.env.BENCH_FLEET_CRAWL_ROUNDS ?? 1),
    concurrency: Number(process.env.BENCH_FLEET_CONCURRENCY ?? 2),
    latencyMs: Number(process.env.BENCH_FLEET_LATENCY_MS ?? 50),
    warmupSites: Number(process.env.BENCH_FLEET_WARMUP_SITES ?? 24),
  });
  console.log(JSON.stringify(report, null, 2));
}
