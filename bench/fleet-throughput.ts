/**
 * Requests per second through two API processes against one (issue 22, docs/performance.md "Fleet"): two real
 * `brandbase serve --no-worker` processes on one PostgreSQL store (a schema of its own, dropped after), a brand held
 * and an organization with a quota and rate limit the load never reaches. The same cached `GET /v2/brands/{domain}`
 * load (autocannon in a process of its own, bench/fleet-load-generator.ts, same connections and duration) goes to one
 * process, or round robin to both; rounds alternate the order and the medians are compared. Both processes run in
 * both cases (the idle one costs a poll a second), so the only change is where the load goes.
 *
 * On a 2-core machine the load generator shares the cores with the servers, so the ratio is bounded by CPU: each
 * round records the CPU seconds used by each server (with its crawl-worker children, from /proc), by the load
 * generator, and by the whole machine (/proc/stat), to show where the cores went.
 *
 *   node --import tsx bench/fleet-throughput.ts        (after `npm run build`; BENCH_PG_URL, BENCH_DURATION, BENCH_ROUNDS)
 */
import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config/config.js';
import { createServices } from '../src/main/services.js';
import { silentLogger } from '../src/platform/logger.js';
import { sharedPostgres, type SharedDatabase } from '../test/helpers/shared-database.js';
import { sampleBrand } from '../test/store/sample-brand.js';
import type { LoadRequest, LoadResult } from './fleet-load-generator.js';
import { ROOT, loadAverage, ownSessions, machineCpuSeconds, median, note, postgresReachable, round, startBrandbaseReady, stopProcess, treeCpuSeconds, waitForHttp } from './fleet-processes.js';

const DOMAIN = 'fleet-bench.test';
const CONNECTIONS = 32;
const BENCH = 'fleet-throughput';

export interface FleetThroughputOptions {
  durationSeconds: number;
  rounds: number;
  /** First API port; the second process listens on the next one. */
  port?: number;
}

interface CaseSample {
  requestsPerSecond: number;
  /** CPU cores used on average over the measurement: each server (with children), the load generator, the machine. */
  serverCores: number[];
  loadGeneratorCores: number;
  machineBusyCores: number;
}

/** The brand, and an organization and API key with a quota and rate limit the load never reaches; returns the key. */
async function seed(env: Record<string, string>): Promise<string> {
  const services = await createServices(loadConfig(env), silentLogger());
  try {
    const now = new Date();
    await services.stores.brands.saveBrand({ brand: sampleBrand(DOMAIN, { name: 'Fleet Bench' }), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: DOMAIN }]);
    const org = await services.accounts.createOrganization({ name: 'fleet bench', plan: 'paid', quota: 1_000_000_000 });
    await services.stores.billing.updateOrganization(org.id, { rateLimitPerMinute: 1_000_000_000 });
    return (await services.accounts.createApiKey({ orgId: org.id })).key;
  } finally {
    await services.close();
  }
}

class LoadGenerator {
  private constructor(private readonly child: ChildProcess) {}

  static async start(): Promise<LoadGenerator> {
    const child = fork(path.join(ROOT, 'bench/fleet-load-generator.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) => reject(new Error(`load generator exited ${code}`)));
    });
    return new LoadGenerator(child);
  }

  get pid(): number {
    return this.child.pid as number;
  }

  run(request: LoadRequest): Promise<LoadResult> {
    return new Promise((resolve, reject) => {
      this.child.once('message', (answer: LoadResult | { error: string }) => ('error' in answer ? reject(new Error(answer.error)) : resolve(answer)));
      this.child.send(request);
    });
  }

  stop(): void {
    this.child.disconnect();
  }
}

/** One measurement of `urls`, with the CPU each party used during it. */
async function sample(load: LoadGenerator, servers: number[], urls: string[], headers: Record<string, string>, durationSeconds: number): Promise<CaseSample> {
  const serversBefore = treeCpuSeconds(servers);
  const machineBefore = machineCpuSeconds();
  const started = process.hrtime.bigint();
  const result = await load.run({ urls, headers, connections: CONNECTIONS, durationSeconds });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const serversAfter = treeCpuSeconds(servers);
  const machineAfter = machineCpuSeconds();
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${urls.join(', ')}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return {
    requestsPerSecond: result.requestsPerSecond,
    serverCores: serversAfter.map((after, i) => round((after - (serversBefore[i] ?? 0)) / seconds)),
    loadGeneratorCores: round(result.cpuSeconds / seconds),
    machineBusyCores: round((machineAfter.busy - machineBefore.busy) / seconds),
  };
}

function summary(samples: CaseSample[]): Record<string, unknown> {
  const rps = median(samples.map((s) => s.requestsPerSecond));
  const serverCores = median(samples.map((s) => s.serverCores.reduce((a, b) => a + b, 0)));
  const loadGeneratorCores = median(samples.map((s) => s.loadGeneratorCores));
  const machineBusyCores = median(samples.map((s) => s.machineBusyCores));
  return {
    reqPerSec: samples.map((s) => Math.round(s.requestsPerSecond)),
    medianReqPerSec: Math.round(rps),
    serverCoresPerRound: samples.map((s) => s.serverCores),
    medianServerCores: round(serverCores),
    medianLoadGeneratorCores: loadGeneratorCores,
    medianMachineBusyCores: machineBusyCores,
    // Everything else on the machine (PostgreSQL, other work) during the measurement.
    medianOtherCores: round(Math.max(0, machineBusyCores - serverCores - loadGeneratorCores)),
    // Requests per CPU-second of the servers: equal in both cases means the processes scale with the cores they get.
    reqPerServerCpuSecond: Math.round(rps / Math.max(serverCores, 0.01)),
  };
}

/**
 * What the cores allow on this machine with nothing else running, from the CPU each request cost in the two-process
 * rounds: the servers' CPU seconds per request (s) and the load generator's (l). One process runs its JavaScript on
 * one thread, so it serves at most 1/s, two at most 2/s, and all together at most cores/(s + l), since the load
 * generator needs its share of the same cores. The ratio of the two is 2/(1 + l/s) on 2 cores when one process is
 * thread-bound. PostgreSQL is left out: a cached lookup does not touch it (the usage ledger is written in batches).
 */
function ceiling(samples: CaseSample[]): Record<string, number> {
  const rps = median(samples.map((x) => x.requestsPerSecond));
  const s = median(samples.map((x) => x.serverCores.reduce((a, b) => a + b, 0))) / rps;
  const l = median(samples.map((x) => x.loadGeneratorCores)) / rps;
  const cores = os.availableParallelism();
  const one = Math.min(1 / s, cores / (s + l));
  const many = Math.min(2 / s, cores / (s + l));
  return { serverCpuMicrosecondsPerRequest: round(s * 1e6, 1), loadGeneratorCpuMicrosecondsPerRequest: round(l * 1e6, 1), oneProcessReqPerSec: Math.round(one), twoProcessesReqPerSec: Math.round(many), ratio: round(many / one, 3) };
}

async function measureOn(db: SharedDatabase, options: FleetThroughputOptions): Promise<Record<string, unknown>> {
  const firstPort = options.port ?? 18811;
  const ports = [firstPort, firstPort + 1];
  note(BENCH, 'seeding (a new store loads the embedded reference data first)');
  const key = await seed(db.env);
  const headers = { authorization: `Bearer ${key}` };
  const servers: ChildProcess[] = [];
  let load: LoadGenerator | null = null;
  try {
    for (const port of ports) {
      // The real program, request logging on (to a drained pipe), as in bench/run.ts; API only, no worker pool.
      servers.push(await startBrandbaseReady(['serve', '--no-worker'], { ...db.env, HOST: '127.0.0.1', PORT: String(port) }, 'brandbase is serving'));
    }
    await Promise.all(ports.map((port) => waitForHttp(`http://127.0.0.1:${port}/healthz`)));
    const urls = ports.map((port) => `http://127.0.0.1:${port}/v2/brands/${DOMAIN}`);
    for (const url of urls) {
      const first = await fetch(url, { headers });
      if (first.status !== 200) throw new Error(`warm-up lookup on ${url} answered ${first.status}: ${await first.text()}`);
    }
    load = await LoadGenerator.start();
    note(BENCH, 'servers up, warming up');
    const pids = servers.map((s) => s.pid as number);
    await sample(load, pids, urls, headers, Math.min(3, options.durationSeconds));
    const one: CaseSample[] = [];
    const two: CaseSample[] = [];
    for (let r = 0; r < options.rounds; r++) {
      // Alternate the order, so the machine's drift falls on both cases alike.
      const order = r % 2 === 0 ? (['one', 'two'] as const) : (['two', 'one'] as const);
      for (const which of order) {
        const measured = await sample(load, pids, which === 'one' ? urls.slice(0, 1) : urls, headers, options.durationSeconds);
        (which === 'one' ? one : two).push(measured);
        note(BENCH, `round ${r + 1} ${which}: ${Math.round(measured.requestsPerSecond)} req/s, servers ${measured.serverCores.join(' + ')} cores, load generator ${measured.loadGeneratorCores}, machine ${measured.machineBusyCores}`);
      }
    }
    const ratio = median(two.map((s) => s.requestsPerSecond)) / median(one.map((s) => s.requestsPerSecond));
    // The CPU the servers got with two against one: when it tracks the request ratio, CPU share is what bounds it.
    const serverCores = (samples: CaseSample[]): number => median(samples.map((s) => s.serverCores.reduce((a, b) => a + b, 0)));
    const serverCpuRatio = serverCores(two) / Math.max(serverCores(one), 0.01);
    return { oneProcess: summary(one), twoProcesses: summary(two), ratio: round(ratio, 3), serverCpuRatio: round(serverCpuRatio, 3), idleMachineCeiling: ceiling(two), target: 1.6, pass: ratio >= 1.6 };
  } finally {
    load?.stop();
    await Promise.all(servers.map(stopProcess));
  }
}

/** PostgreSQL only (the fleet's store); reported as skipped when no server answers at BENCH_PG_URL. */
export async function benchFleetThroughput(options: FleetThroughputOptions): Promise<Record<string, unknown>> {
  const pgUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const header = {
    benchmark: 'cached GET /v2/brands/{domain}: two `brandbase serve --no-worker` processes (round robin) vs one, PostgreSQL store',
    cores: os.availableParallelism(),
    ownSessions: ownSessions(),
    connections: CONNECTIONS,
    durationSeconds: options.durationSeconds,
    rounds: options.rounds,
  };
  if (!(await postgresReachable(pgUrl))) return { ...header, skipped: `no PostgreSQL at ${pgUrl}` };
  const loadBefore = loadAverage();
  const db = await sharedPostgres(pgUrl);
  try {
    const result = await measureOn(db, options);
    return { ...header, loadAverageBefore: loadBefore, loadAverageAfter: loadAverage(), ...result };
  } finally {
    await db.cleanup();
  }
}

// `node --import tsx bench/fleet-throughput.ts`: this benchmark alone (after `npm run build`).
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const report = await benchFleetThroughput({ durationSeconds: Number(process.env.BENCH_DURATION ?? 8), rounds: Number(process.env.BENCH_ROUNDS ?? 3) });
  console.log(JSON.stringify(report, null, 2));
}
