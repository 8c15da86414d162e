/**
 * BRANDBASE_METRICS_PORT on a real `serve` (issue 22 item 4, ADR 0039): a worker-only process, which has no API
 * port, still answers /metrics (no token), /healthz and /readyz on its metrics listener over loopback, and that
 * listener serves nothing else.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { serve, type RunningServer } from '../../src/main/serve.js';
import { silentLogger } from '../../src/platform/logger.js';

let dataDir: string;
let server: RunningServer;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'brandbase-metrics-port-'));
  const config = loadConfig({ BRANDBASE_DATA_DIR: dataDir, HOST: '127.0.0.1', BRANDBASE_METRICS_PORT: '0', BRANDBASE_CRAWL_ISOLATION: 'off', BRANDBASE_REFRESH: 'off', BRANDBASE_PALETTE_RENDER: 'off' });
  server = await serve(config, silentLogger(), { api: false, worker: true });
});

afterAll(async () => {
  await server?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('the metrics port of a worker-only process', () => {
  it('listens on loopback with /metrics, /healthz and /readyz, and no API', async () => {
    expect(server.address).toBeNull();
    const base = server.metricsAddress;
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const metrics = await fetch(`${base}/metrics`);
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(text).toContain('# TYPE brandbase_queue_depth gauge');
    expect(text).toContain('brandbase_queue_depth 0');
    expect(await (await fetch(`${base}/readyz`)).json()).toEqual({ status: 'ok', store: 'ok', queue: 'ok' });
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/v2/viewer`)).status).toBe(404);
  });
});
