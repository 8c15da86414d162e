/**
 * What the metrics cost the cached lookup (issue 22 item 4, ADR 0039): the same services behind two Fastify apps in
 * this process, one recording requests (the onResponse hook of http/request-metrics.ts) and one built without
 * metrics; the cache, billing and brand cache counters run in both (they are the services'). autocannon against each
 * in alternating rounds, same run; the figure is requests per second with metrics / without (target ≥ 0.97).
 * Run alone: `node --import tsx bench/metrics-overhead.ts`; or call `benchMetricsOverhead()` (bench/run.ts does).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../src/config/config.js';
import { buildApp } from '../src/http/app.js';
import { appDepsFor } from '../src/main/app-deps.js';
import { createServices } from '../src/main/services.js';
import { silentLogger } from '../src/platform/logger.js';
import { NO_METRICS } from '../src/platform/metrics.js';
import { sampleBrand } from '../test/store/sample-brand.js';

const SECONDS = Number(process.env.BENCH_METRICS_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_METRICS_ROUNDS ?? 3);
const CONNECTIONS = 16;

export interface MetricsOverhead {
  withMetrics: number[];
  without: number[];
  /** Median of with / median of without. */
  ratio: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function rate(url: string, key: string): Promise<number> {
  const result = await autocannon({ url, headers: { authorization: `Bearer ${key}` }, connections: CONNECTIONS, duration: SECONDS, pipelining: 1 });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

export async function benchMetricsOverhead(): Promise<MetricsOverhead> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'brandbase-bench-metrics-'));
  const services = await createServices(loadConfig({ BRANDBASE_DATA_DIR: dataDir, BRANDBASE_REFRESH: 'off', BRANDBASE_PALETTE_RENDER: 'off' }), silentLogger());
  const apps: FastifyInstance[] = [];
  try {
    const now = new Date();
    await services.stores.brands.saveBrand({ brand: sampleBrand('acme.com'), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: 'acme.com' }]);
    const org = await services.accounts.createOrganization({ name: 'bench', plan: 'paid', quota: 1_000_000_000 });
    // The rate limiter stays on, as in production, with a limit the load never reaches (as bench/run.ts does).
    await services.stores.billing.updateOrganization(org.id, { rateLimitPerMinute: 1_000_000_000 });
    const { key } = await services.accounts.createApiKey({ orgId: org.id });
    const on = await buildApp(appDepsFor(services));
    // Off: the null registry (requests pass the same hooks, nothing is recorded or rendered).
    const off = await buildApp({ ...appDepsFor(services), metrics: { registry: NO_METRICS, token: null } });
    apps.push(on, off);
    const [onUrl, offUrl] = await Promise.all([on.listen({ port: 0, host: '127.0.0.1' }), off.listen({ port: 0, host: '127.0.0.1' })]);
    const withMetrics: number[] = [];
    const without: number[] = [];
    // Warm both (JIT, the brand cache) before measuring.
    await rate(`${onUrl}/v2/brands/acme.com`, key);
    await rate(`${offUrl}/v2/brands/acme.com`, key);
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate which goes first, so a machine that slows down during the run does not favour one side.
      if (round % 2 === 0) {
        withMetrics.push(await rate(`${onUrl}/v2/brands/acme.com`, key));
        without.push(await rate(`${offUrl}/v2/brands/acme.com`, key));
      } else {
        without.push(await rate(`${offUrl}/v2/brands/acme.com`, key));
        withMetrics.push(await rate(`${onUrl}/v2/brands/acme.com`, key));
      }
    }
    return { withMetrics, without, ratio: median(withMetrics) / median(without) };
  } finally {
    await Promise.all(apps.map((app) => app.close()));
    await services.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchMetricsOverhead();
  console.log(JSON.stringify(result));
}
