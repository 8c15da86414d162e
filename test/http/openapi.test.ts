/**
 * /openapi.json is generated from the route schemas. This test checks that every route is documented under a
 * meaningful path, validates real responses (brand, batch, viewer, industries, the access offer and each error
 * body) against the document itself, and checks that every header a real response carries is described for
 * that route and status.
 */
import { Ajv } from 'ajv';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';
import { sampleBrand } from '../store/sample-brand.js';

interface Operation {
  parameters?: { in: string; name: string }[];
  responses: Record<string, { description: string; headers?: Record<string, unknown>; content?: Record<string, { schema: unknown }> }>;
}

interface OpenApiDoc {
  openapi: string;
  info: { description: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
}

let stack: TestStack;
let doc: OpenApiDoc;
let key: string;
const ajv = new Ajv({ strict: false, allErrors: true });

/** Headers of the HTTP framing, which every answer has and no API description lists. */
const FRAMING = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

function validate(path: string, method: string, status: number, body: unknown): void {
  const response = doc.paths[path]?.[method]?.responses[String(status)];
  expect(response, `${method} ${path} documents ${status}`).toBeDefined();
  const schema = response?.content?.['application/json']?.schema;
  if (!schema) return;
  const check = ajv.compile({ ...(schema as object), components: doc.components });
  const ok = check(body);
  expect(ok, `${method.toUpperCase()} ${path} ${status}: ${ajv.errorsText(check.errors)}`).toBe(true);
}

/** Every header the service itself set on `res` is described in the document for this route and status. */
function expectHeadersDescribed(path: string, method: string, res: LightMyRequestResponse): void {
  const response = doc.paths[path]?.[method]?.responses[String(res.statusCode)];
  expect(response, `${method.toUpperCase()} ${path} documents ${res.statusCode}`).toBeDefined();
  const sent = Object.keys(res.headers).filter((name) => !FRAMING.has(name));
  const described = Object.keys(response?.headers ?? {});
  expect(described, `${method.toUpperCase()} ${path} ${res.statusCode} describes the headers it sends`).toEqual(expect.arrayContaining(sent));
}

/** A real answer, validated against the document: its body (when it has one) and its headers. */
async function answer(path: string, method: string, res: Promise<LightMyRequestResponse>, expectedStatus: number): Promise<LightMyRequestResponse> {
  const got = await res;
  expect(got.statusCode, `${method.toUpperCase()} ${path}`).toBe(expectedStatus);
  if (got.body !== '' && String(got.headers['content-type']).startsWith('application/json')) validate(path, method, got.statusCode, got.json());
  expectHeadersDescribed(path, method, got);
  return got;
}

beforeAll(async () => {
  stack = await startTestStack({ BRANDBASE_QUEUE_MAX_DEPTH: '1' });
  const brand = sampleBrand('acme.com');
  const now = new Date();
  await stack.services.stores.brands.saveBrand({ brand, status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: 'acme.com' }]);
  ({ key } = await stack.newKey({ quota: 100 }));
  doc = (await stack.app.inject({ method: 'GET', url: '/openapi.json' })).json();
});
afterAll(async () => stack?.close());

describe('/openapi.json', () => {
  it('is OpenAPI 3 and documents every route', () => {
    expect(doc.openapi).toMatch(/^3\./);
    const routes = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    for (const route of [
      'GET /v2/brands/{identifier}',
      'HEAD /v2/brands/{identifier}',
      'GET /v2/brands/domain/{identifier}',
      'HEAD /v2/brands/domain/{identifier}',
      'GET /v2/brands/ticker/{identifier}',
      'HEAD /v2/brands/ticker/{identifier}',
      'GET /v2/brands/isin/{identifier}',
      'HEAD /v2/brands/isin/{identifier}',
      'GET /v2/brands/crypto/{identifier}',
      'HEAD /v2/brands/crypto/{identifier}',
      'POST /v2/brands/batch',
      'GET /v2/viewer',
      'GET /v2/agents/access',
      'POST /v2/agents/access',
      'GET /v2/brands/{identifier}/company/industries',
      'GET /v2/brands/ticker/{identifier}/company/industries',
      'GET /assets/{key}',
      'GET /healthz',
      'GET /readyz',
      'GET /metrics',
    ]) {
      expect(routes).toContain(route);
    }
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['Brand', 'Logo', 'Format', 'Color', 'Font', 'Image', 'Industry']));
  });

  it('has no wildcard or placeholder names: every path parameter is named and declared', () => {
    for (const [path, ops] of Object.entries(doc.paths)) {
      expect(path, 'no wildcard segment').not.toMatch(/\*|\{\}/);
      const inPath = [...path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
      for (const [method, op] of Object.entries(ops)) {
        const declared = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
        expect(declared.sort(), `${method.toUpperCase()} ${path} declares its path parameters`).toEqual([...inPath].sort());
        for (const name of declared) expect(name, `${method.toUpperCase()} ${path}`).toMatch(/^[a-z][A-Za-z0-9]*$/);
        for (const [status, response] of Object.entries(op.responses)) {
          expect(response.description, `${method.toUpperCase()} ${path} ${status} has a real description`).not.toBe('Default Response');
        }
      }
    }
    for (const name of Object.keys(doc.components.schemas)) expect(name).not.toMatch(/^def-\d+$/);
  });

  it('links to the served documentation, never to a repository path', () => {
    const text = JSON.stringify(doc);
    expect(text).not.toMatch(/[\w/-]+\.md\b/);
    expect(doc.info.description).toContain('http://brandbase.test/docs/errors');
  });

  it('the interactive page is served at /docs/api', async () => {
    const res = await stack.app.inject({ method: 'GET', url: '/docs/api' });
    expect(res.statusCode).toBe(200);
    expect(res.body.toLowerCase()).toContain('swagger');
  });

  it('real responses validate against it, and every header they carry is described', async () => {
    const get = (url: string, headers: Record<string, string> = bearer(key)) => stack.app.inject({ method: 'GET', url, headers });
    const head = (url: string, headers: Record<string, string> = bearer(key)) => stack.app.inject({ method: 'HEAD', url, headers });
    const batch = (k: string, identifiers: string[]) => stack.app.inject({ method: 'POST', url: '/v2/brands/batch', headers: bearer(k), payload: { identifiers } });
    const brand = '/v2/brands/{identifier}';

    await answer(brand, 'get', get('/v2/brands/acme.com?palette=true'), 200);
    await answer(brand, 'get', get('/v2/brands/AAPL'), 404);
    await answer(brand, 'get', get('/v2/brands/unheld.test?cachedOnly=true'), 204);
    await answer(brand, 'get', get('/v2/brands/jane%40'), 400);
    await answer(brand, 'get', get('/v2/brands/acme.com', {}), 402);
    await answer(brand, 'get', get('/v2/brands/acme.com', { authorization: 'Basic x' }), 401);
    await answer(brand, 'get', get('/v2/brands/acme.com', bearer('bb_live_nope')), 403);
    await answer('/v2/brands/domain/{identifier}', 'get', get('/v2/brands/domain/acme.com'), 200);
    await answer('/v2/brands/isin/{identifier}', 'get', get('/v2/brands/isin/US0000000001'), 400);
    await answer('/v2/viewer', 'get', get('/v2/viewer'), 200);
    await answer('/v2/viewer', 'get', get('/v2/viewer', {}), 401);
    await answer('/v2/agents/access', 'get', get('/v2/agents/access', {}), 200);
    await answer('/v2/agents/access', 'post', stack.app.inject({ method: 'POST', url: '/v2/agents/access?usd=5' }), 402);
    await answer('/v2/agents/access', 'post', stack.app.inject({ method: 'POST', url: '/v2/agents/access?usd=0' }), 400);
    await answer('/v2/brands/domain/{identifier}/company/industries', 'get', get('/v2/brands/domain/acme.com/company/industries'), 200);
    await answer('/v2/brands/{identifier}/company/industries', 'get', get('/v2/brands/unheld.test/company/industries'), 404);
    await answer('/v2/brands/batch', 'post', batch(key, ['acme.com', 'AAPL', 'queued.test', '']), 200);
    await answer('/healthz', 'get', get('/healthz', {}), 200);
    await answer('/readyz', 'get', get('/readyz', {}), 200);
    await answer('/metrics', 'get', get('/metrics', {}), 401);

    await answer(brand, 'head', head('/v2/brands/acme.com'), 200);
    await answer(brand, 'head', head('/v2/brands/AAPL'), 404);
    await answer('/v2/brands/ticker/{identifier}', 'head', head('/v2/brands/ticker/AAPL'), 404);
    await answer('/v2/brands/domain/{identifier}', 'head', head('/v2/brands/domain/jane@acme.com'), 400);
    await answer(brand, 'head', head('/v2/brands/acme.com', {}), 402);
    await answer('/v2/brands/{identifier}/company/industries', 'head', head('/v2/brands/acme.com/company/industries'), 200);

    const stored = await stack.services.assets.put(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'svg');
    await answer('/assets/{key}', 'get', get(`/assets/${stored.key}`, {}), 200);
    await answer('/assets/{key}', 'get', get('/assets/0000.svg', {}), 404);
  });

  it('refusals carry x-bf-error, and it is described: 403 plan, 429 quota and throughput, 503 queue full', async () => {
    const free = await stack.newKey({ plan: 'free', quota: 0 });
    const lookup = (k: string, url = '/v2/brands/acme.com') => stack.app.inject({ method: 'GET', url, headers: bearer(k) });
    const plan = await answer('/v2/brands/{identifier}', 'get', lookup(free.key), 403);
    expect(plan.headers['x-bf-error']).toBe('paid_plan_required');
    await answer('/v2/brands/batch', 'post', stack.app.inject({ method: 'POST', url: '/v2/brands/batch', headers: bearer(free.key), payload: { identifiers: ['acme.com'] } }), 403);

    const one = await stack.newKey({ quota: 1, overage: false });
    await answer('/v2/brands/{identifier}', 'get', lookup(one.key), 200);
    const quota = await answer('/v2/brands/{identifier}', 'get', lookup(one.key), 429);
    expect(quota.headers['x-bf-error']).toBe('quota_exceeded');
    await answer('/v2/brands/batch', 'post', stack.app.inject({ method: 'POST', url: '/v2/brands/batch', headers: bearer(one.key), payload: { identifiers: ['acme.com'] } }), 429);

    const slow = await stack.newKey({ quota: 100 });
    await stack.services.stores.billing.updateOrganization(slow.orgId, { rateLimitPerMinute: 1 });
    await lookup(slow.key, '/v2/brands/AAPL');
    const throttled = await answer('/v2/brands/{identifier}', 'get', lookup(slow.key, '/v2/brands/AAPL'), 429);
    expect(throttled.headers['x-bf-error']).toBe('rate_limited');

    // The queue holds one job: the second fresh domain cannot be queued.
    const queueFull = async (): Promise<LightMyRequestResponse> => {
      await stack.app.inject({ method: 'HEAD', url: '/v2/brands/first-fresh.test', headers: bearer(key) });
      return stack.app.inject({ method: 'HEAD', url: '/v2/brands/second-fresh.test', headers: bearer(key) });
    };
    const full = await answer('/v2/brands/{identifier}', 'head', queueFull(), 503);
    expect(full.headers['x-bf-error']).toBe('temporarily_unavailable');
  });
});
