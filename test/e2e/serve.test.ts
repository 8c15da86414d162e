/**
 * The walk-through of the README on a real process: create an organization and a key with the CLI, start
 * `brandbase serve`, look a brand up over HTTP (indexed live from a fixture site), revoke the key, stop with
 * SIGTERM while a request is in flight.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_HOSTS, startFixtureSites, type FixtureSites } from '../helpers/fixture-sites.js';
import { runCli, runJson, startServer, type ServerProcess } from '../helpers/brandbase-process.js';
import { until } from '../helpers/until.js';

let sites: FixtureSites;
let dataDir: string;
let env: Record<string, string>;

beforeAll(async () => {
  sites = await startFixtureSites();
  dataDir = await mkdtemp(path.join(tmpdir(), 'brandbase-e2e-'));
  env = {
    BRANDBASE_DATA_DIR: dataDir,
    BRANDBASE_CRAWL_HOSTS: JSON.stringify(sites.hostMap),
    BRANDBASE_KEY_CACHE_MS: '0',
    // Room for a complete crawl of a fixture site on a busy machine; slowpoke (below) still runs into it.
    BRANDBASE_CRAWL_TIMEOUT_MS: '15000',
    BRANDBASE_LOG_LEVEL: 'info',
    // With Chromium installed a crawl queues a background palette render that loads the site again after the lookup
    // answered (ADR 0023); it would make "the second lookup fetched nothing" depend on timing. Rendered palettes have
    // their own tests (test/palette/).
    BRANDBASE_PALETTE_RENDER: 'off',
  };
});

afterAll(async () => {
  await sites?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('administration CLI', () => {
  it('orgs create / keys create print exactly one JSON object with the documented fields', async () => {
    const org = await runJson(['orgs', 'create', '--name', 'Acme Inc', '--plan', 'paid', '--quota', '50'], env);
    expect(org).toMatchObject({ id: expect.stringMatching(/^org_/), name: 'Acme Inc', plan: 'paid', quota: 50 });
    const key = await runJson(['keys', 'create', '--org', String(org.id), '--name', 'ci'], env);
    expect(key).toMatchObject({ id: expect.stringMatching(/^key_/), key: expect.stringMatching(/^bb_live_/), orgId: org.id });
    const listed = await runJson(['orgs', 'list'], env);
    expect(listed.organizations).toEqual(expect.arrayContaining([expect.objectContaining({ id: org.id })]));
    const keys = await runJson(['keys', 'list', '--org', String(org.id)], env);
    expect(JSON.stringify(keys)).not.toContain(String(key.key));
  });

  it('crawl indexes, skips a fresh record, re-crawls with --refresh; brands set-industry sets a score-1 industry', async () => {
    const first = await runJson(['crawl', FIXTURE_HOSTS.newname], env);
    expect(first.results).toEqual([expect.objectContaining({ domain: FIXTURE_HOSTS.newname, status: 'indexed', brandId: expect.stringMatching(/^brd_/) })]);
    const again = await runJson(['crawl', FIXTURE_HOSTS.newname], env);
    expect(again.results).toEqual([expect.objectContaining({ status: 'fresh' })]);
    const forced = await runJson(['crawl', '--refresh', FIXTURE_HOSTS.newname], env);
    expect(forced.results).toEqual([expect.objectContaining({ status: 'indexed' })]);
    const set = await runJson(['brands', 'set-industry', FIXTURE_HOSTS.newname, 'payments'], env);
    expect(JSON.stringify(set)).toContain('"score":1');
    const logFile = path.join(dataDir, 'crawl.log');
    const failed = await runCli(['--log-file', logFile, 'crawl', FIXTURE_HOSTS.robotsBlocked, '--json'], env);
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout).results[0]).toMatchObject({ status: 'failed', reason: 'robots_disallowed' });
    // --log-file: the log lines went to the file, none to the terminal.
    const logged = (await readFile(logFile, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toEqual(expect.arrayContaining([expect.objectContaining({ domain: FIXTURE_HOSTS.robotsBlocked, reason: 'robots_disallowed' })]));
    expect(failed.stderr).toBe('');
  });

  it('errors go to stderr with a non-zero exit and nothing on stdout', async () => {
    const result = await runCli(['keys', 'create', '--org', 'org_missing', '--json'], env);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('No organization with id org_missing');
    const bad = await runCli(['orgs', 'create', '--name', 'X', '--plan', 'gold', '--json'], env);
    expect(bad.code).not.toBe(0);
    expect(bad.stdout).toBe('');
  });
});

async function newKey(orgName: string): Promise<string> {
  const org = await runJson(['orgs', 'create', '--name', orgName, '--plan', 'paid'], env);
  return String((await runJson(['keys', 'create', '--org', String(org.id)], env)).key);
}

describe('brandbase serve', () => {
  let server: ServerProcess;
  let key: string;

  beforeAll(async () => {
    key = await newKey('E2E');
    server = await startServer(env);
  });

  afterAll(async () => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
  });

  it('indexes a brand live on the first lookup and answers from the store afterwards', async () => {
    const headers = { authorization: `Bearer ${key}` };
    const first = await fetch(`${server.baseUrl}/v2/brands/${FIXTURE_HOSTS.northwind}`, { headers });
    expect(first.status).toBe(200);
    const brand = (await first.json()) as { id: string; logos: { formats: { src: string }[] }[] };
    const hits = sites.sites.northwind.requests.length;
    const second = await fetch(`${server.baseUrl}/v2/brands/${FIXTURE_HOSTS.northwind}`, { headers });
    expect(((await second.json()) as { id: string }).id).toBe(brand.id);
    expect(sites.sites.northwind.requests.length).toBe(hits);
    const asset = new URL(brand.logos[0]?.formats[0]?.src ?? '');
    expect(asset.origin).toBe(`http://localhost:${new URL(server.baseUrl).port}`);
    expect((await fetch(`${server.baseUrl}${asset.pathname}`)).status).toBe(200);
  });

  it('a key revoked with the CLI is refused with 403', async () => {
    // A key of its own: revoking the shared one would fail whichever test ran after this one.
    const org = await runJson(['orgs', 'create', '--name', 'Revoked', '--plan', 'paid'], env);
    const own = await runJson(['keys', 'create', '--org', String(org.id)], env);
    const lookup = () => fetch(`${server.baseUrl}/v2/brands/${FIXTURE_HOSTS.northwind}`, { headers: { authorization: `Bearer ${String(own.key)}` } });
    expect((await lookup()).status).not.toBe(403);
    const revoked = await runJson(['keys', 'revoke', String(own.id)], env);
    expect(revoked.revokedAt).toEqual(expect.any(String));
    expect((await lookup()).status).toBe(403);
  });
});

// A server of its own, stopped by the test: the one above keeps serving whichever order the tests run in.
describe('brandbase serve, stopped by SIGTERM', () => {
  let server: ServerProcess;

  beforeAll(async () => {
    server = await startServer(env);
  });

  afterAll(async () => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
  });

  it('SIGTERM lets an in-flight request finish, then exits 0', async () => {
    const fresh = { key: await newKey('Shutdown') };
    // slowpoke trickles its homepage past the crawl budget: the lookup is in flight for ~15 s. SIGTERM is sent once
    // the crawl has reached the site (the request is certainly in flight), not after a guessed pause.
    const homepageHits = () => sites.sites.slowpoke.requests.filter((p) => p === '/').length;
    const before = homepageHits();
    const inFlight = fetch(`${server.baseUrl}/v2/brands/${FIXTURE_HOSTS.slowpoke}`, { headers: { authorization: `Bearer ${String(fresh.key)}` } });
    await until(() => homepageHits() > before, 'the crawl reaching slowpoke');
    server.child.kill('SIGTERM');
    const res = await inFlight;
    expect(res.status).toBe(404);
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('shutting down');
  });
});
