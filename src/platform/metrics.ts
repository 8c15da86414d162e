/**
 * The metrics port (ADR 0039): features record numbers through it and never import prom-client; main/ wires the
 * Prometheus implementation (main/metrics-registry.ts). Metrics are declared once, at construction, and recorded
 * through bound children on hot paths, so recording costs a counter increment, not a label lookup.
 *
 * Label values must never be user data: a route template, an outcome or a reason from a fixed set, never a URL,
 * a domain, an email address or an identifier.
 */

export type Labels<L extends string> = Readonly<Record<L, string>>;

export interface BoundCounter {
  inc(value?: number): void;
}

export interface CounterMetric<L extends string> {
  inc(labels: Labels<L>, value?: number): void;
  /** A child bound to fixed label values, for hot paths. */
  bind(labels: Labels<L>): BoundCounter;
}

export interface BoundHistogram {
  observe(value: number): void;
}

export interface HistogramMetric<L extends string> {
  /** `value` in the metric's unit (seconds for durations). */
  observe(labels: Labels<L>, value: number): void;
  /** A child bound to fixed label values, for hot paths. */
  bind(labels: Labels<L>): BoundHistogram;
}

export interface MetricsRegistry {
  counter<L extends string>(name: string, help: string, labelNames: readonly L[]): CounterMetric<L>;
  histogram<L extends string>(name: string, help: string, labelNames: readonly L[], buckets: readonly number[]): HistogramMetric<L>;
  /** A gauge read at scrape time (e.g. the queue's depth); a failing read reports NaN for that scrape. */
  gauge(name: string, help: string, read: () => Promise<number> | number): void;
  /** The exposition: Prometheus text format and its content type. */
  render(): Promise<{ contentType: string; body: string }>;
}

/** Seconds buckets for request latencies: cached lookups answer in well under a millisecond, crawls take seconds. */
export const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30] as const;
/** Seconds buckets for crawls (a crawl is capped at BRANDBASE_CRAWL_TIMEOUT_MS). */
export const CRAWL_BUCKETS = [0.25, 0.5, 1, 2, 4, 8, 15, 30, 60, 120] as const;

const NO_BOUND: BoundCounter = { inc() {} };

/** Records nothing: tests and CLI commands that do not serve metrics. */
export const NO_METRICS: MetricsRegistry = {
  counter: () => ({ inc() {}, bind: () => NO_BOUND }),
  histogram: () => ({ observe() {}, bind: () => ({ observe() {} }) }),
  gauge() {},
  render: () => Promise.resolve({ contentType: 'text/plain; version=0.0.4; charset=utf-8', body: '' }),
};
