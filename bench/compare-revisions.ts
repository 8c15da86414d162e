/**
 * The cached lookup of two revisions in one run: `git worktree` checks the base revision out next to this one
 * (sharing this checkout's node_modules), both run as real `brandbase serve` processes on their own data
 * folders, and autocannon loads the bare Fastify baseline, the base and this tree in alternation, round after
 * round, so machine drift falls on all three alike. Prints each one's ratio against the baseline.
 *
 *   node --import tsx bench/compare-revisions.ts --base 17d292c     (also: npm run bench -- --base REV)
 */
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { FIXTURE_HOSTS, startFixtureSites } from '../test/helpers/fixture-sites.js';
import { checkoutRelease } from '../test/helpers/release-tree.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const DURATION_S = Number(process.env.BENCH_DURATION ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 32;

interface Served {
  name: string;
  url: string;
  headers: Record<string, string>;
  rates: number[];
}

async function waitForHttp(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${url}`);
}

async function load(target: Served): Promise<number> {
  const result = await autocannon({ url: target.url, headers: target.headers, connections: CONNECTIONS, duration: DURATION_S, pipelining: 1 });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${target.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

function cli(tree: string, env: NodeJS.ProcessEnv, args: string[]): Record<string, unknown> {
  const out = execFileSync(process.execPath, [path.join(tree, 'bin/brandbase.js'), ...args, '--json'], { env, cwd: tree, encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
}

/** Starts `brandbase serve` from `tree` with a fresh data folder, an unthrottled key, and the brand crawled once. */
async function serveTree(name: string, tree: string, port: number, hostMap: Record<string, string>, children: ChildProcess[]): Promise<{ served: Served; dataDir: string; body: Buffer }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), `brandbase-compare-${name}-`));
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', BRANDBASE_DATA_DIR: dataDir, BRANDBASE_CRAWL_HOSTS: JSON.stringify(hostMap), BRANDBASE_PUBLIC_URL: 'http://127.0.0.1:18000' };
  const org = cli(tree, env, ['orgs', 'create', '--name', 'bench', '--plan', 'paid']);
  const orgId = String(org.id);
  cli(tree, env, ['orgs', 'set-quota', orgId, '1000000000']);
  // The rate limiter stays on, as in production, with a limit the load never reaches.
  cli(tree, env, ['orgs', 'set-rate-limit', orgId, '1000000000']);
  const key = String(cli(tree, env, ['keys', 'create', '--org', orgId]).key);
  const server = spawn(process.execPath, [path.join(tree, 'bin/brandbase.js'), 'serve'], { env, cwd: tree, stdio: ['ignore', 'ignore', 'inherit'] });
  children.push(server);
  await waitForHttp(`http://127.0.0.1:${port}/healthz`);
  const served: Served = { name, url: `http://127.0.0.1:${port}/v2/brands/${FIXTURE_HOSTS.northwind}`, headers: { authorization: `Bearer ${key}` }, rates: [] };
  const first = await fetch(served.url, { headers: served.headers });
  if (first.status !== 200) throw new Error(`${name}: warm-up lookup answered ${first.status}`);
  return { served, dataDir, body: Buffer.from(await first.arrayBuffer()) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

export async function compareRevisions(base: string): Promise<Record<string, unknown>> {
  const release = await checkoutRelease(base);
  const { sha: baseSha, dir: tree } = release;
  const sites = await startFixtureSites();
  const children: ChildProcess[] = [];
  const folders: string[] = [];
  try {
    const baseRun = await serveTree('base', tree, 18791, sites.hostMap, children);
    const headRun = await serveTree('head', ROOT, 18792, sites.hostMap, children);
    folders.push(baseRun.dataDir, headRun.dataDir);
    // The baseline answers this tree's bytes (the two answers differ only in asset URLs' host, same length).
    const bodyFile = path.join(headRun.dataDir, 'body.json');
    await writeFile(bodyFile, headRun.body);
    children.push(fork(path.join(ROOT, 'bench/bare-server.ts'), [bodyFile, '18793'], { execArgv: ['--import', 'tsx'], stdio: 'ignore' }));
    const bare: Served = { name: 'bare', url: `http://127.0.0.1:18793/v2/brands/${FIXTURE_HOSTS.northwind}`, headers: {}, rates: [] };
    await waitForHttp(bare.url);
    const all = [bare, baseRun.served, headRun.served];
    for (const target of all) await load(target); // warm-up, not measured
    for (let round = 0; round < ROUNDS; round++) for (const target of round % 2 ? [...all].reverse() : all) target.rates.push(await load(target));
    const ratio = (t: Served) => Number((median(t.rates) / median(bare.rates)).toFixed(3));
    return {
      benchmark: 'cached GET /v2/brands/{domain}: base revision and this tree against bare Fastify, alternating',
      base: baseSha,
      rounds: ROUNDS,
      durationSeconds: DURATION_S,
      reqPerSec: Object.fromEntries(all.map((t) => [t.name, t.rates.map(Math.round)])),
      ratioBase: ratio(baseRun.served),
      ratioHead: ratio(headRun.served),
      headOverBase: Number((median(headRun.served.rates) / median(baseRun.served.rates)).toFixed(3)),
    };
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await sites.close();
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
    release.remove();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const at = process.argv.indexOf('--base');
  const base = at > 0 ? process.argv[at + 1] : undefined;
  if (!base) throw new Error('usage: compare-revisions.ts --base REV');
  console.log(JSON.stringify(await compareRevisions(base), null, 2));
}
