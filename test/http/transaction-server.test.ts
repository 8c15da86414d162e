/**
 * POST /v2/brands/transaction on a real `brandbase serve` process over loopback (the built program): a key created
 * with the CLI, a descriptor naming a fixture site's domain indexed live and charged once, the audit headers, and the
 * 400 / 402 / 403 refusals as a real HTTP client sees them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_HOSTS, startFixtureSites, type FixtureSites } from '../helpers/fixture-sites.js';
import { runJson, startServer, type ServerProcess } from '../helpers/brandbase-process.js';
import { describeEachBackend, openBackendDatabase } from '../helpers/backends.js';
import type { SharedDatabase } from '../helpers/shared-database.js';
import { UNBOUNDED_BUDGETS_ENV } from '../helpers/unbounded-budget.js';

describeEachBackend('transaction route on a real server', (backend) => {
  let sites: FixtureSites;
  let database: SharedDatabase;
  let server: ServerProcess;
  let key: string;
  let orgId: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    sites = await startFixtureSites();
    database = await openBackendDatabase(backend);
    env = { ...database.env, BRANDBASE_CRAWL_HOSTS: JSON.stringify(sites.hostMap), BRANDBASE_KEY_CACHE_MS: '0', ...UNBOUNDED_BUDGETS_ENV };
    const org = await runJson(['orgs', 'create', '--name', 'Ledger app', '--plan', 'paid', '--quota', '10'], env);
    orgId = String(org.id);
    key = String((await runJson(['keys', 'create', '--org', orgId, '--name', 'ci'], env)).key);
    server = await startServer(env);
    // The hook timeout is the process tests' one (process-timeouts.ts): two CLI runs and a server start.
  });

  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    await sites?.close();
    await database?.cleanup();
  });

  async function used(): Promise<number> {
    const viewer = (await (await fetch(`${server.baseUrl}/v2/viewer`, { headers: { authorization: `Bearer ${key}` } })).json()) as { usage: { used: number } };
    return viewer.usage.used;
  }

  function post(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${server.baseUrl}/v2/brands/transaction`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  }

  describe('POST /v2/brands/transaction on a real server', () => {
    it('matches the descriptor, indexes the merchant live and answers its Brand with the audit headers', async () => {
      const usedBefore = await used();
      const res = await post({ transactionLabel: `${FIXTURE_HOSTS.newname.toUpperCase()}  PORTLAND     OR`, countryCode: 'US' }, { authorization: `Bearer ${key}` });
      expect(res.status).toBe(200);
      const brand = (await res.json()) as { domain: string; logos: unknown[] };
      expect(brand.domain).toBe(FIXTURE_HOSTS.newname);
      expect(res.headers.get('x-bf-match-source')).toBe('domain');
      expect(res.headers.get('x-bf-matched-alias')).toBe(FIXTURE_HOSTS.newname);
      expect(Number(res.headers.get('x-bf-match-confidence'))).toBeGreaterThanOrEqual(0.85);
      // One credit more than before this request, whatever the other test's refusals did (they charge nothing).
      expect(res.headers.get('x-api-key-approximate-usage')).toBe(String(usedBefore + 1));
      expect(await used()).toBe(usedBefore + 1);
    });

    it('refuses as the spec says: 400 incomplete body whatever the credential, 400 no match, 402 and 403', async () => {
      const before = await used();
      const credentials: Record<string, string>[] = [{}, { authorization: `Bearer ${key}` }, { authorization: 'Bearer bb_live_nope' }];
      for (const headers of credentials) {
        const res = await post({ transactionLabel: 'STARBUCKS 1234' }, headers);
        expect(res.status).toBe(400);
        expect(res.headers.get('x-bf-error')).toBe('invalid_transaction');
      }
      const none = await post({ transactionLabel: 'MONTHLY SERVICE FEE', countryCode: 'US' }, { authorization: `Bearer ${key}` });
      expect(none.status).toBe(400);
      expect(await none.json()).toEqual({ message: 'Failed to enrich transaction' });
      const unpaid = await post({ transactionLabel: 'SQ *BLUE BOTTLE COF 4', countryCode: 'US' });
      expect(unpaid.status).toBe(402);
      expect(unpaid.headers.get('payment-required')).toBeTruthy();
      expect((await post({ transactionLabel: 'SQ *BLUE BOTTLE COF 4', countryCode: 'US' }, { authorization: 'Bearer bb_live_nope' })).status).toBe(403);
      // Not one of the refusals was charged.
      expect(await used()).toBe(before);
    });
  });
});
