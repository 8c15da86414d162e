/**
 * Two revisions in one run (issues 12, 30 and 31: "not slower than before"): `git worktree` checks the base revision
 * out next to this one (sharing this checkout's node_modules), both run as real `brandbase serve` processes on their
 * own data folders, and four measurements take turns between them, round after round, the order reversed every
 * other round so machine drift falls on both alike:
 *   1. the cached keyed lookup (autocannon; a bare Fastify route answering the same bytes takes its turn too);
 *   2. a paid lookup: x402 on the embedded ledger, a fresh payment per request (bench/revision-paid-lookup.ts);
 *   3. crawls: live lookups of domains never seen, served by the loopback fixture sites (bench/revision-crawl.ts);
 *   4. webhook delivery: from a brand change to the signed POST at a loopback receiver (bench/revision-webhook.ts).
 * Every measurement talks to a tree through its CLI (`node <tree>/bin/brandbase.js ...`) and HTTP only, never its
 * src/, because the two trees' source layouts differ. Prints per-round figures and head/base ratios as JSON.
 *
 *   node --import tsx bench/compare-revisions.ts [--base REV]     (default: PREVIOUS_RELEASE; also npm run bench -- --base REV)
 */
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { FIXTURE_HOSTS, startFixtureSites, type FixtureSites } from '../test/helpers/fixture-sites.js';
import { buildIfBuilt, checkoutRelease, PREVIOUS_RELEASE } from '../test/helpers/release-tree.js';
import { brandbase, median, percentile, treeUrl, type RevisionTree } from './revision-cli.js';
import { CRAWL_BRANDS, CRAWL_CONCURRENCY, CRAWL_SITES, crawlDomains, crawlHostMap, crawlRun } from './revision-crawl.js';
import { PAID_CONCURRENCY, PAID_REQUESTS, preparePaidLookup, type PaidLookup } from './revision-paid-lookup.js';
import { setUpWebhook, startChangingSites, startReceiver, WEBHOOK_BRANDS, webhookDomains, webhookRun, type ChangingSites, type Receiver } from './revision-webhook.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const DURATION_S = Number(process.env.BENCH_DURATION ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/**
 * BENCH_ONLY=cached: only the cached keyed lookup, more rounds for the same time (its turns are seconds, the others'
 * minutes), to settle a noisy cached ratio; the paid, crawl and webhook figures are then left out of the report.
 */
const ONLY_CACHED = process.env.BENCH_ONLY === 'cached';
const CONNECTIONS = 32;
const CACHED_PATH = `/v2/brands/${FIXTURE_HOSTS.northwind}`;
const TREES = ['base', 'head'] as const;
const STARTED = performance.now();

/** Progress on stderr (the JSON goes to stdout): a run takes minutes, more on a busy machine. */
function progress(message: string): void {
  process.stderr.write(`[compare-revisions ${((performance.now() - STARTED) / 1000).toFixed(0)} s] ${message}\n`);
}

interface Figures {
  cached: number[];
  paid: number[];
  crawl: number[];
  webhookMedianMs: number[];
  webhookP90Ms: number[];
}

interface Side {
  tree: RevisionTree;
  headers: Record<string, string>;
  /** The warm-up lookup's bytes (the bare baseline answers them). */
  body: Buffer;
  paid: PaidLookup;
  receiver: Receiver;
  figures: Figures;
}

async function waitForHttp(url: string): Promise<void> {
  // Up to 60 s: a new store loads the embedded reference data first, slow on a loaded machine.
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${url}`);
}

async function load(name: string, url: string, headers: Record<string, string>): Promise<number> {
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_S, pipelining: 1 });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

/** Every host either tree may reach: the fixture sites, the fresh crawl domains, the webhook brands and receivers. */
function hostMapFor(sites: FixtureSites, changing: ChangingSites, receivers: Record<string, Receiver>): Record<string, string> {
  const labels = ['warm', ...Array.from({ length: ROUNDS }, (_, r) => String(r))];
  const crawl = TREES.flatMap((tree) => labels.flatMap((label) => crawlDomains(tree, label)));
  const webhooks = TREES.flatMap((tree) => webhookDomains(tree));
  return {
    ...sites.hostMap,
    ...crawlHostMap(sites, crawl),
    ...Object.fromEntries(webhooks.map((domain) => [domain, changing.address])),
    ...Object.fromEntries(Object.values(receivers).map((r) => [r.host, r.address])),
  };
}

/**
 * Starts `brandbase serve` of `tree` on a fresh data folder with a paid organization (quota and rate limit the load
 * never reaches, the limiter on as in production), its key, the webhook brands and their webhook, and the cached
 * brand crawled once.
 */
async function serveSide(tree: RevisionTree, receiver: Receiver, children: ChildProcess[]): Promise<Side> {
  progress(`${tree.name}: organization, key, ${WEBHOOK_BRANDS} webhook brands and their webhook`);
  const orgId = String((await brandbase(tree, ['orgs', 'create', '--name', 'bench', '--plan', 'paid'])).id);
  await brandbase(tree, ['orgs', 'set-quota', orgId, '1000000000']);
  await brandbase(tree, ['orgs', 'set-rate-limit', orgId, '1000000000']);
  const key = String((await brandbase(tree, ['keys', 'create', '--org', orgId])).key);
  await setUpWebhook(tree, orgId, receiver, webhookDomains(tree.name));
  const server = spawn(process.execPath, [path.join(tree.dir, 'bin/brandbase.js'), 'serve'], { env: tree.env, cwd: tree.dir, stdio: ['ignore', 'ignore', 'inherit'] });
  children.push(server);
  progress(`${tree.name}: serve`);
  await waitForHttp(treeUrl(tree, '/healthz'));
  const headers = { authorization: `Bearer ${key}` };
  const first = await fetch(treeUrl(tree, CACHED_PATH), { headers });
  if (first.status !== 200) throw new Error(`${tree.name}: warm-up lookup answered ${first.status}`);
  const body = Buffer.from(await first.arrayBuffer());
  const paid = await preparePaidLookup(tree, CACHED_PATH, ROUNDS + 1);
  return { tree, headers, body, paid, receiver, figures: { cached: [], paid: [], crawl: [], webhookMedianMs: [], webhookP90Ms: [] } };
}

/** One turn of each measurement on one side; `label` names the crawl domains (a round, or `warm`). */
async function crawlAndDeliver(side: Side, label: string, record: boolean): Promise<void> {
  const crawl = await crawlRun(side.tree, side.headers, crawlDomains(side.tree.name, label));
  const latencies = await webhookRun(side.tree, side.receiver, webhookDomains(side.tree.name));
  if (!record) return;
  side.figures.crawl.push(crawl);
  side.figures.webhookMedianMs.push(median(latencies));
  side.figures.webhookP90Ms.push(percentile(latencies, 0.9));
}

const ratio = (head: number[], base: number[]): number => Number((median(head) / median(base)).toFixed(3));
const rounded = (values: number[], digits = 0): number[] => values.map((v) => Number(v.toFixed(digits)));

function report(baseSha: string, bare: number[], base: Side, head: Side): Record<string, unknown> {
  const full = fullReport(baseSha, bare, base, head);
  if (!ONLY_CACHED) return full;
  const { benchmark, base: baseRev, head: headRev, rounds, loadAverage, cachedLookup } = full;
  return { benchmark, only: 'cached (BENCH_ONLY=cached)', base: baseRev, head: headRev, rounds, loadAverage, cachedLookup };
}

function fullReport(baseSha: string, bare: number[], base: Side, head: Side): Record<string, unknown> {
  const [b, h] = [base.figures, head.figures];
  return {
    benchmark: 'base revision and this tree through their CLI and HTTP interfaces, alternating rounds (order reversed every other round)',
    base: baseSha,
    head: execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim(),
    rounds: ROUNDS,
    loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))),
    cachedLookup: {
      what: `cached GET ${CACHED_PATH} with an API key, autocannon, ${CONNECTIONS} connections, ${DURATION_S} s a turn; bare Fastify answering the same bytes`,
      unit: 'requests/s',
      bare: rounded(bare),
      base: rounded(b.cached),
      head: rounded(h.cached),
      ratioBase: ratio(b.cached, bare),
      ratioHead: ratio(h.cached, bare),
      headOverBase: ratio(h.cached, b.cached),
    },
    paidLookup: {
      what: `cached GET ${CACHED_PATH} paid per request with x402 (embedded ledger, a fresh payment each), ${PAID_REQUESTS} requests a turn, ${PAID_CONCURRENCY} at a time`,
      unit: 'requests/s',
      base: rounded(b.paid),
      head: rounded(h.paid),
      headOverBase: ratio(h.paid, b.paid),
    },
    crawl: {
      what: `live lookups of ${CRAWL_BRANDS} domains never seen (fixture sites ${CRAWL_SITES.join(', ')}), ${CRAWL_CONCURRENCY} at a time`,
      unit: 'brands/s',
      base: rounded(b.crawl, 2),
      head: rounded(h.crawl, 2),
      headOverBase: ratio(h.crawl, b.crawl),
    },
    webhookDelivery: {
      what: `${WEBHOOK_BRANDS} subscribed brands changed by \`brandbase crawl --refresh\`; each delivery's arrival at the receiver less its event timestamp (the save)`,
      unit: 'ms, median of the turn (lower is faster)',
      base: rounded(b.webhookMedianMs),
      head: rounded(h.webhookMedianMs),
      p90Ms: { base: rounded(b.webhookP90Ms), head: rounded(h.webhookP90Ms) },
      headOverBase: ratio(h.webhookMedianMs, b.webhookMedianMs),
    },
    // One reading for all four: 1 is as fast as the base, above 1 faster, below 1 slower.
    headSpeed: {
      cachedLookup: ratio(h.cached, b.cached),
      paidLookup: ratio(h.paid, b.paid),
      crawl: ratio(h.crawl, b.crawl),
      webhookDelivery: ratio(b.webhookMedianMs, h.webhookMedianMs),
    },
  };
}

async function measure(baseSha: string, sides: Side[], changing: ChangingSites, children: ChildProcess[], folder: string): Promise<Record<string, unknown>> {
  const [base, head] = sides as [Side, Side];
  // The baseline answers this tree's bytes (the two answers differ only in asset URLs' host, same length).
  const bodyFile = path.join(folder, 'body.json');
  await writeFile(bodyFile, head.body);
  children.push(fork(path.join(ROOT, 'bench/bare-server.ts'), [bodyFile, '18793'], { execArgv: ['--import', 'tsx'], stdio: 'ignore' }));
  const bareUrl = `http://127.0.0.1:18793${CACHED_PATH}`;
  await waitForHttp(bareUrl);
  const bare: number[] = [];
  // Warm-up, not measured: every measurement once on each side.
  await load('bare', bareUrl, {});
  changing.generation = 1;
  for (const side of sides) {
    progress(`${side.tree.name}: warm-up`);
    await load(side.tree.name, treeUrl(side.tree, CACHED_PATH), side.headers);
    if (ONLY_CACHED) continue;
    await side.paid.run();
    await crawlAndDeliver(side, 'warm', false);
  }
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? [head, base] : [base, head];
    progress(`round ${round + 1} of ${ROUNDS}: ${order.map((s) => s.tree.name).join(', ')}`);
    // The bare route takes its turn first, or last when the order is reversed.
    if (round % 2 === 0) bare.push(await load('bare', bareUrl, {}));
    for (const side of order) side.figures.cached.push(await load(side.tree.name, treeUrl(side.tree, CACHED_PATH), side.headers));
    if (round % 2 === 1) bare.push(await load('bare', bareUrl, {}));
    if (ONLY_CACHED) continue;
    for (const side of order) side.figures.paid.push(await side.paid.run());
    changing.generation = round + 2;
    for (const side of order) await crawlAndDeliver(side, String(round), true);
  }
  return report(baseSha, bare, base, head);
}

/** SIGTERM, then waits for the exit (a data folder is removed only after its server let it go). */
async function stop(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map((child) => {
      if (child.exitCode !== null || child.signalCode !== null) return undefined;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      return Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 30_000).unref())]);
    }),
  );
}

export async function compareRevisions(baseRevision: string): Promise<Record<string, unknown>> {
  progress(`checking out and building ${baseRevision}`);
  const release = await checkoutRelease(baseRevision);
  const sites = await startFixtureSites();
  const changing = await startChangingSites();
  const receivers = { base: await startReceiver('hooks-base.bench'), head: await startReceiver('hooks-head.bench') };
  const hostMap = JSON.stringify(hostMapFor(sites, changing, receivers));
  const children: ChildProcess[] = [];
  const folders: string[] = [];
  try {
    const sides: Side[] = [];
    for (const [i, name] of TREES.entries()) {
      const dataDir = await mkdtemp(path.join(tmpdir(), `brandbase-compare-${name}-`));
      folders.push(dataDir);
      const port = 18791 + i;
      const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', BRANDBASE_DATA_DIR: dataDir, BRANDBASE_CRAWL_HOSTS: hostMap, BRANDBASE_PUBLIC_URL: 'http://127.0.0.1:18000' };
      const tree: RevisionTree = { name, dir: name === 'base' ? release.dir : ROOT, port, env };
      sides.push(await serveSide(tree, receivers[name], children));
    }
    return await measure(release.sha, sides, changing, children, folders[1] ?? tmpdir());
  } finally {
    await stop(children);
    await Promise.all([sites.close(), changing.close(), receivers.base.close(), receivers.head.close()]);
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
    release.remove();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const at = process.argv.indexOf('--base');
  const base = at > 0 ? process.argv[at + 1] : PREVIOUS_RELEASE;
  if (!base) throw new Error('usage: compare-revisions.ts [--base REV]');
  // `npm run bench` builds this tree first; alone, build it here so the served program is this tree's sources.
  buildIfBuilt(ROOT);
  console.log(JSON.stringify(await compareRevisions(base), null, 2));
}
