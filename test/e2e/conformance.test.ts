/**
 * Conformance with the interface contract, table by table, row by row, against real `brandbase serve` processes
 * crawling fixture sites. Rows of later issues (paid requests, palette, webhooks) are not listed here; batch item
 * statuses 500 and 504 need a failing or slow database and are proven in test/brands/batch-lookup.test.ts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../store/open-store.js';
import { FIXTURE_HOSTS, startFixtureSites, type FixtureSites } from '../helpers/fixture-sites.js';
import { runJson, startServer, type ServerProcess } from '../helpers/brandbase-process.js';
import { sampleBrand } from '../store/sample-brand.js';
import { UNBOUNDED_BUDGETS_ENV } from '../helpers/unbounded-budget.js';

let sites: FixtureSites;
const dirs: string[] = [];
let main: ServerProcess;
let tight: ServerProcess;
let mainEnv: Record<string, string>;
let tightEnv: Record<string, string>;

async function newDataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'brandbase-conformance-'));
  dirs.push(dir);
  return dir;
}

async function newKey(env: Record<string, string>, plan: 'free' | 'paid' = 'paid', quota = 1000): Promise<{ key: string; orgId: string }> {
  const org = await runJson(['orgs', 'create', '--name', 'Conformance', '--plan', plan, '--quota', String(quota)], env);
  const key = await runJson(['keys', 'create', '--org', String(org.id)], env);
  return { key: String(key.key), orgId: String(org.id) };
}

function call(server: ServerProcess, key: string | null, pathAndQuery: string, init: RequestInit = {}): Promise<Response> {
  const headers: Record<string, string> = { ...(init.headers as Record<string, string>) };
  if (key) headers.authorization = `Bearer ${key}`;
  return fetch(`${server.baseUrl}${pathAndQuery}`, { ...init, headers });
}

const batch = (server: ServerProcess, key: string | null, body: unknown) =>
  call(server, key, '/v2/brands/batch', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

async function used(server: ServerProcess, key: string): Promise<number> {
  return ((await (await call(server, key, '/v2/viewer')).json()) as { usage: { used: number } }).usage.used;
}

/**
 * Asks again until `check` holds: the worker is another process, seen only through HTTP. No deadline of its own:
 * the test's timeout bounds it, so a loaded machine only makes it slower.
 */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 100));
}

/** A name served by the northwind fixture site that only the live-crawl test asks for: not indexed when it runs. */
const NEVER_ASKED = 'live-crawl-conformance.test';

/** Makes sure northwind is held, with a key of its own, for a test about held brands whatever ran before it. */
async function northwindHeld(): Promise<void> {
  const { key } = await newKey(mainEnv);
  expect((await call(main, key, `/v2/brands/${FIXTURE_HOSTS.northwind}`)).status).toBe(200);
}

beforeAll(async () => {
  sites = await startFixtureSites();
  const hosts = JSON.stringify({ ...sites.hostMap, [NEVER_ASKED]: sites.sites.northwind.address });
  mainEnv = { BRANDBASE_DATA_DIR: await newDataDir(), BRANDBASE_CRAWL_HOSTS: hosts, BRANDBASE_KEY_CACHE_MS: '0', BRANDBASE_OPERATOR_DOMAIN: FIXTURE_HOSTS.plainfield, ...UNBOUNDED_BUDGETS_ENV };
  tightEnv = { BRANDBASE_DATA_DIR: await newDataDir(), BRANDBASE_CRAWL_HOSTS: hosts, BRANDBASE_KEY_CACHE_MS: '0', BRANDBASE_QUEUE_MAX_DEPTH: '1', BRANDBASE_BATCH_MAX_RESPONSE_BYTES: '4096', ...UNBOUNDED_BUDGETS_ENV };
  // A removed brand, written before the server starts (removal is an operator action on the store).
  const { migrate, close, stores } = await openSqliteStore({ file: path.join(mainEnv.BRANDBASE_DATA_DIR as string, 'brandbase.sqlite') });
  await migrate();
  const now = new Date();
  await stores.brands.saveBrand({ brand: sampleBrand('removed-brand.test'), status: 'removed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: 'removed-brand.test' }]);
  await close();
  [main, tight] = await Promise.all([startServer(mainEnv), startServer({ ...tightEnv, BRANDBASE_WORKER_CONCURRENCY: '0' })]);
});

afterAll(async () => {
  for (const server of [main, tight]) if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
  await sites?.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('section 3: Brand states and transitions', () => {
  it('not indexed + GET without cachedOnly → indexed: live crawl, answers 200 (1 credit)', async () => {
    const { key } = await newKey(mainEnv);
    const homepageHits = sites.sites.northwind.requests.length;
    const res = await call(main, key, `/v2/brands/${NEVER_ASKED}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { domain: string }).domain).toBe(NEVER_ASKED);
    expect(sites.sites.northwind.requests.slice(homepageHits)).toContain('/');
    expect(await used(main, key)).toBe(1);
  });

  // Each "not indexed" case uses a site no other test of this file crawls (lumen, nightjar, an unmapped name): in a
  // shuffled run an earlier test would otherwise have indexed it.
  it('not indexed + GET cachedOnly=true → 204, nothing queued, free', async () => {
    const { key } = await newKey(mainEnv);
    const res = await call(main, key, `/v2/brands/${FIXTURE_HOSTS.lumen}?cachedOnly=true`);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(await used(main, key)).toBe(0);
    expect(sites.sites.lumen.requests).toEqual([]);
  });

  it('not indexed + batch item, crawlable → item 202 crawl_queued, free; then indexed by the worker', async () => {
    const { key } = await newKey(mainEnv);
    const res = await batch(main, key, { identifiers: [FIXTURE_HOSTS.nightjar] });
    expect(((await res.json()) as { results: unknown[] }).results[0]).toEqual({ identifier: FIXTURE_HOSTS.nightjar, status: 202, code: 'crawl_queued' });
    expect(await used(main, key)).toBe(0);
    await eventually(async () => (await call(main, key, `/v2/brands/${FIXTURE_HOSTS.nightjar}?cachedOnly=true`)).status === 200);
  });

  it('not indexed + batch item with cachedOnly → item 204, free', async () => {
    const { key } = await newKey(mainEnv);
    const res = await batch(main, key, { identifiers: ['never-indexed.test'], cachedOnly: true });
    expect(((await res.json()) as { results: unknown[] }).results[0]).toEqual({ identifier: 'never-indexed.test', status: 204 });
    expect(await used(main, key)).toBe(0);
  });

  it('not indexed + HEAD with a domain or email → 202 crawl queued, no credit', async () => {
    const { key } = await newKey(mainEnv);
    expect((await call(main, key, '/v2/brands/someone@head-only-conformance.test', { method: 'HEAD' })).status).toBe(202);
    expect(await used(main, key)).toBe(0);
  });

  it('not indexed + HEAD with another identifier kind → 404', async () => {
    const { key } = await newKey(mainEnv);
    expect((await call(main, key, '/v2/brands/ACME', { method: 'HEAD' })).status).toBe(404);
    expect((await call(main, key, '/v2/brands/US0378331005', { method: 'HEAD' })).status).toBe(404);
  });

  it('indexed + HEAD → 200, and a later GET is answered from the store', async () => {
    await northwindHeld();
    const { key } = await newKey(mainEnv);
    expect((await call(main, key, `/v2/brands/${FIXTURE_HOSTS.northwind}`, { method: 'HEAD' })).status).toBe(200);
    const hits = sites.sites.northwind.requests.length;
    expect((await call(main, key, `/v2/brands/${FIXTURE_HOSTS.northwind}`)).status).toBe(200);
    expect(sites.sites.northwind.requests.length).toBe(hits);
  });

  it('removed + HEAD → 404', async () => {
    const { key } = await newKey(mainEnv);
    expect((await call(main, key, '/v2/brands/removed-brand.test', { method: 'HEAD' })).status).toBe(404);
  });
});

describe('4.2: HEAD statuses', () => {
  it('403 with x-bf-error paid_plan_required on the free plan', async () => {
    const { key } = await newKey(mainEnv, 'free', 100);
    const res = await call(main, key, `/v2/brands/${FIXTURE_HOSTS.northwind}`, { method: 'HEAD' });
    expect(res.status).toBe(403);
    expect(res.headers.get('x-bf-error')).toBe('paid_plan_required');
  });

  it('503 with x-bf-error temporarily_unavailable when the crawl cannot be queued', async () => {
    const { key } = await newKey(tightEnv);
    expect((await call(tight, key, '/v2/brands/first-in-line.test', { method: 'HEAD' })).status).toBe(202);
    const res = await call(tight, key, '/v2/brands/second-in-line.test', { method: 'HEAD' });
    expect(res.status).toBe(503);
    expect(res.headers.get('x-bf-error')).toBe('temporarily_unavailable');
    expect(await res.text()).toBe('');
  });
});

describe('4.3 / 2.10: batch item statuses and charges', () => {
  it('200 (1 credit, duplicates once), 202, 204-free, 400, 404 — one result per identifier in order', async () => {
    // A batch reads held brands only (it queues the others).
    await northwindHeld();
    const { key } = await newKey(mainEnv);
    const res = await batch(main, key, { identifiers: [FIXTURE_HOSTS.northwind, `www.${FIXTURE_HOSTS.northwind}`, 'queued-by-batch.test', 'mailto:x', 'QQZZXQ'] });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-api-key-quota')).toBe('1000');
    expect(res.headers.get('x-api-key-approximate-usage')).toEqual(expect.any(String));
    const statuses = ((await res.json()) as { results: { status: number }[] }).results.map((r) => r.status);
    expect(statuses).toEqual([200, 200, 202, 400, 404]);
    expect(await used(main, key)).toBe(1);
  });

  it('413 response_too_large when a brand does not fit the response budget (free)', async () => {
    const { key } = await newKey(tightEnv);
    const { close, stores } = await openSqliteStore({ file: path.join(tightEnv.BRANDBASE_DATA_DIR as string, 'brandbase.sqlite') });
    const now = new Date();
    await stores.brands.saveBrand({ brand: sampleBrand('big-brand.test', { longDescription: 'x'.repeat(5000) }), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: 'big-brand.test' }]);
    await close();
    const res = await batch(tight, key, { identifiers: ['big-brand.test'] });
    expect(((await res.json()) as { results: unknown[] }).results[0]).toMatchObject({ status: 413, code: 'response_too_large' });
    expect(await used(tight, key)).toBe(0);
  });
});

describe('7.1: whole-request errors', () => {
  it('400: invalid identifier; `Bad Request` on the ISIN route; batch body rules — nothing charged', async () => {
    const { key } = await newKey(mainEnv);
    expect((await call(main, key, '/v2/brands/http%3A%2F%2F10.0.0.1%2F')).status).toBe(400);
    const isin = await call(main, key, '/v2/brands/isin/US0000000000');
    expect(isin.status).toBe(400);
    expect(await isin.json()).toEqual({ message: 'Bad Request' });
    for (const body of [{}, { identifiers: [] }, { identifiers: Array(101).fill('a.com') }, { identifiers: [true] }, { identifiers: ['a.com'], other: 1 }]) {
      expect((await batch(main, key, body)).status).toBe(400);
    }
    expect(await used(main, key)).toBe(0);
  });

  it('401: no key on the batch, a malformed Authorization header, the viewer without a header (agentAccess)', async () => {
    expect((await batch(main, null, { identifiers: ['a.com'] })).status).toBe(401);
    expect((await call(main, null, `/v2/brands/${FIXTURE_HOSTS.northwind}`, { headers: { authorization: 'Bearer' } })).status).toBe(401);
    const viewer = await call(main, null, '/v2/viewer');
    expect(viewer.status).toBe(401);
    expect(await viewer.json()).toHaveProperty('agentAccess');
  });

  it('402 on /v2/brands/* without any credential, with the payment body', async () => {
    const res = await call(main, null, `/v2/brands/${FIXTURE_HOSTS.northwind}`);
    expect(res.status).toBe(402);
    expect(Object.keys((await res.json()) as object).sort()).toEqual(['documentation', 'message', 'pricing', 'resource', 'standingAccess']);
  });

  it('403: unknown key, revoked key, organization without credits (paid_plan_required on the free plan, also on HEAD)', async () => {
    expect((await call(main, 'bb_live_nopenopenopenopenopenopenopenopenopenopenope', `/v2/brands/${FIXTURE_HOSTS.northwind}`)).status).toBe(403);
    const org = await runJson(['orgs', 'create', '--name', 'Revoked'], mainEnv);
    const created = await runJson(['keys', 'create', '--org', String(org.id)], mainEnv);
    await runJson(['keys', 'revoke', String(created.id)], mainEnv);
    expect((await call(main, String(created.key), `/v2/brands/${FIXTURE_HOSTS.northwind}`)).status).toBe(403);
    const { key } = await newKey(mainEnv, 'free', 0);
    for (const method of ['GET', 'HEAD']) {
      const res = await call(main, key, `/v2/brands/${FIXTURE_HOSTS.northwind}`, { method });
      expect(res.status).toBe(403);
      expect(res.headers.get('x-bf-error')).toBe('paid_plan_required');
    }
  });

  it('404: no brand, with payment.charged false; NSFW filtering included', async () => {
    const { key } = await newKey(mainEnv);
    const none = await call(main, key, `/v2/brands/${FIXTURE_HOSTS.robotsBlocked}`);
    expect(none.status).toBe(404);
    expect(((await none.json()) as { payment: { charged: boolean } }).payment.charged).toBe(false);
    await call(main, key, `/v2/brands/${FIXTURE_HOSTS.velvetroom}`);
    expect((await call(main, key, `/v2/brands/${FIXTURE_HOSTS.velvetroom}?allowNsfw=false`)).status).toBe(404);
  });

  it('429: single lookup `API key quota exceeded`; batch body {message, quota, used, remaining, required}', async () => {
    const { key, orgId } = await newKey(mainEnv, 'paid', 1);
    // Overage off: with the default spending limit a paid plan would go on past its quota at 0.10 USD a request.
    await runJson(['orgs', 'set-spending-limit', orgId, '0'], mainEnv);
    expect((await call(main, key, `/v2/brands/${FIXTURE_HOSTS.northwind}`)).status).toBe(200);
    const single = await call(main, key, `/v2/brands/${FIXTURE_HOSTS.northwind}`);
    expect(single.status).toBe(429);
    expect(await single.json()).toEqual({ message: 'API key quota exceeded' });
    // Two held brands, so the batch needs 2 credits: this test indexes the second itself, whatever ran before it.
    expect((await call(main, (await newKey(mainEnv)).key, `/v2/brands/${FIXTURE_HOSTS.newname}`)).status).toBe(200);
    const { key: batchKey, orgId: batchOrg } = await newKey(mainEnv, 'paid', 1);
    await runJson(['orgs', 'set-spending-limit', batchOrg, '0'], mainEnv);
    const res = await batch(main, batchKey, { identifiers: [FIXTURE_HOSTS.northwind, FIXTURE_HOSTS.newname] });
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({ message: 'API key quota exceeded', quota: 1, used: 0, remaining: 1, required: 2 });
  });

  it('429 (same body) when the request throughput limit is exceeded', async () => {
    const { key, orgId } = await newKey(mainEnv);
    await runJson(['orgs', 'set-rate-limit', orgId, '3'], mainEnv);
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await call(main, key, `/v2/brands/${FIXTURE_HOSTS.northwind}`)).status);
    expect(codes.slice(0, 3)).toEqual([200, 200, 200]);
    expect(codes).toContain(429);
  });
});

describe('section 8: limits', () => {
  it('identifier length 1 to 2048; HEAD and the viewer never consume a credit', async () => {
    const { key } = await newKey(mainEnv);
    const long = `https://${FIXTURE_HOSTS.northwind}/${'p'.repeat(2048 - 9 - FIXTURE_HOSTS.northwind.length)}`;
    expect(long).toHaveLength(2048);
    expect((await call(main, key, `/v2/brands/${encodeURIComponent(long)}`)).status).toBe(200);
    expect((await call(main, key, `/v2/brands/${encodeURIComponent(`${long}x`)}`)).status).toBe(400);
    const res = await batch(main, key, { identifiers: [`${long}x`] });
    expect(((await res.json()) as { results: { status: number }[] }).results[0]?.status).toBe(400);
    for (let i = 0; i < 3; i++) await call(main, key, `/v2/brands/${FIXTURE_HOSTS.northwind}`, { method: 'HEAD' });
    expect(await used(main, key)).toBe(1);
    expect(await used(main, key)).toBe(1);
  });

  it("rule 8: the operator's own domain is free on every route", async () => {
    const { key } = await newKey(mainEnv);
    expect((await call(main, key, `/v2/brands/${FIXTURE_HOSTS.plainfield}`)).status).toBe(200);
    expect((await call(main, key, `/v2/brands/domain/www.${FIXTURE_HOSTS.plainfield}`)).status).toBe(200);
    await batch(main, key, { identifiers: [FIXTURE_HOSTS.plainfield] });
    expect(await used(main, key)).toBe(0);
  });
});
