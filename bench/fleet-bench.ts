/**
 * The fleet figures of issue 22 together (docs/performance.md "Fleet"): requests per second through two API
 * processes against one (bench/fleet-throughput.ts) and crawl throughput with two worker processes against one
 * (bench/fleet-crawl.ts), both on PostgreSQL. `npm run bench -- --fleet` runs only these; the full run includes them.
 */
import { benchFleetCrawl } from './fleet-crawl.js';
import { benchFleetThroughput } from './fleet-throughput.js';

export async function benchFleet(options: { durationSeconds: number; rounds: number }): Promise<Record<string, unknown>> {
  const throughput = await benchFleetThroughput(options);
  const crawl = await benchFleetCrawl({
    // Each case crawls the whole corpus into a fresh schema (a minute or more on a loaded machine): one pair by default.
    rounds: Number(process.env.BENCH_FLEET_CRAWL_ROUNDS ?? 1),
    concurrency: Number(process.env.BENCH_FLEET_CONCURRENCY ?? 2),
    latencyMs: Number(process.env.BENCH_FLEET_LATENCY_MS ?? 50),
    warmupSites: Number(process.env.BENCH_FLEET_WARMUP_SITES ?? 24),
  });
  return { throughput, crawl };
}
