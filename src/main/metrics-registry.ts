import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { CacheCounters } from '../brands/brand-cache.js';
import type { JobQueue } from '../jobs/queue.js';
import { CRAWL_BUCKETS, type CounterMetric, type HistogramMetric, type Labels, type MetricsRegistry } from '../platform/metrics.js';

/**
 * The metrics port over prom-client (ADR 0039). One registry per set of services, not prom-client's global one, so
 * several service sets in one process (tests) never share or collide. Process metrics (memory, event-loop lag, GC)
 * come with prom-client's default collectors, prefixed `brandbase_`.
 */
/**
 * A bound counter's increments, added to prom-client's counter at scrape time: prom-client hashes and validates the
 * labels on every `inc`, even through `labels()`, and the cached lookup counts two series per request.
 */
class PendingCount {
  pending = 0;
  constructor(readonly labels: Partial<Record<string, string>>) {}
  inc(value = 1): void {
    this.pending += value;
  }
}

function boundCounter<L extends string>(registry: Registry, name: string, help: string, labelNames: readonly L[]): { counter: Counter<L>; bound: PendingCount[] } {
  const bound: PendingCount[] = [];
  const counter = new Counter<L>({
    name,
    help,
    labelNames: [...labelNames],
    registers: [registry],
    collect() {
      for (const child of bound) {
        if (child.pending === 0) continue;
        const value = child.pending;
        child.pending = 0;
        this.inc(child.labels as Partial<Record<L, string>>, value);
      }
    },
  });
  return { counter, bound };
}

export function createPromMetrics(): MetricsRegistry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'brandbase_' });
  // Declaring a metric twice (two apps built over the same services, as tests and `buildApp` callers do) gives the
  // first one back: the series keep counting instead of prom-client refusing the name.
  const declared = new Map<string, unknown>();
  const once = <T>(name: string, make: () => T): T => {
    if (!declared.has(name)) declared.set(name, make());
    return declared.get(name) as T;
  };
  return {
    counter<L extends string>(name: string, help: string, labelNames: readonly L[]): CounterMetric<L> {
      const { counter, bound } = once(name, () => boundCounter<L>(registry, name, help, labelNames));
      return {
        inc: (labels: Labels<L>, value = 1) => counter.inc(labels as Partial<Record<L, string>>, value),
        bind: (labels: Labels<L>) => {
          const child = new PendingCount(labels as Partial<Record<string, string>>);
          bound.push(child);
          return child;
        },
      };
    },
    histogram<L extends string>(name: string, help: string, labelNames: readonly L[], buckets: readonly number[]): HistogramMetric<L> {
      const histogram = once(name, () => new Histogram<L>({ name, help, labelNames: [...labelNames], buckets: [...buckets], registers: [registry] }));
      return {
        observe: (labels: Labels<L>, value: number) => histogram.observe(labels as Partial<Record<L, string>>, value),
        bind: (labels: Labels<L>) => histogram.labels(labels as Partial<Record<L, string>>),
      };
    },
    gauge(name: string, help: string, read: () => Promise<number> | number): void {
      if (declared.has(name)) return;
      declared.set(name, new Gauge({
        name,
        help,
        registers: [registry],
        async collect() {
          try {
            this.set(await read());
          } catch {
            // A scrape must not fail because one source is down: /readyz says which one.
            this.set(Number.NaN);
          }
        },
      }));
    },
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

/** The brand cache's hit and miss counters: `brandbase_brand_cache_lookups_total{result}` (hit ratio = hit / all). */
export function brandCacheCounters(metrics: MetricsRegistry): CacheCounters {
  const lookups = metrics.counter('brandbase_brand_cache_lookups_total', 'Brand cache lookups by result (hit or miss); the hit ratio is hit / (hit + miss).', ['result']);
  return { hit: lookups.bind({ result: 'hit' }), miss: lookups.bind({ result: 'miss' }) };
}

/** Crawls this process ran, by outcome (`indexed` or a crawl failure reason), with their durations. */
export function crawlObserver(metrics: MetricsRegistry): (outcome: string, ms: number) => void {
  const crawls = metrics.histogram('brandbase_crawl_duration_seconds', 'Crawls run by this process, by outcome (indexed or the failure reason), in seconds.', ['outcome'], CRAWL_BUCKETS);
  return (outcome, ms) => crawls.observe({ outcome }, ms / 1000);
}

/** Queue depth and the wait of its oldest due job, read from the queue at scrape time (two index reads). */
export function registerQueueGauges(metrics: MetricsRegistry, queue: Pick<JobQueue, 'depth' | 'oldestQueuedAt'>, now: () => number = Date.now): void {
  metrics.gauge('brandbase_queue_depth', 'Jobs queued and not running (all processes: read from the queue).', () => queue.depth());
  metrics.gauge('brandbase_queue_oldest_age_seconds', 'How long the oldest queued job has been due, in seconds (0 when none is).', async () => {
    const oldest = await queue.oldestQueuedAt();
    return oldest === null ? 0 : Math.max(0, (now() - oldest.getTime()) / 1000);
  });
}
