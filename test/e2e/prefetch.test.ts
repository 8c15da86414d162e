/**
 * HEAD prefetch on real processes: the queued crawl runs in the background worker and a later GET is answered
 * from the store; a queued job survives the process being killed (SIGKILL) and runs after a restart.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_HOSTS, startFixtureSites, type FixtureSites } from '../helpers/fixture-sites.js';
import { runJson, startServer, type ServerProcess } from '../helpers/brandbase-process.js';

let sites: FixtureSites;
let dataDir: string;
let env: Record<string, string>;
let key: string;
const servers: ServerProcess[] = [];

// A hang guard sized for a busy machine, not a speed target.
async function eventually(check: () => Promise<boolean>, ms = 120_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  sites = await startFixtureSites();
  dataDir = await mkdtemp(path.join(tmpdir(), 'brandbase-prefetch-'));
  env = { BRANDBASE_DATA_DIR: dataDir, BRANDBASE_CRAWL_HOSTS: JSON.stringify(sites.hostMap), BRANDBASE_KEY_CACHE_MS: '0' };
  const org = await runJson(['orgs', 'create', '--name', 'Prefetch', '--plan', 'paid'], env);
  key = String((await runJson(['keys', 'create', '--org', String(org.id)], env)).key);
});

afterAll(async () => {
  for (const server of servers) if (server.child.exitCode === null) server.child.kill('SIGKILL');
  await sites?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const headers = () => ({ authorization: `Bearer ${key}` });

describe('HEAD prefetch on a running server', () => {
  it('202, then the background worker indexes the brand, then HEAD 200 and GET from the store', async () => {
    const server = await startServer(env);
    servers.push(server);
    const res = await fetch(`${server.baseUrl}/v2/brands/${FIXTURE_HOSTS.nightjar}`, { method: 'HEAD', headers: headers() });
    expect(res.status).toBe(202);
    await eventually(async () => (await fetch(`${server.baseUrl}/v2/brands/${FIXTURE_HOSTS.nightjar}`, { method: 'HEAD', headers: headers() })).status === 200);
    const crawled = sites.sites.nightjar.requests.length;
    const get = await fetch(`${server.baseUrl}/v2/brands/${FIXTURE_HOSTS.nightjar}?cachedOnly=true`, { headers: headers() });
    expect(get.status).toBe(200);
    expect(((await get.json()) as { domain: string }).domain).toBe(FIXTURE_HOSTS.nightjar);
    expect(sites.sites.nightjar.requests.length).toBe(crawled);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('a queued job survives a killed process and runs after the restart', async () => {
    // An API-only process queues the crawl; nothing runs it, and the process is killed outright.
    const apiOnly = await startServer(env, ['serve', '--no-worker']);
    servers.push(apiOnly);
    expect((await fetch(`${apiOnly.baseUrl}/v2/brands/${FIXTURE_HOSTS.northwind}`, { method: 'HEAD', headers: headers() })).status).toBe(202);
    apiOnly.child.kill('SIGKILL');
    await apiOnly.exited;
    expect(sites.sites.northwind.requests).not.toContain('/');

    const restarted = await startServer(env);
    servers.push(restarted);
    await eventually(async () => (await fetch(`${restarted.baseUrl}/v2/brands/${FIXTURE_HOSTS.northwind}?cachedOnly=true`, { headers: headers() })).status === 200);
    expect(sites.sites.northwind.requests).toContain('/');
    restarted.child.kill('SIGTERM');
    expect(await restarted.exited).toBe(0);
  });
});
