/** The prom-client implementation of the metrics port (main/metrics-registry.ts, ADR 0039), on a real registry. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { JOB_NAMES } from '../../src/jobs/queue.js';
import { openBackends } from '../../src/main/open-backends.js';
import { createPromMetrics, registerQueueGauges } from '../../src/main/metrics-registry.js';

describe('createPromMetrics', () => {
  it('a metric declared twice is the same series: both declarations count into it', async () => {
    const metrics = createPromMetrics();
    const first = metrics.counter('test_things_total', 'Things.', ['kind']);
    const second = metrics.counter('test_things_total', 'Things.', ['kind']);
    first.inc({ kind: 'a' });
    second.bind({ kind: 'a' }).inc(2);
    second.inc({ kind: 'b' });
    const { body } = await metrics.render();
    expect(body).toContain('test_things_total{kind="a"} 3');
    expect(body).toContain('test_things_total{kind="b"} 1');
  });

  it('histograms count and sum observations per label set, bound or not', async () => {
    const metrics = createPromMetrics();
    const h = metrics.histogram('test_seconds', 'Durations.', ['route'], [0.1, 1]);
    h.observe({ route: '/a' }, 0.05);
    h.bind({ route: '/a' }).observe(0.5);
    const { body } = await metrics.render();
    expect(body).toContain('test_seconds_bucket{le="0.1",route="/a"} 1');
    expect(body).toContain('test_seconds_bucket{le="1",route="/a"} 2');
    expect(body).toContain('test_seconds_count{route="/a"} 2');
  });

  it('queue gauges are read from the real queue at scrape time; a closed store reports NaN and the scrape still answers', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'brandbase-metrics-'));
    const backends = await openBackends(loadConfig({ BRANDBASE_DATA_DIR: dataDir }));
    try {
      const metrics = createPromMetrics();
      registerQueueGauges(metrics, backends.queue, () => 70_000);
      let { body } = await metrics.render();
      expect(body).toContain('brandbase_queue_depth 0');
      expect(body).toContain('brandbase_queue_oldest_age_seconds 0');
      await backends.queue.enqueue(JOB_NAMES.crawlBrand, 'a.test', { domain: 'a.test', refresh: false }, { runAt: new Date(10_000) });
      await backends.queue.enqueue(JOB_NAMES.crawlBrand, 'b.test', { domain: 'b.test', refresh: false }, { runAt: new Date(40_000) });
      ({ body } = await metrics.render());
      expect(body).toContain('brandbase_queue_depth 2');
      expect(body).toContain('brandbase_queue_oldest_age_seconds 60');
      // A job due in the future has not waited yet.
      await backends.queue.claim([JOB_NAMES.crawlBrand], 30_000, new Date(50_000));
      await backends.queue.claim([JOB_NAMES.crawlBrand], 30_000, new Date(50_000));
      await backends.queue.enqueue(JOB_NAMES.crawlBrand, 'c.test', { domain: 'c.test', refresh: false }, { runAt: new Date(90_000) });
      ({ body } = await metrics.render());
      expect(body).toContain('brandbase_queue_depth 1');
      expect(body).toContain('brandbase_queue_oldest_age_seconds 0');
      await backends.close();
      ({ body } = await metrics.render());
      expect(body).toMatch(/brandbase_queue_depth nan/i);
    } finally {
      await backends.close().catch(() => undefined);
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
