/**
 * The cost of a GraphQL operation, estimated before it runs (src/http/graphql/query-cost.ts, issue 33): fields ×
 * the sizes of the lists above them, aliases counted as fields of their own, fragments expanded, introspection sized
 * by the schema, and nested fragments counted in linear time.
 */
import { buildSchema, getIntrospectionQuery, parse, validate, type DocumentNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { queryCost, type QueryCostOptions } from '../../../src/http/graphql/query-cost.js';
import { WEBHOOK_LIST_SIZES, WEBHOOK_SDL } from '../../../src/http/graphql/webhook-schema.js';

const schema = buildSchema(WEBHOOK_SDL);
const OPTIONS: QueryCostOptions = { defaultPageSize: 100, maxPageSize: 100, listSizes: WEBHOOK_LIST_SIZES };

function document(query: string): DocumentNode {
  const parsed = parse(query);
  expect(validate(schema, parsed)).toEqual([]);
  return parsed;
}

const cost = (query: string, options: Partial<QueryCostOptions> = {}) => queryCost(schema, document(query), { ...OPTIONS, ...options });

/** `webhooks → deliveries`, aliased `n` times: the query that held the event loop for a minute. */
function aliased(n: number): string {
  return `{ ${Array.from({ length: n }, (_, i) => `a${i}: webhooks { edges { node { id deliveries { edges { node { id } } } } } }`).join(' ')} }`;
}

describe('queryCost', () => {
  it('counts each field once per object it is resolved on; a connection\'s first sizes its edges', () => {
    // webhooks 1 + edges 1 + 10 × (node 1 + id 1)
    expect(cost('{ webhooks(first: 10) { edges { node { id } } } }')).toEqual({ cost: 22, rootFields: 1, depth: 4 });
    // pageInfo is resolved once per connection, not once per edge.
    expect(cost('{ webhooks(first: 10) { pageInfo { hasNextPage endCursor } edges { cursor } } }').cost).toBe(1 + 3 + 1 + 10);
  });

  it('counts an absent first as the default page size and a larger one as the maximum', () => {
    expect(cost('{ webhooks { edges { node { id } } } }').cost).toBe(2 + 100 * 2);
    expect(cost('{ webhooks(first: 100000) { edges { node { id } } } }').cost).toBe(2 + 100 * 2);
    expect(cost('{ webhooks { edges { cursor } } }', { defaultPageSize: 7, maxPageSize: 50 }).cost).toBe(2 + 7);
  });

  it('reads first from the variables, else the variable\'s default', () => {
    const query = 'query($n: Int = 3) { webhooks(first: $n) { edges { node { id } } } }';
    expect(cost(query, { variables: { n: 10 } }).cost).toBe(22);
    expect(cost(query).cost).toBe(2 + 3 * 2);
    expect(cost(query, { variables: { n: null } }).cost).toBe(2 + 100 * 2);
  });

  it('multiplies nested lists: deliveries per webhook, attempts per delivery (15 at most)', () => {
    const query = '{ webhooks(first: 10) { edges { node { deliveries(first: 5) { edges { node { id attempts { attempt } } } } } } } }';
    const attempts = 1 + 15 * 1;
    const deliveries = 2 + 5 * (1 + 1 + attempts);
    expect(cost(query)).toEqual({ cost: 2 + 10 * (1 + deliveries), rootFields: 1, depth: 8 });
  });

  it('counts every alias as a field of its own: 50 aliases cost 50 times one', () => {
    const one = cost(aliased(1)).cost;
    expect(one).toBe(2 + 100 * (1 + 1 + 2 + 100 * 2));
    expect(cost(aliased(50))).toEqual({ cost: 50 * one, rootFields: 50, depth: 7 });
  });

  it('expands fragments where they are spread, inline fragments too', () => {
    const plain = cost('{ webhooks(first: 10) { edges { node { id name } } } }').cost;
    expect(cost('{ webhooks(first: 10) { ...Page } } fragment Page on WebhookConnection { edges { node { ...Hook } } } fragment Hook on Webhook { id name }').cost).toBe(plain);
    expect(cost('{ webhooks(first: 10) { edges { ... on WebhookEdge { node { id ... { name } } } } } }').cost).toBe(plain);
    // The same fragment spread under two aliases counts twice.
    expect(cost('{ a: webhooks(first: 10) { ...Page } b: webhooks(first: 10) { ...Page } } fragment Page on WebhookConnection { edges { node { id name } } }').cost).toBe(2 * plain);
    expect(cost('{ ...Root } fragment Root on Query { a: __typename b: __typename webhooks { edges { cursor } } }').rootFields).toBe(3);
  });

  it('counts fragments spread inside fragments in linear time, however large the total', () => {
    // F0 spreads F1 twice, F1 spreads F2 twice, ... : 2^40 `id` fields once expanded, counted without expanding them.
    const levels = 40;
    const fragments = Array.from({ length: levels }, (_, i) => `fragment F${i} on Webhook { ...F${i + 1} ...F${i + 1} }`).join('\n');
    const query = `{ webhook(id: "whk_x") { ...F0 } }\n${fragments}\nfragment F${levels} on Webhook { id }`;
    expect(cost(query).cost).toBe(1 + 2 ** levels);
  });

  it('counts each item of a list argument (domains to subscribe) and sizes the payload lists by their bound', () => {
    expect(cost('mutation { addWebhookSubscriptions(webhookId: "whk_x", domains: ["a.com", "b.com", "c.com"]) { changed } }').cost).toBe(1 + 3 + 1);
    const domains = Array.from({ length: 1000 }, (_, i) => `d${i}.com`);
    const query = 'mutation($d: [String!]!) { addWebhookSubscriptions(webhookId: "whk_x", domains: $d) { changed invalid { input message } } }';
    expect(cost(query, { variables: { d: domains } }).cost).toBe(1 + 1000 + 1 + (1 + 1000 * 2));
  });

  it('measures the operation named, and counts the root fields (aliases included) of that one', () => {
    const doc = 'query Small { webhooks(first: 1) { edges { cursor } } } query Big { a: webhooks { edges { cursor } } b: webhooks { edges { cursor } } }';
    expect(cost(doc, { operationName: 'Small' })).toEqual({ cost: 3, rootFields: 1, depth: 3 });
    expect(cost(doc, { operationName: 'Big' })).toEqual({ cost: 2 * 102, rootFields: 2, depth: 3 });
    expect(cost(doc, { operationName: 'Missing' })).toEqual({ cost: 0, rootFields: 0, depth: 0 });
  });

  it('sizes introspection lists by the schema, so the standard introspection query is cheap; its depth is not counted', () => {
    const introspection = cost(getIntrospectionQuery());
    expect(introspection.depth).toBe(0);
    expect(introspection.rootFields).toBe(1);
    // Well under the default budget (BRANDBASE_GRAPHQL_MAX_COST 50,000) and well under 100 types × 100 fields.
    expect(introspection.cost).toBeGreaterThan(1000);
    expect(introspection.cost).toBeLessThan(30_000);
    // Sized by the schema: a schema with more types costs more to introspect.
    const bigger = buildSchema(`${WEBHOOK_SDL}\n${Array.from({ length: 40 }, (_, i) => `type Extra${i} { a: Int b: Int }`).join('\n')}`);
    expect(queryCost(bigger, parse(getIntrospectionQuery()), OPTIONS).cost).toBeGreaterThan(introspection.cost);
    // __typename next to data counts as a field; the data's depth is counted.
    expect(cost('{ __typename __schema { types { name } } webhooks { edges { cursor } } }').depth).toBe(3);
  });
});
