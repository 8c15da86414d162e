/**
 * GraphQL cost limits under attack (issue 33, docs/security.md "GraphQL cost"): a real `brandbase serve` process on a
 * fresh SQLite store with one paid organization holding 100 webhooks. `/healthz` latency is sampled at rest, then
 * while one request aliasing `webhooks → deliveries` BENCH_ALIASES (50) times is sent with the default limits
 * (BRANDBASE_GRAPHQL_MAX_COST, BRANDBASE_GRAPHQL_COST_PER_MINUTE: the query is refused before it runs), then 20 times
 * (the most root fields a request may have, a constant) with the cost limits lifted, which runs it as before issue
 * 33. Prints a JSON report on stdout, progress on stderr. Part of `npm run bench -- --attacks`.
 *
 * `node --import tsx bench/attacks/graphql-cost.ts` (runs the TypeScript sources; no build needed).
 * BENCH_ALIASES: aliases in the refused attack (default 50); BENCH_SKIP_UNBOUNDED=1: only the default limits.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { loadConfig } from '../../src/config/config.js';
import { createServices } from '../../src/main/services.js';
import { silentLogger } from '../../src/platform/logger.js';
import { sharedSqlite, type SharedDatabase } from '../../test/helpers/shared-database.js';
import { median, note as noteFor, round, waitForHttp } from '../fleet-processes.js';
import { peakMb } from '../../test/helpers/health-probe.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const WEBHOOKS = 100;
const SAMPLE_EVERY_MS = 50;
const BASELINE_SAMPLES = 40;
const note = (message: string): void => noteFor('graphql-cost bench', message);

function attackQuery(aliases: number): string {
  return `{ ${Array.from({ length: aliases }, (_, i) => `a${i}: webhooks { edges { node { id deliveries { edges { node { id } } } } } }`).join(' ')} }`;
}

/** One organization with 100 webhooks, written before the server starts; returns its API key. */
async function seed(env: Record<string, string>): Promise<string> {
  // More webhooks than an organization may create (BRANDBASE_WEBHOOKS_PER_ORG, 20): the attack as it was measured.
  const services = await createServices(loadConfig({ ...env, BRANDBASE_WEBHOOKS_PER_ORG: String(WEBHOOKS) }), silentLogger());
  try {
    const org = await services.accounts.createOrganization({ name: 'graphql bench', plan: 'paid' });
    for (let i = 0; i < WEBHOOKS; i++) await services.webhooks.create(org, { url: `https://hooks${i}.example.com/in` });
    return (await services.accounts.createApiKey({ orgId: org.id })).key;
  } finally {
    await services.close();
  }
}

async function healthzMs(base: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${base}/healthz`);
  await res.arrayBuffer();
  return performance.now() - started;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function summary(samples: number[]): Record<string, number> {
  return { samples: samples.length, medianMs: round(median(samples)), maxMs: round(Math.max(...samples)) };
}

async function measure(db: SharedDatabase, key: string, port: number, limits: Record<string, string>, aliases: number): Promise<Record<string, unknown>> {
  const env = { ...db.env, HOST: '127.0.0.1', PORT: String(port), BRANDBASE_WORKER_CONCURRENCY: '0', BRANDBASE_WEBHOOK_SENDERS: '0', BRANDBASE_LOG_LEVEL: 'warn', ...limits };
  const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli/main.ts'), 'serve'], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitForHttp(`${base}/healthz`);
    for (let i = 0; i < 5; i++) await healthzMs(base); // warm
    // Warm the GraphQL route too (its first request loads and compiles code paths), with a query too cheap to matter.
    const warm = await fetch(`${base}/graphql`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ webhooks(first: 1) { edges { cursor } } }' }) });
    if (warm.status !== 200) throw new Error(`warm-up query answered ${warm.status}: ${await warm.text()}`);
    const baseline: number[] = [];
    for (let i = 0; i < BASELINE_SAMPLES; i++) {
      baseline.push(await healthzMs(base));
      await pause(SAMPLE_EVERY_MS);
    }
    note(`${JSON.stringify(limits)}: baseline ${JSON.stringify(summary(baseline))}; sending the attack`);
    const started = performance.now();
    let done = false;
    const attack = fetch(`${base}/graphql`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ query: attackQuery(aliases) }) })
      .then(async (res) => ({ status: res.status, body: (await res.text()).slice(0, 300) }))
      .finally(() => {
        done = true;
      });
    const during: number[] = [];
    // At least one sample, even when the answer comes first (a refusal takes milliseconds).
    do {
      during.push(await healthzMs(base));
      await pause(SAMPLE_EVERY_MS);
    } while (!done);
    const answer = await attack;
    const attackMs = performance.now() - started;
    return { limits, aliases, attackStatus: answer.status, attackMs: round(attackMs), attackAnswer: answer.body, healthzAtRest: summary(baseline), healthzDuringAttack: summary(during), serverPeakMb: peakMb(server.pid as number) };
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => (server.exitCode !== null ? resolve(null) : server.once('exit', resolve)));
  }
}

export async function benchGraphqlCost(options: { aliases: number; skipUnbounded: boolean }): Promise<Record<string, unknown>> {
  const db = await sharedSqlite();
  try {
    note('seeding 100 webhooks');
    const key = await seed(db.env);
    const runs = [await measure(db, key, 18_801, {}, options.aliases)];
    if (!options.skipUnbounded) {
      // Lifted cost limits; 20 aliases, the root-field cap (a constant), so that the query runs.
      runs.push(await measure(db, key, 18_802, { BRANDBASE_GRAPHQL_MAX_COST: '1000000000', BRANDBASE_GRAPHQL_COST_PER_MINUTE: '0' }, Math.min(20, options.aliases)));
    }
    return { benchmark: `/healthz latency at rest and during one POST /graphql aliasing webhooks → deliveries over ${WEBHOOKS} webhooks (SQLite)`, runs };
  } finally {
    await db.cleanup();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const report = await benchGraphqlCost({ aliases: Number(process.env.BENCH_ALIASES ?? 50), skipUnbounded: process.env.BENCH_SKIP_UNBOUNDED === '1' });
  console.log(JSON.stringify(report, null, 2));
}
