/**
 * `POST /graphql` is bounded before anything runs (issue 33, docs/webhooks.md#query-cost), on the real service
 * (SQLite, PostgreSQL): a query over BRANDBASE_GRAPHQL_MAX_COST (50 aliases of `webhooks → deliveries` held the event
 * loop for a minute) or over 20 root fields answers 400 `query_too_expensive` and no resolver runs, a document over
 * 5,000 tokens is not parsed further (400 `invalid_graphql_request`); ordinary queries
 * and the standard introspection query are served; an organization past BRANDBASE_GRAPHQL_COST_PER_MINUTE answers
 * 429 `rate_limited` with Retry-After while another is served. The clock is the test's: nothing refills by itself.
 */
import { buildClientSchema, buildSchema, getIntrospectionQuery, parse, printSchema, type IntrospectionQuery } from 'graphql';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryCost } from '../../../src/http/graphql/query-cost.js';
import { GRAPHQL_LIST_SIZES, GRAPHQL_SDL } from '../../../src/http/graphql/graphql-schema.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { bearer, startTestStack, type TestStack } from '../../helpers/test-stack.js';

const MAX_COST = 50_000;
const COST_PER_MINUTE = 100_000;

/** The schema served: webhooks and merchant corrections. */
const schema = buildSchema(GRAPHQL_SDL);
const costOf = (query: string) => queryCost(schema, parse(query), { defaultPageSize: 100, maxPageSize: 100, listSizes: GRAPHQL_LIST_SIZES }).cost;

/** `webhooks → deliveries`, aliased `n` times. */
function aliased(n: number): string {
  return `{ ${Array.from({ length: n }, (_, i) => `a${i}: webhooks { edges { node { id deliveries { edges { node { id } } } } } }`).join(' ')} }`;
}

describeEachBackend('GraphQL cost limits', (backend) => {
  let stack: TestStack;
  let now = Date.UTC(2026, 11, 7, 12);

  interface Answer {
    status: number;
    headers: Record<string, unknown>;
    body: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- GraphQL answers are shaped by each query
  }

  async function gql(key: string, query: string, variables: Record<string, unknown> = {}): Promise<Answer> {
    const res = await stack.app.inject({ method: 'POST', url: '/graphql', headers: bearer(key), payload: { query, variables } });
    return { status: res.statusCode, headers: res.headers, body: res.json() };
  }

  async function orgWithWebhooks(count: number): Promise<string> {
    const { key } = await stack.newKey({ plan: 'paid' });
    for (let i = 0; i < count; i++) {
      const created = await gql(key, 'mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { webhook { id } } }', { input: { url: `https://hooks${i}.example.com/in` } });
      expect(created.body.errors).toBeUndefined();
    }
    return key;
  }

  beforeAll(async () => {
    stack = await startTestStack({ BRANDBASE_GRAPHQL_MAX_COST: String(MAX_COST), BRANDBASE_GRAPHQL_COST_PER_MINUTE: String(COST_PER_MINUTE) }, { backend, clock: () => now });
  });
  afterEach(() => vi.restoreAllMocks());
  afterAll(async () => stack?.close());

  describe('per request', () => {
    it('refuses 50 aliases of webhooks → deliveries with 400 query_too_expensive before any resolver runs', async () => {
      const key = await orgWithWebhooks(3);
      const list = vi.spyOn(stack.services.webhooks, 'list');
      const deliveries = vi.spyOn(stack.services.webhooks, 'deliveries');
      const cost = costOf(aliased(50));
      expect(cost).toBe(1_020_100);

      const refused = await gql(key, aliased(50));
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        errors: [
          {
            message: `Query too expensive: its estimated cost is 1020100, over the limit of ${MAX_COST} per request. Ask for smaller pages (first), fewer fields or fewer aliases; nothing was run.`,
            extensions: { code: 'query_too_expensive', status: 400, cost: 1_020_100, maxCost: MAX_COST },
          },
        ],
      });
      expect(list).not.toHaveBeenCalled();
      expect(deliveries).not.toHaveBeenCalled();

      // The same query with one alias (cost 20,402) runs: the resolvers are the ones watched above.
      const one = await gql(key, aliased(1));
      expect(one.status).toBe(200);
      expect(one.body.errors).toBeUndefined();
      expect(one.body.data.a0.edges).toHaveLength(3);
      expect(list).toHaveBeenCalledTimes(1);
      expect(deliveries).toHaveBeenCalledTimes(3);
    });

    it('refuses more than 20 root fields (aliases included) with query_too_expensive; 20 are served', async () => {
      const { key } = await stack.newKey({ plan: 'paid' });
      const roots = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `t${i}: __typename`).join(' ')} }`;
      const refused = await gql(key, roots(21));
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        errors: [
          {
            message: 'Query too expensive: 21 root fields (aliases included), at most 20 per request; nothing was run.',
            extensions: { code: 'query_too_expensive', status: 400, rootFields: 21, maxRootFields: 20 },
          },
        ],
      });
      const served = await gql(key, roots(20));
      expect(served.status).toBe(200);
      expect(Object.keys(served.body.data)).toHaveLength(20);
    });

    it('stops parsing a document past 5,000 tokens with 400 invalid_graphql_request; 5,000 are served', async () => {
      const { key } = await stack.newKey({ plan: 'paid' });
      // `{ webhooks ( first : 1 ) { edges {` and `} } }`: 13 tokens around `cN: cursor` (3 tokens each) and `cursor`s.
      // Distinct aliases: graphql's own meter stops validating thousands of fields of the same name ("Validation aborted.").
      const document = (tokens: number) => {
        const rest = tokens - 13;
        const aliases = Array.from({ length: Math.floor(rest / 3) }, (_, i) => `c${i}: cursor`).join(' ');
        return `{ webhooks(first: 1) { edges { ${aliases} ${'cursor '.repeat(rest % 3)}} } }`;
      };
      const refused = await gql(key, document(5001));
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        errors: [{ message: 'Syntax Error: Document contains more that 5000 tokens. Parsing aborted.', extensions: { code: 'invalid_graphql_request', status: 400 } }],
      });
      const served = await gql(key, document(5000));
      expect(served.status).toBe(200);
      expect(served.body).toEqual({ data: { webhooks: { edges: [] } } });
    });

    it('serves an ordinary query and the standard introspection query', async () => {
      const key = await orgWithWebhooks(2);
      const listed = await gql(key, '{ webhooks(first: 10) { edges { node { id url deliveries(first: 5) { edges { node { id attempts { statusCode } } } } } } pageInfo { hasNextPage } } }');
      expect(listed.status).toBe(200);
      expect(listed.body.errors).toBeUndefined();
      expect(listed.body.data.webhooks.edges.map((e: { node: { url: string } }) => e.node.url).sort()).toEqual(['https://hooks0.example.com/in', 'https://hooks1.example.com/in']);

      const introspection = await gql(key, getIntrospectionQuery());
      expect(introspection.status).toBe(200);
      expect(introspection.body.errors).toBeUndefined();
      expect(printSchema(buildClientSchema(introspection.body.data as IntrospectionQuery))).toBe(printSchema(schema));
    });
  });

  describe('per organization and minute', () => {
    it('answers 429 rate_limited with Retry-After once the minute\'s cost is spent; another organization is served; it refills with time', async () => {
      const key = await orgWithWebhooks(1);
      const { key: other } = await stack.newKey({ plan: 'paid' });
      const query = aliased(1);
      const cost = costOf(query);
      const fits = Math.floor(COST_PER_MINUTE / cost);
      expect(fits).toBe(4);
      // A refused query takes nothing from the allowance.
      expect((await gql(key, aliased(50))).status).toBe(400);
      for (let i = 0; i < fits; i++) expect((await gql(key, query)).status).toBe(200);

      const deliveries = vi.spyOn(stack.services.webhooks, 'deliveries');
      const refused = await gql(key, query);
      expect(refused.status).toBe(429);
      expect(refused.headers['x-bf-error']).toBe('rate_limited');
      // What is missing, at COST_PER_MINUTE a minute, rounded up to a second.
      const missing = cost - (COST_PER_MINUTE - fits * cost);
      const retryAfter = Math.ceil((missing * 60) / COST_PER_MINUTE);
      expect(refused.headers['retry-after']).toBe(String(retryAfter));
      expect(refused.body).toEqual({
        errors: [
          {
            message: 'Too much GraphQL work for this organization: its cost per minute is spent; retry after the number of seconds in Retry-After. Nothing was run.',
            extensions: { code: 'rate_limited', status: 429, cost },
          },
        ],
      });
      expect(deliveries).not.toHaveBeenCalled();

      // Another organization has its own allowance.
      expect((await gql(other, query)).status).toBe(200);

      // Once the time in Retry-After has passed, the organization is served again.
      now += (retryAfter - 1) * 1000;
      expect((await gql(key, query)).status).toBe(429);
      now += 1000;
      expect((await gql(key, query)).status).toBe(200);
    });
  });
});
