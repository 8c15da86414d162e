/**
 * The API request id (`reqId`, ADR 0039) in the log lines of every crawl a request causes, beyond HEAD and batch
 * (test/main/request-id.test.ts): a live crawl run by a GET lookup and by a context request, and the crawls the logo
 * CDN and a webhook subscription (GraphQL) queue for brands not held, run by a worker pool. Real crawls of fixture sites through the host map; the
 * service's pino output captured and parsed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerPool } from '../../src/jobs/worker-pool.js';
import { createWorkerPool } from '../../src/main/serve.js';
import { FIXTURE_HOSTS, startFixtureSites, type FixtureSites } from '../helpers/fixture-sites.js';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';

type Line = Record<string, unknown>;

let fixtures: FixtureSites;
let stack: TestStack;
let pool: WorkerPool;
let key: string;
let clientId: string;

function lines(): Line[] {
  return stack
    .logs()
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Line);
}

/** The request line the service logged for `route` (request-logging.ts logs the route template, never the URL). */
function requestLine(route: string, status: number): Line {
  const found = lines().filter((l) => l.msg === 'request' && l.route === route && l.status === status);
  expect(found, `one request line for ${route} ${status}`).toHaveLength(1);
  const line = found[0] ?? {};
  expect(typeof line.reqId).toBe('string');
  return line;
}

/** Waits (the test's own timeout bounds it) for the line saying how the crawl of `domain` ended. */
async function crawlLine(domain: string): Promise<Line> {
  for (;;) {
    const found = lines().find((l) => (l.msg === 'brand indexed' || l.msg === 'job failed' || l.msg === 'crawl failed') && l.domain === domain);
    if (found) return found;
    pool.notify();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  fixtures = await startFixtureSites();
  stack = await startTestStack({
    BRANDBASE_CRAWL_HOSTS: JSON.stringify(fixtures.hostMap),
    BRANDBASE_CRAWL_ISOLATION: 'off',
    BRANDBASE_PALETTE_RENDER: 'off',
    BRANDBASE_REFRESH: 'off',
  });
  const made = await stack.newKey({ quota: 100 });
  key = made.key;
  clientId = (await stack.services.clientIds.create(made.orgId)).id;
  pool = createWorkerPool(stack.services);
  pool.start();
});

afterAll(async () => {
  await pool?.stop(5_000);
  await stack?.close();
  await fixtures?.close();
});

describe('request ids of crawls run or queued by lookups, contexts and the logo CDN', () => {
  it('a live crawl run by a GET lookup is logged with the GET\'s request id', async () => {
    const res = await stack.app.inject({ method: 'GET', url: `/v2/brands/${FIXTURE_HOSTS.northwind}`, headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    const indexed = await crawlLine(FIXTURE_HOSTS.northwind);
    expect(indexed.msg).toBe('brand indexed');
    expect(indexed.reqId).toBe(requestLine('/v2/brands/*', 200).reqId);
  });

  it('a live crawl run by a context request is logged with that request\'s id', async () => {
    const res = await stack.app.inject({ method: 'GET', url: `/v2/context/${FIXTURE_HOSTS.lumen}`, headers: bearer(key) });
    expect(res.statusCode).toBe(200);
    const indexed = await crawlLine(FIXTURE_HOSTS.lumen);
    expect(indexed.msg).toBe('brand indexed');
    expect(indexed.reqId).toBe(requestLine('/v2/context/*', 200).reqId);
  });

  it('a crawl the logo CDN queues is logged by the worker with the CDN request\'s id', async () => {
    // The 404 fallback names why there is no logo yet: the crawl it queued.
    const res = await stack.app.inject({ method: 'GET', url: `/logo/${FIXTURE_HOSTS.nightjar}/fallback/404?c=${clientId}` });
    expect(res.statusCode).toBe(404);
    expect(res.headers['x-bf-error']).toBe('crawl_queued');
    const cdnLine = lines().find((l) => l.msg === 'request' && typeof l.route === 'string' && l.route.startsWith('/logo'));
    expect(typeof cdnLine?.reqId).toBe('string');
    const indexed = await crawlLine(FIXTURE_HOSTS.nightjar);
    expect(indexed.msg).toBe('brand indexed');
    expect(indexed.reqId).toBe(cdnLine?.reqId);
  });

  it('a crawl queued by a webhook subscription (GraphQL) is logged by the worker with that request\'s id', async () => {
    const gql = async (query: string, variables: Record<string, unknown>): Promise<Record<string, Record<string, unknown>>> => {
      const res = await stack.app.inject({ method: 'POST', url: '/graphql', headers: bearer(key), payload: { query, variables } });
      expect(res.statusCode).toBe(200);
      return (res.json() as { data: Record<string, Record<string, unknown>> }).data;
    };
    const created = await gql('mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { webhook { id } } }', { input: { url: 'https://hooks.example.com/brandbase' } });
    const id = (created.createWebhook?.webhook as { id: string }).id;
    const before = lines().filter((l) => l.msg === 'request' && l.route === '/graphql').length;
    const added = await gql('mutation($id: ID!, $d: [String!]!) { addWebhookSubscriptions(webhookId: $id, domains: $d) { queued } }', { id, d: [FIXTURE_HOSTS.plainfield] });
    expect(added.addWebhookSubscriptions?.queued).toEqual([FIXTURE_HOSTS.plainfield]);
    const graphqlLines = lines().filter((l) => l.msg === 'request' && l.route === '/graphql');
    expect(graphqlLines).toHaveLength(before + 1);
    const crawled = await crawlLine(FIXTURE_HOSTS.plainfield);
    expect(typeof crawled.reqId).toBe('string');
    expect(crawled.reqId).toBe(graphqlLines[before]?.reqId);
  });
});
