/**
 * Logo CDN throughput for a cached variant (issue 20, docs/performance.md): a real `brandbase serve` process with
 * the CDN on its own port (BRANDBASE_CDN_PORT) answering `GET /{domain}/w/128.png?c=CLIENT_ID` — grammar, client-ID
 * gate (rate limits on, set above what the load reaches, as the API's limiter is in bench/run.ts), brand lookup,
 * variant from memory — against `@fastify/static` serving the same bytes from a file under the same path
 * (bench/static-server.ts). Same load generator (autocannon), alternating rounds, in the same run; once on SQLite
 * and once on PostgreSQL (BENCH_PG_URL, default the local server; skipped when none answers).
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import sharp from 'sharp';
import { loadConfig } from '../src/config/config.js';
import { createServices } from '../src/main/services.js';
import { silentLogger } from '../src/platform/logger.js';
import { sampleBrand } from '../test/store/sample-brand.js';
import { sharedPostgres, sharedSqlite, type SharedDatabase } from '../test/helpers/shared-database.js';
import { waitForHttp } from './fleet-processes.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const DOMAIN = 'bench-logo.test';
const VARIANT_PATH = `/${DOMAIN}/w/128.png`;
const CONNECTIONS = 32;

export interface LogoCdnBenchOptions {
  durationSeconds: number;
  rounds: number;
  cdnPort?: number;
  staticPort?: number;
}

async function load(url: string, durationSeconds: number): Promise<number> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: durationSeconds, pipelining: 1 });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

/** Progress on stderr (the report is the JSON on stdout). */
function note(message: string): void {
  process.stderr.write(`logo-cdn bench: ${message}\n`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** A 512×512 gradient with an alpha edge: a logo-sized original whose 128 px variant is not trivially small. */
async function sourceLogo(): Promise<Buffer> {
  const side = 512;
  const raw = Buffer.alloc(side * side * 4);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const o = (y * side + x) * 4;
      raw[o] = x >> 1;
      raw[o + 1] = y >> 1;
      raw[o + 2] = 160;
      raw[o + 3] = x < 16 || y < 16 ? 0 : 255;
    }
  }
  return sharp(raw, { raw: { width: side, height: side, channels: 4 } }).png().toBuffer();
}

/** The brand (one icon) and a client ID written to the store the server will read; returns the client ID. */
async function seed(env: Record<string, string>): Promise<string> {
  const services = await createServices(loadConfig(env), silentLogger());
  try {
    const stored = await services.assets.put(await sourceLogo(), 'png');
    const icon = { theme: null, type: 'icon' as const, tags: [], formats: [{ src: stored.key, format: 'png' as const, width: 512, height: 512, size: stored.size, background: null }] };
    const brand = sampleBrand(DOMAIN, { name: 'Bench Logo', logos: [icon] });
    const now = new Date();
    await services.stores.brands.saveBrand({ brand, status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: DOMAIN }]);
    const org = await services.accounts.createOrganization({ name: 'bench', plan: 'paid' });
    return (await services.clientIds.create(org.id)).id;
  } finally {
    await services.close();
  }
}

async function postgresReachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

async function measureOn(db: SharedDatabase, options: LogoCdnBenchOptions): Promise<Record<string, unknown>> {
  const cdnPort = options.cdnPort ?? 18795;
  const staticPort = options.staticPort ?? 18796;
  const env: Record<string, string> = {
    ...db.env,
    HOST: '127.0.0.1',
    PORT: String(cdnPort + 10),
    BRANDBASE_CDN_PORT: String(cdnPort),
    BRANDBASE_WORKER_CONCURRENCY: '0',
    // Limits on, as in production, never reached by the load (a 429 would fail the run).
    BRANDBASE_LOGO_RATE_PER_CLIENT_ID: '1000000000',
    BRANDBASE_LOGO_RATE_PER_IP: '1000000000',
    BRANDBASE_LOGO_ALLOWANCE_PAID: '1000000000',
  };
  note(`${db.backend}: seeding`);
  const clientId = await seed(env);
  note(`${db.backend}: seeded, starting brandbase serve`);
  const children: ChildProcess[] = [];
  const folder = await mkdtemp(path.join(tmpdir(), 'brandbase-bench-static-'));
  try {
    const server = spawn(process.execPath, [path.join(ROOT, 'bin/brandbase.js'), 'serve'], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
    children.push(server);
    const cdnUrl = `http://127.0.0.1:${cdnPort}${VARIANT_PATH}?c=${clientId}`;
    await waitForHttp(`http://127.0.0.1:${cdnPort + 10}/healthz`);
    note(`${db.backend}: server up`);
    const first = await fetch(cdnUrl);
    if (first.status !== 200 || first.headers.get('x-bf-fallback') !== null) throw new Error(`CDN warm-up answered ${first.status} ${first.headers.get('x-bf-fallback') ?? ''}`);
    const bytes = Buffer.from(await first.arrayBuffer());
    await mkdir(path.join(folder, DOMAIN, 'w'), { recursive: true });
    await writeFile(path.join(folder, VARIANT_PATH), bytes);
    const baseline = fork(path.join(ROOT, 'bench/static-server.ts'), [folder, String(staticPort)], { execArgv: ['--import', 'tsx'], stdio: 'ignore' });
    children.push(baseline);
    const staticUrl = `http://127.0.0.1:${staticPort}${VARIANT_PATH}`;
    await waitForHttp(staticUrl);
    note(`${db.backend}: @fastify/static up, measuring`);
    const same = Buffer.from(await (await fetch(staticUrl)).arrayBuffer());
    if (!same.equals(bytes)) throw new Error('the static baseline does not serve the same bytes');
    await load(cdnUrl, Math.min(2, options.durationSeconds)); // warm both
    await load(staticUrl, Math.min(2, options.durationSeconds));
    const cdn: number[] = [];
    const fastifyStatic: number[] = [];
    for (let round = 0; round < options.rounds; round++) {
      fastifyStatic.push(await load(staticUrl, options.durationSeconds));
      cdn.push(await load(cdnUrl, options.durationSeconds));
    }
    const ratio = median(cdn) / median(fastifyStatic);
    return { backend: db.backend, bodyBytes: bytes.length, cdnReqPerSec: cdn.map(Math.round), staticReqPerSec: fastifyStatic.map(Math.round), ratio: Number(ratio.toFixed(3)) };
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)))));
    await rm(folder, { recursive: true, force: true });
  }
}

/** Both backends; PostgreSQL is reported as skipped when no server answers at BENCH_PG_URL. */
export async function benchLogoCdn(options: LogoCdnBenchOptions): Promise<Record<string, unknown>> {
  const sqlite = await sharedSqlite();
  let onSqlite: Record<string, unknown>;
  try {
    onSqlite = await measureOn(sqlite, options);
  } finally {
    await sqlite.cleanup();
  }
  const pgUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  let onPostgres: Record<string, unknown> = { skipped: `no PostgreSQL at ${pgUrl}` };
  if (await postgresReachable(pgUrl)) {
    const postgres = await sharedPostgres(pgUrl);
    try {
      onPostgres = await measureOn(postgres, options);
    } finally {
      await postgres.cleanup();
    }
  }
  return {
    benchmark: `cached logo CDN variant (GET ${VARIANT_PATH}?c=…) vs @fastify/static serving the same bytes`,
    connections: CONNECTIONS,
    durationSeconds: options.durationSeconds,
    rounds: options.rounds,
    sqlite: onSqlite,
    postgres: onPostgres,
  };
}

// `node --import tsx bench/logo-cdn.ts`: this benchmark alone (after `npm run build`).
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const report = await benchLogoCdn({ durationSeconds: Number(process.env.BENCH_DURATION ?? 8), rounds: Number(process.env.BENCH_ROUNDS ?? 3) });
  console.log(JSON.stringify(report, null, 2));
}
