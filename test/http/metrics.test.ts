/**
 * /metrics, /readyz and the metrics port (issue 22 item 4, ADR 0039) on the real service: SQLite temp file, real
 * prom-client registry, the fixture sites on loopback through the host map for a real crawl; HTTP through inject.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMetricsApp } from '../../src/http/metrics-app.js';
import { FIXTURE_HOSTS, startFixtureSites, type FixtureSites } from '../helpers/fixture-sites.js';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';
import { sampleBrand } from '../store/sample-brand.js';

const TOKEN = 'metrics-token-0123456789abcdef';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * The Prometheus text format, strictly: every line is a comment (`# HELP`/`# TYPE`) or `name{labels} value`, and
 * every sample's family has a TYPE (values as Prometheus reads them: NaN and Inf in any case). Throws on anything
 * else, so a malformed exposition fails the test.
 */
function parseExposition(text: string): Sample[] {
  const typed = new Set<string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      typed.add(type[1] ?? '');
      continue;
    }
    if (/^# HELP [a-zA-Z_:][a-zA-Z0-9_:]* .*$/.test(line)) continue;
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?(?:\d+(?:\.\d+)?(?:e[+-]?\d+)?|nan|[+-]?inf))$/i.exec(line);
    if (!sample) throw new Error(`not Prometheus text format: ${line}`);
    const [, name = '', rawLabels = '', value = ''] = sample;
    const labels: Record<string, string> = {};
    for (const pair of rawLabels.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/g)) labels[pair[1] ?? ''] = pair[2] ?? '';
    const family = name.replace(/_(bucket|sum|count)$/, '');
    if (!typed.has(name) && !typed.has(family)) throw new Error(`sample without a TYPE: ${name}`);
    samples.push({ name, labels, value: Number(value) });
  }
  return samples;
}

function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return found.reduce((sum, s) => sum + s.value, 0);
}

let stack: TestStack;
let fixtures: FixtureSites;
let key: string;

beforeAll(async () => {
  fixtures = await startFixtureSites();
  stack = await startTestStack({
    BRANDBASE_METRICS_TOKEN: TOKEN,
    BRANDBASE_CRAWL_HOSTS: JSON.stringify(fixtures.hostMap),
    BRANDBASE_CRAWL_ISOLATION: 'off',
    BRANDBASE_PALETTE_RENDER: 'off',
  });
  const now = new Date();
  await stack.services.stores.brands.saveBrand({ brand: sampleBrand('acme.com'), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: 'acme.com' }]);
  ({ key } = await stack.newKey({ quota: 1000 }));
});

afterAll(async () => {
  await stack?.close();
  await fixtures?.close();
});

async function scrape(): Promise<Sample[]> {
  const res = await stack.app.inject({ method: 'GET', url: '/metrics', headers: bearer(TOKEN) });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseExposition(res.body);
}

describe('GET /metrics on the API port', () => {
  it('needs the metrics token: none, a wrong one or an API key is refused with 401 metrics_token_required', async () => {
    for (const headers of [{}, bearer('metrics-token-0123456789abcdeX'), bearer(key), { authorization: TOKEN }]) {
      const res = await stack.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ message: expect.stringContaining('metrics token') as unknown });
      expect(res.body).not.toContain('brandbase_');
    }
  });

  it('answers the Prometheus text format with every family the issue names', async () => {
    const samples = await scrape();
    const names = new Set(samples.map((s) => s.name));
    for (const name of ['brandbase_queue_depth', 'brandbase_queue_oldest_age_seconds', 'brandbase_process_resident_memory_bytes']) expect(names).toContain(name);
  });

  it('counts a lookup: requests by route template and status, latency, cache hits, credits charged', async () => {
    const before = await scrape();
    for (let i = 0; i < 3; i++) expect((await stack.app.inject({ method: 'GET', url: '/v2/brands/acme.com', headers: bearer(key) })).statusCode).toBe(200);
    const after = await scrape();
    const ok = after.filter((s) => s.name === 'brandbase_http_requests_total' && s.labels.method === 'GET' && s.labels.status === '200' && s.labels.route?.startsWith('/v2/brands'));
    expect(ok).toHaveLength(1);
    const route = ok[0]?.labels.route ?? '';
    // The template Fastify matched, never the identifier.
    expect(route).not.toContain('acme');
    const labels = { method: 'GET', route, status: '200' };
    expect(valueOf(after, 'brandbase_http_requests_total', labels) - valueOf(before, 'brandbase_http_requests_total', labels)).toBe(3);
    const timed = { method: 'GET', route };
    expect(valueOf(after, 'brandbase_http_request_duration_seconds_count', timed) - valueOf(before, 'brandbase_http_request_duration_seconds_count', timed)).toBe(3);
    const hits = (s: Sample[]) => valueOf(s, 'brandbase_brand_cache_lookups_total', { result: 'hit' });
    const all = (s: Sample[]) => valueOf(s, 'brandbase_brand_cache_lookups_total');
    // The first lookup may read the store (a miss), the next two are served from the cache.
    expect(hits(after) - hits(before)).toBeGreaterThanOrEqual(2);
    expect(all(after) - all(before)).toBeGreaterThanOrEqual(3);
    const credits = (s: Sample[]) => valueOf(s, 'brandbase_credits_charged_total', { reason: 'brand.lookup' });
    expect(credits(after) - credits(before)).toBe(3);
  });

  it('puts no identifier, email address or URL in any label', async () => {
    const probes = ['/v2/brands/jane.doe%40acme-secret.com', `/v2/brands/${encodeURIComponent('https://www.acme-secret.com/about')}`, '/v2/brands/ticker/SECRETTICKER', '/no/such/acme-secret.com/path'];
    for (const url of probes) await stack.app.inject({ method: 'GET', url, headers: bearer(key) });
    const samples = await scrape();
    const values = samples.flatMap((s) => Object.values(s.labels));
    for (const value of values) {
      expect(value).not.toMatch(/acme|secret|@|https?:|SECRETTICKER/i);
    }
    expect(values).toContain('unmatched');
  });

  it('counts a crawl by outcome, and reads the queue at scrape time', async () => {
    const before = await scrape();
    expect((await stack.app.inject({ method: 'GET', url: `/v2/brands/${FIXTURE_HOSTS.robotsBlocked}`, headers: bearer(key) })).statusCode).toBe(404);
    expect((await stack.app.inject({ method: 'HEAD', url: '/v2/brands/queued-for-metrics.test', headers: bearer(key) })).statusCode).toBe(202);
    const after = await scrape();
    const crawls = (s: Sample[]) => valueOf(s, 'brandbase_crawl_duration_seconds_count', { outcome: 'robots_disallowed' });
    expect(crawls(after) - crawls(before)).toBe(1);
    // No worker runs in this stack: the prefetch stays queued.
    expect(valueOf(after, 'brandbase_queue_depth')).toBe(valueOf(before, 'brandbase_queue_depth') + 1);
    expect(valueOf(after, 'brandbase_queue_oldest_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(await stack.services.queue.oldestQueuedAt()).not.toBeNull();
  });
});

describe('/readyz', () => {
  it('200 when the store and the queue answer', async () => {
    const res = await stack.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', store: 'ok', queue: 'ok' });
  });

  it('503 naming the parts down when the store is closed', async () => {
    const broken = await startTestStack();
    await broken.services.close();
    try {
      const res = await broken.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'unavailable', store: 'unavailable', queue: 'unavailable' });
      expect(broken.logs()).toContain('readiness probe failed');
    } finally {
      await broken.app.close();
      await rm(broken.dataDir, { recursive: true, force: true });
    }
  });
});

describe('the metrics port (BRANDBASE_METRICS_PORT)', () => {
  it('serves /metrics without a token, /healthz and /readyz, and nothing else', async () => {
    const s = stack.services;
    // A request of its own on the API, so the registry has a request count whichever tests ran before.
    await stack.app.inject({ method: 'GET', url: '/v2/brands/acme.com', headers: bearer(key) });
    const app = await buildMetricsApp({ logger: s.logger, registry: s.metrics, ping: () => s.backends.ping(), pingQueue: async () => void (await s.queue.depth()) });
    try {
      const metrics = await app.inject({ method: 'GET', url: '/metrics' });
      expect(metrics.statusCode).toBe(200);
      expect(parseExposition(metrics.body).some((sample) => sample.name === 'brandbase_http_requests_total')).toBe(true);
      expect((await app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ok', store: 'ok', queue: 'ok' });
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/v2/brands/acme.com', headers: bearer(key) })).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });

  it('the exposition parser itself rejects what is not the text format', () => {
    expect(() => parseExposition('# TYPE a counter\na{x="1"} one\n')).toThrow(/not Prometheus/);
    expect(() => parseExposition('b 1\n')).toThrow(/without a TYPE/);
  });
});
