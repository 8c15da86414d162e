/**
 * Issue 14, item 5, on real processes: a running `brandbase serve` has a brand cached; the site changes and
 * `brandbase crawl --refresh` re-crawls it from the shell (another OS process), then the brand is removed from
 * a third process; the server answers each new state once its cache sync has polled the brand write log (ADR 0017),
 * long before the cache's 60 s lifetime. On SQLite and on PostgreSQL. Waits poll the real answer with a generous
 * deadline; nothing asserts how long it took.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandIdForDomain } from '../../src/domain/ids.js';
import { runJson, startServer, type ServerProcess } from '../helpers/brandbase-process.js';
import { sharedPostgres, sharedSqlite, type SharedDatabase } from '../helpers/shared-database.js';
import { openBackendDatabaseStores } from '../store/store-peer-backend.js';
import { PG_URL } from '../store/temp-database.js';
import { eventually } from '../helpers/until.js';
import { needsPostgres } from '../helpers/optional.js';

const DOMAIN = 'shifting.test';

/** A one-page site whose name can be changed between crawls. */
async function startShiftingSite(): Promise<{ address: string; setName(name: string): void; close(): Promise<void> }> {
  let name = 'Oldname Widgets';
  const server: Server = createServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    if (req.url !== '/') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${name}</title>
      <meta property="og:site_name" content="${name}"><meta name="description" content="${name} makes widgets."></head>
      <body><h1>${name}</h1><p>Widgets for every workshop.</p></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    setName: (next) => void (name = next),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}


function coherenceSuite(name: string, openDatabase: () => Promise<SharedDatabase>): void {
  describe(`cache coherence across processes: ${name}`, () => {
    let database: SharedDatabase;
    let site: Awaited<ReturnType<typeof startShiftingSite>>;
    let env: Record<string, string>;
    let server: ServerProcess;
    let key: string;

    const lookup = async (): Promise<{ status: number; name: string | null }> => {
      const res = await fetch(`${server.baseUrl}/v2/brands/${DOMAIN}`, { headers: { authorization: `Bearer ${key}` } });
      const body = (await res.json()) as { name?: string };
      return { status: res.status, name: res.status === 200 ? (body.name ?? null) : null };
    };

    beforeAll(async () => {
      database = await openDatabase();
      site = await startShiftingSite();
      env = {
        ...database.env,
        BRANDBASE_CRAWL_HOSTS: JSON.stringify({ [DOMAIN]: site.address }),
        BRANDBASE_CACHE_SYNC_MS: '200',
        BRANDBASE_CRAWL_ISOLATION: 'off',
        BRANDBASE_KEY_CACHE_MS: '0',
        BRANDBASE_WORKER_CONCURRENCY: '0',
        BRANDBASE_LOG_LEVEL: 'info',
      };
      const org = await runJson(['orgs', 'create', '--name', 'Coherence', '--plan', 'paid', '--quota', '100000'], env);
      key = String((await runJson(['keys', 'create', '--org', String(org.id)], env)).key);
      server = await startServer(env);
    });

    afterAll(async () => {
      if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
      await site?.close();
      await database?.cleanup();
    });

    it('answers a shell re-crawl and a removal made by other processes, and stops cleanly', async () => {
      const first = await lookup();
      expect(first).toEqual({ status: 200, name: expect.stringContaining('Oldname') });
      expect(await lookup()).toEqual(first); // now cached

      site.setName('Newname Gadgets');
      const crawled = await runJson(['crawl', '--refresh', DOMAIN], env);
      expect(crawled.results).toEqual([expect.objectContaining({ domain: DOMAIN, status: 'indexed' })]);
      const renamed = await eventually(lookup, (answer) => answer.name?.includes('Newname') === true);
      expect(renamed.status).toBe(200);

      // A removal from yet another process (this test's own store connection).
      const { close, stores } = await openBackendDatabaseStores(database.peerSpec);
      try {
        expect(await stores.brands.setBrandStatus(brandIdForDomain(DOMAIN), 'removed', new Date())).toBe(true);
      } finally {
        await close();
      }
      await eventually(lookup, (answer) => answer.status === 404);

      // The poller's timer neither keeps the process up nor fires after close: SIGTERM exits 0.
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      expect(server.output()).not.toContain('cannot read the brand write log');
    });
  });
}

coherenceSuite('SQLite', sharedSqlite);

// Runs when a PostgreSQL answers (BRANDBASE_TEST_PG_URL or the default local server; test/setup/global-setup.ts).
needsPostgres.describe('PostgreSQL', () => {
  coherenceSuite('PostgreSQL', () => sharedPostgres(PG_URL ?? ''));
});
