/**
 * Upgrading in place (issue 30): a data folder and a PostgreSQL schema written by the previous release (a git
 * worktree of it, built and run as users run it: its own `brandbase` CLI and `serve`) are opened by this release,
 * which migrates them forward and serves the same brands, keys, usage and webhooks. Nothing of either release is
 * imported: both are driven through their CLI and HTTP only, so the test holds whatever the sources look like.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJson, startServer, type ServerProcess } from '../helpers/brandbase-process.js';
import { FIXTURE_HOSTS, startFixtureSites, type FixtureSites } from '../helpers/fixture-sites.js';
import { checkoutRelease, PREVIOUS_RELEASE, type ReleaseTree } from '../helpers/release-tree.js';
import { PG_URL } from '../store/temp-database.js';
import { needsPostgres } from '../helpers/optional.js';

let release: ReleaseTree;
let sites: FixtureSites;

beforeAll(async () => {
  release = await checkoutRelease(PREVIOUS_RELEASE);
  sites = await startFixtureSites();
}, 300_000);

afterAll(async () => {
  await sites?.close();
  release?.remove();
});

interface Installation {
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

async function sqliteInstallation(): Promise<Installation> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'brandbase-upgrade-'));
  return { env: { BRANDBASE_DATA_DIR: dataDir }, cleanup: () => rm(dataDir, { recursive: true, force: true }) };
}

async function adminSql(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * A fresh schema migrated by the previous release's own code (Kysely's migration tables placed in the schema, as
 * test/helpers/shared-database.ts does for this release), then handed to both releases through the URL's search_path.
 */
async function postgresInstallation(url: string, tree: string): Promise<Installation> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await adminSql(url, `create schema "${schema}"`);
  const script = `const { openPostgresStore } = await import('./src/store/postgres/postgres-store.ts');
    const { store } = await openPostgresStore({ url: process.argv[1], schema: process.argv[2] });
    await store.migrate(); await store.close();`;
  await new Promise<void>((resolve, reject) =>
    execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, url, schema], { cwd: tree }, (error, _out, stderr) => (error ? reject(new Error(stderr)) : resolve())),
  );
  const withSchema = new URL(url);
  withSchema.searchParams.set('options', `-c search_path=${schema}`);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'brandbase-upgrade-'));
  return {
    env: { BRANDBASE_DATA_DIR: dataDir, BRANDBASE_DATABASE_URL: withSchema.toString() },
    async cleanup() {
      await adminSql(url, `drop schema if exists "${schema}" cascade`);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

const WEBHOOKS = '{ webhooks { edges { node { id name url events enabled } } } }';
const CREATE_WEBHOOK = 'mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { webhook { id } } }';

async function graphql(server: ServerProcess, key: string, query: string, variables: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const res = await fetch(`${server.baseUrl}/graphql`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
  const body = (await res.json()) as { data?: Record<string, unknown>; errors?: unknown };
  expect(body.errors).toBeUndefined();
  return body.data ?? {};
}

async function getJson(server: ServerProcess, key: string, route: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${server.baseUrl}${route}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: res.status === 200 ? await res.json() : await res.text() };
}

async function stop(server: ServerProcess): Promise<void> {
  server.child.kill('SIGTERM');
  await server.exited;
}

/** What the previous release wrote and answered, to be answered the same by this one. */
interface Written {
  key: string;
  keyId: string;
  brands: Map<string, unknown>;
  used: number;
  webhooks: unknown;
}

async function writeWithPreviousRelease(env: Record<string, string>): Promise<Written> {
  const previous = { bin: path.join(release.dir, 'bin/brandbase.js') };
  const org = await runJson(['orgs', 'create', '--name', 'Upgrade Inc', '--plan', 'paid'], env, previous);
  const created = await runJson(['keys', 'create', '--org', String(org.id)], env, previous);
  const key = String(created.key);
  const server = await startServer(env, ['serve'], previous);
  try {
    const brands = new Map<string, unknown>();
    for (const domain of [FIXTURE_HOSTS.northwind, FIXTURE_HOSTS.lumen]) {
      const answer = await getJson(server, key, `/v2/brands/${domain}`);
      expect(answer.status, `previous release: ${domain}`).toBe(200);
      brands.set(domain, answer.body);
    }
    await graphql(server, key, CREATE_WEBHOOK, { input: { url: 'https://hooks.example.com/brandbase', name: 'upgrade' } });
    const webhooks = await graphql(server, key, WEBHOOKS);
    const viewer = (await getJson(server, key, '/v2/viewer')).body as { id: string; usage: { used: number } };
    return { key, keyId: viewer.id, brands, used: viewer.usage.used, webhooks };
  } finally {
    // A graceful stop flushes the usage meter, as a rolling restart does.
    await stop(server);
  }
}

async function readWithThisRelease(env: Record<string, string>, written: Written): Promise<void> {
  const server = await startServer(env);
  try {
    const viewer = (await getJson(server, written.key, '/v2/viewer')).body as { id: string; usage: { used: number } };
    expect(viewer.id).toBe(written.keyId);
    expect(viewer.usage.used).toBe(written.used);
    for (const [domain, body] of written.brands) {
      // cachedOnly: answered from what the previous release stored, never indexed again.
      const answer = await getJson(server, written.key, `/v2/brands/${domain}?cachedOnly=true`);
      expect(answer.status, `this release: ${domain}`).toBe(200);
      expect(answer.body).toEqual(body);
    }
    expect(await graphql(server, written.key, WEBHOOKS)).toEqual(written.webhooks);
    const after = (await getJson(server, written.key, '/v2/viewer')).body as { usage: { used: number } };
    expect(after.usage.used).toBe(written.used + written.brands.size);
    const keys = await runJson(['keys', 'list', '--org', String((viewer as unknown as { organization: { id: string } }).organization.id)], env);
    expect(JSON.stringify(keys)).toContain(written.keyId);
  } finally {
    await stop(server);
  }
}

function upgradeScenario(open: () => Promise<Installation>): () => Promise<void> {
  return async () => {
    const installation = await open();
    try {
      const env = { ...installation.env, BRANDBASE_CRAWL_HOSTS: JSON.stringify(sites.hostMap), BRANDBASE_PUBLIC_URL: 'http://brandbase.test', BRANDBASE_KEY_CACHE_MS: '0' };
      const written = await writeWithPreviousRelease(env);
      expect(written.brands.size).toBe(2);
      expect(written.used).toBe(2);
      await readWithThisRelease(env, written);
    } finally {
      await installation.cleanup();
    }
  };
}

describe(`an installation of the previous release (${PREVIOUS_RELEASE}) upgraded in place`, () => {
  it('a SQLite data folder migrates and serves the same brands, keys, usage and webhooks', { timeout: 300_000 }, upgradeScenario(sqliteInstallation));

  needsPostgres.it('a PostgreSQL schema migrates and serves the same brands, keys, usage and webhooks', { timeout: 300_000 }, upgradeScenario(() => postgresInstallation(PG_URL ?? '', release.dir)));
});
