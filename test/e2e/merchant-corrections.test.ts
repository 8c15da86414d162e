/**
 * Issue 34, item 4, on real processes: corrections that stick. Two `brandbase serve --no-worker` processes on one
 * database (a PostgreSQL schema; and one SQLite file, which two processes may share too), two organizations, fixture
 * sites on loopback through the crawler's host map:
 * - organization A corrects a descriptor through process 1 (`POST /v2/transactions/corrections`);
 * - process 2 answers A's transactions with the correction at once, over HTTP and over MCP (the SDK's own client),
 *   for another store number of the same descriptor too; organization B gets the rules' answer from both processes;
 * - a refresh of both brands (`brandbase crawl --refresh`, another OS process) does not undo it;
 * - after both processes are restarted it still applies, on HTTP and MCP;
 * - removed through process 2, the rules answer A again on process 1, and the audit trail keeps who filed it and
 *   who removed it, and when.
 * One story in steps, in order (shuffle: false). Nothing waits for a correction to spread: there is no cache.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_HOSTS, startFixtureSites, type FixtureSites } from '../helpers/fixture-sites.js';
import { runJson, startServer, type ServerProcess } from '../helpers/brandbase-process.js';
import { describeEachBackend, openBackendDatabase } from '../helpers/backends.js';
import type { SharedDatabase } from '../helpers/shared-database.js';
import { PROCESS_HOOK_TIMEOUT_MS } from '../helpers/process-timeouts.js';
import { UNBOUNDED_BUDGETS_ENV } from '../helpers/unbounded-budget.js';

/** The rules read the written domain (then the held brand's name); organization A says it is Northwind. */
const RULED = FIXTURE_HOSTS.newname;
const CORRECTED = FIXTURE_HOSTS.northwind;
const LABEL = `${RULED.toUpperCase()}  PORTLAND     OR`;
/** Another statement line of the same merchant: the same merchant words, so the same correction. */
const OTHER_LINE = `${RULED.toUpperCase()} 0042`;

interface Org {
  id: string;
  key: string;
  keyId: string;
}

interface Answer {
  status: number;
  domain: string | null;
  source: string | null;
}

describeEachBackend('merchant corrections across two API processes', (backend) => {
  describe('a correction through one process, on HTTP and MCP through the other, through a refresh and a restart', { shuffle: false }, () => {
    let sites: FixtureSites;
    let database: SharedDatabase;
    let env: Record<string, string>;
    let apis: ServerProcess[] = [];
    let a: Org;
    let b: Org;
    let correctionId: string;
    const clients: Client[] = [];

    const startApis = async (): Promise<ServerProcess[]> => Promise.all([startServer(env, ['serve', '--no-worker']), startServer(env, ['serve', '--no-worker'])]);
    const api = (i: 0 | 1): ServerProcess => {
      const p = apis[i];
      if (!p) throw new Error('not started');
      return p;
    };

    async function newOrg(name: string): Promise<Org> {
      const org = await runJson(['orgs', 'create', '--name', name, '--plan', 'paid', '--quota', '100'], env);
      const key = await runJson(['keys', 'create', '--org', String(org.id)], env);
      return { id: String(org.id), key: String(key.key), keyId: String(key.id) };
    }

    function request(p: ServerProcess, path: string, org: Org, init: { method: string; body?: unknown }): Promise<Response> {
      return fetch(`${p.baseUrl}${path}`, {
        method: init.method,
        headers: { authorization: `Bearer ${org.key}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
    }

    async function viaHttp(p: ServerProcess, org: Org, transactionLabel = LABEL): Promise<Answer> {
      const res = await request(p, '/v2/brands/transaction', org, { method: 'POST', body: { transactionLabel, countryCode: 'US' } });
      const body = (await res.json()) as { domain?: string; message?: string };
      expect(res.status, body.message).toBe(200);
      return { status: res.status, domain: body.domain ?? null, source: res.headers.get('x-bf-match-source') };
    }

    async function viaMcp(p: ServerProcess, org: Org): Promise<Answer & { correctionId: string | null }> {
      const client = new Client({ name: 'brandbase-e2e', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${p.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${org.key}` } } }));
      clients.push(client);
      try {
        const result = (await client.callTool({ name: 'enrich_transaction', arguments: { transactionLabel: LABEL, countryCode: 'US' } })) as CallToolResult;
        const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
        expect(result.isError, text).toBeFalsy();
        const { match, brand } = JSON.parse(text) as { match: { domain: string; source: string; correctionId?: string }; brand: { domain: string } };
        expect(brand.domain).toBe(match.domain);
        return { status: 200, domain: match.domain, source: match.source, correctionId: match.correctionId ?? null };
      } finally {
        await client.close();
      }
    }

    const corrected = { status: 200, domain: CORRECTED, source: 'correction' };
    /** The rules' answer: the written domain at first, the held brand's name once it is indexed; never a correction. */
    const ruled = { status: 200, domain: RULED, source: expect.stringMatching(/^(domain|brand)$/) as unknown as string };

    beforeAll(async () => {
      sites = await startFixtureSites();
      database = await openBackendDatabase(backend);
      env = {
        ...database.env,
        ...UNBOUNDED_BUDGETS_ENV,
        BRANDBASE_CRAWL_HOSTS: JSON.stringify(sites.hostMap),
        BRANDBASE_KEY_CACHE_MS: '0',
        BRANDBASE_CACHE_SYNC_MS: '200',
        BRANDBASE_PALETTE_RENDER: 'off',
        BRANDBASE_REFRESH: 'off',
      };
      a = await newOrg('Ledger A');
      b = await newOrg('Ledger B');
      apis = await startApis();
    }, 2 * PROCESS_HOOK_TIMEOUT_MS);

    afterAll(async () => {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      for (const p of apis) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
      await sites?.close();
      await database?.cleanup();
    });

    it('answers the rules first: the domain the descriptor writes, for both organizations', async () => {
      expect(await viaHttp(api(0), a)).toEqual(ruled);
      expect(await viaHttp(api(1), b)).toEqual(ruled);
    });

    it("files organization A's correction through process 1; process 2 answers it at once on HTTP and MCP, to A only", async () => {
      const res = await request(api(0), '/v2/transactions/corrections', a, { method: 'POST', body: { transactionLabel: LABEL, countryCode: 'US', domain: CORRECTED } });
      const body = (await res.json()) as { id: string; key: string; createdBy: string };
      expect(res.status).toBe(201);
      expect(body).toMatchObject({ key: RULED.split('.')[0], createdBy: a.keyId });
      correctionId = body.id;

      expect(await viaHttp(api(1), a)).toEqual(corrected);
      expect(await viaHttp(api(1), a, OTHER_LINE)).toEqual(corrected);
      expect(await viaMcp(api(1), a)).toEqual({ ...corrected, correctionId });
      expect(await viaHttp(api(0), a)).toEqual(corrected);
      // Invisible to organization B, on either process and either transport.
      for (const i of [0, 1] as const) expect(await viaHttp(api(i), b)).toEqual(ruled);
      expect(await viaMcp(api(1), b)).toEqual({ ...ruled, correctionId: null });
      const listed = await request(api(1), '/v2/transactions/corrections', b, { method: 'GET' });
      expect(((await listed.json()) as { corrections: unknown[] }).corrections).toEqual([]);
    });

    it('survives a refresh of both brands from another process', async () => {
      const refreshed = (await runJson(['crawl', '--refresh', RULED, CORRECTED], env)) as { results: { domain: string; status: string }[] };
      // Re-crawled and saved again (`indexed`), not skipped as fresh.
      expect(refreshed.results.map((r) => [r.domain, r.status])).toEqual([
        [RULED, 'indexed'],
        [CORRECTED, 'indexed'],
      ]);
      for (const i of [0, 1] as const) {
        expect(await viaHttp(api(i), a)).toEqual(corrected);
        expect(await viaHttp(api(i), b)).toEqual(ruled);
      }
    });

    it('survives a restart of both processes', async () => {
      for (const p of apis) p.child.kill('SIGTERM');
      expect(await Promise.all(apis.map((p) => p.exited))).toEqual([0, 0]);
      apis = await startApis();
      for (const i of [0, 1] as const) expect(await viaHttp(api(i), a)).toEqual(corrected);
      expect(await viaMcp(api(0), a)).toEqual({ ...corrected, correctionId });
      expect(await viaHttp(api(0), b)).toEqual(ruled);
    });

    it('removed through process 2, the rules answer again on process 1; the audit trail keeps who and when', async () => {
      const removed = await request(api(1), `/v2/transactions/corrections/${correctionId}`, a, { method: 'DELETE' });
      expect(removed.status).toBe(200);
      expect(await viaHttp(api(0), a)).toEqual(ruled);
      expect(await viaMcp(api(0), a)).toEqual({ ...ruled, correctionId: null });

      const trail = await request(api(0), '/v2/transactions/corrections?includeRemoved=true', a, { method: 'GET' });
      const [row, ...others] = ((await trail.json()) as { corrections: Record<string, unknown>[] }).corrections;
      expect(others).toEqual([]);
      expect(row).toMatchObject({ id: correctionId, domain: CORRECTED, createdBy: a.keyId, removedBy: a.keyId, createdAt: expect.any(String), removedAt: expect.any(String) });
      expect(Date.parse(String(row?.removedAt))).toBeGreaterThanOrEqual(Date.parse(String(row?.createdAt)));
      expect(((await (await request(api(0), '/v2/transactions/corrections', a, { method: 'GET' })).json()) as { corrections: unknown[] }).corrections).toEqual([]);
    });
  });
});
