/**
 * /openapi.json is generated from the route schemas. This test checks that every route is documented and
 * validates real responses (brand, batch, viewer, industries and each error body) against the document itself.
 */
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';
import { sampleBrand } from '../store/sample-brand.js';

interface OpenApiDoc {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>;
  components: { schemas: Record<string, unknown> };
}

let stack: TestStack;
let doc: OpenApiDoc;
let key: string;
const ajv = new Ajv({ strict: false, allErrors: true });

function validate(path: string, method: string, status: number, body: unknown): void {
  const response = doc.paths[path]?.[method]?.responses[String(status)];
  expect(response, `${method} ${path} documents ${status}`).toBeDefined();
  const schema = response?.content?.['application/json']?.schema;
  if (!schema) return;
  const check = ajv.compile({ ...(schema as object), components: doc.components });
  const ok = check(body);
  expect(ok, `${method.toUpperCase()} ${path} ${status}: ${ajv.errorsText(check.errors)}`).toBe(true);
}

beforeAll(async () => {
  stack = await startTestStack();
  const brand = sampleBrand('acme.com');
  const now = new Date();
  await stack.services.store.saveBrand({ brand, status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: 'acme.com' }]);
  ({ key } = await stack.newKey({ quota: 100 }));
  doc = (await stack.app.inject({ method: 'GET', url: '/openapi.json' })).json();
});
afterAll(async () => stack?.close());

describe('/openapi.json', () => {
  it('is OpenAPI 3 and documents every route', () => {
    expect(doc.openapi).toMatch(/^3\./);
    const routes = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    for (const route of [
      'GET /v2/brands/{*}',
      'HEAD /v2/brands/{*}',
      'GET /v2/brands/domain/{identifier}',
      'HEAD /v2/brands/domain/{identifier}',
      'GET /v2/brands/ticker/{identifier}',
      'GET /v2/brands/isin/{identifier}',
      'GET /v2/brands/crypto/{identifier}',
      'POST /v2/brands/batch',
      'GET /v2/viewer',
      'GET /v2/brands/{identifier}/company/industries',
      'GET /v2/brands/ticker/{identifier}/company/industries',
    ]) {
      expect(routes).toContain(route);
    }
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['Brand', 'Logo', 'Format', 'Color', 'Font', 'Image', 'Industry']));
  });

  it('the interactive page is served at /docs', async () => {
    const res = await stack.app.inject({ method: 'GET', url: '/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.body.toLowerCase()).toContain('swagger');
  });

  it('real responses validate against it', async () => {
    const get = (url: string, headers: Record<string, string> = bearer(key)) => stack.app.inject({ method: 'GET', url, headers });
    const brand = await get('/v2/brands/acme.com?palette=true');
    validate('/v2/brands/{*}', 'get', 200, brand.json());
    validate('/v2/brands/{*}', 'get', 404, (await get('/v2/brands/AAPL')).json());
    validate('/v2/brands/{*}', 'get', 400, (await get('/v2/brands/jane%40')).json());
    validate('/v2/brands/{*}', 'get', 402, (await get('/v2/brands/acme.com', {})).json());
    validate('/v2/brands/{*}', 'get', 401, (await get('/v2/brands/acme.com', { authorization: 'Basic x' })).json());
    validate('/v2/brands/{*}', 'get', 403, (await get('/v2/brands/acme.com', bearer('bb_live_nope'))).json());
    validate('/v2/brands/domain/{identifier}', 'get', 200, (await get('/v2/brands/domain/acme.com')).json());
    validate('/v2/viewer', 'get', 200, (await get('/v2/viewer')).json());
    validate('/v2/viewer', 'get', 401, (await get('/v2/viewer', {})).json());
    validate('/v2/brands/domain/{identifier}/company/industries', 'get', 200, (await get('/v2/brands/domain/acme.com/company/industries')).json());
    const batch = await stack.app.inject({ method: 'POST', url: '/v2/brands/batch', headers: bearer(key), payload: { identifiers: ['acme.com', 'AAPL', 'queued.test', ''] } });
    validate('/v2/brands/batch', 'post', 200, batch.json());
    const small = await stack.newKey({ quota: 0 });
    const refused = await stack.app.inject({ method: 'POST', url: '/v2/brands/batch', headers: bearer(small.key), payload: { identifiers: ['acme.com'] } });
    validate('/v2/brands/batch', 'post', refused.statusCode, refused.json());
  });
});
