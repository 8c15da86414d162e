/**
 * Merchant corrections over `POST /graphql` (issue 34, docs/transactions.md#graphql) through inject on the real
 * service (SQLite, PostgreSQL): open to every plan while webhook fields stay on paid plans (a document naming one,
 * directly or through a fragment, is refused whole), the same operations and rules as the REST routes (replacement,
 * audit trail, Relay paging, another organization's id not found, refusals as field errors with the registry code),
 * and a correction filed here decides the transaction route.
 */
import { buildSchema, parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryCost } from '../../../src/http/graphql/query-cost.js';
import { GRAPHQL_LIST_SIZES, GRAPHQL_SDL } from '../../../src/http/graphql/graphql-schema.js';
import { holdBrand } from '../../../eval/transactions/eval-store.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { bearer, startTestStack, type TestStack } from '../../helpers/test-stack.js';

describeEachBackend('GraphQL merchant corrections', (backend) => {
  let stack: TestStack;

  interface GqlAnswer {
    status: number;
    headers: Record<string, unknown>;
    data: Record<string, any> | null; // eslint-disable-line @typescript-eslint/no-explicit-any -- GraphQL answers are shaped by each query
    errors: { message: string; path?: string[]; extensions: { code: string; status: number } }[] | undefined;
  }

  async function gql(key: string, query: string, variables: Record<string, unknown> = {}): Promise<GqlAnswer> {
    const res = await stack.app.inject({ method: 'POST', url: '/graphql', headers: bearer(key), payload: { query, variables } });
    const body = res.json();
    return { status: res.statusCode, headers: res.headers, data: body.data ?? null, errors: body.errors };
  }

  const FIELDS = 'id transactionLabel key countryCode domain notMerchant createdAt createdBy removedAt removedBy';
  const ADD = `mutation($input: AddMerchantCorrectionInput!) { addMerchantCorrection(input: $input) { correction { ${FIELDS} } replaced { id removedAt removedBy } } }`;
  const REMOVE = `mutation($id: ID!) { removeMerchantCorrection(id: $id) { ${FIELDS} } }`;
  const LIST = `query($first: Int, $after: String, $removed: Boolean) { merchantCorrections(first: $first, after: $after, includeRemoved: $removed) { edges { cursor node { ${FIELDS} } } pageInfo { hasNextPage endCursor } } }`;

  beforeAll(async () => {
    stack = await startTestStack({}, { backend });
    await holdBrand(stack.services.stores.brands, { domain: 'rulemerchant.com', name: 'Rule Merchant', countryCode: 'US' });
    await holdBrand(stack.services.stores.brands, { domain: 'correctedmerchant.com', name: 'Corrected Merchant', countryCode: 'US' });
  });
  afterAll(async () => stack?.close());

  it('serves a free-plan organization its corrections; a document naming a webhook field is refused whole', async () => {
    const { key, keyId } = await stack.newKey({ plan: 'free', quota: 10 });
    const added = await gql(key, ADD, { input: { transactionLabel: 'SQ *BLUE BOTTLE COF 4', countryCode: 'us', domain: 'bluebottlecoffee.com' } });
    expect(added.status).toBe(200);
    expect(added.errors).toBeUndefined();
    expect(added.data?.addMerchantCorrection).toEqual({
      correction: {
        id: expect.stringMatching(/^mco_/),
        transactionLabel: 'SQ *BLUE BOTTLE COF 4',
        key: 'blue bottle cof',
        countryCode: 'US',
        domain: 'bluebottlecoffee.com',
        notMerchant: false,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        createdBy: keyId,
        removedAt: null,
        removedBy: null,
      },
      replaced: null,
    });
    expect((await gql(key, '{ __typename merchantCorrections { edges { cursor } } }')).status).toBe(200);

    for (const query of [
      '{ merchantCorrections { edges { cursor } } webhooks { edges { cursor } } }',
      'query { ...both } fragment both on Query { merchantCorrections { edges { cursor } } webhooks { edges { cursor } } }',
      'query { ... on Query { webhooks { edges { cursor } } } }',
    ]) {
      const refused = await gql(key, query);
      expect(refused.status, query).toBe(403);
      expect(refused.headers['x-bf-error']).toBe('paid_plan_required');
      expect(refused.errors).toEqual([{ message: 'Webhooks are available on paid plans only.', extensions: { code: 'paid_plan_required', status: 403 } }]);
    }
    // Refused whole: nothing of the document ran.
    const mutation = await gql(key, `mutation { addMerchantCorrection(input: {transactionLabel: "OTHER SHOP", notMerchant: true}) { correction { id } } createWebhook(input: {url: "https://hooks.example.com/"}) { secret } }`);
    expect(mutation.status).toBe(403);
    expect((await gql(key, LIST)).data?.merchantCorrections.edges).toHaveLength(1);
  });

  it('replaces, lists newest first with Relay paging and the audit trail, and removes', async () => {
    const { key, keyId } = await stack.newKey();
    const ids: string[] = [];
    for (const word of ['ALPHA', 'BRAVO', 'CHARLIE']) ids.unshift((await gql(key, ADD, { input: { transactionLabel: `${word} STORES 1`, notMerchant: true } })).data?.addMerchantCorrection.correction.id);
    const replacing = (await gql(key, ADD, { input: { transactionLabel: 'CHARLIE STORES 2', domain: 'charlie.example' } })).data?.addMerchantCorrection;
    expect(replacing.replaced).toMatchObject({ id: ids[0], removedBy: keyId, removedAt: replacing.correction.createdAt });

    const first = (await gql(key, LIST, { first: 2 })).data?.merchantCorrections;
    expect(first.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([replacing.correction.id, ids[1]]);
    expect(first.pageInfo).toEqual({ hasNextPage: true, endCursor: first.edges[1].cursor });
    const rest = (await gql(key, LIST, { first: 2, after: first.pageInfo.endCursor })).data?.merchantCorrections;
    expect(rest.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([ids[2]]);
    expect(rest.pageInfo.hasNextPage).toBe(false);
    const trail = (await gql(key, LIST, { removed: true })).data?.merchantCorrections.edges.map((e: { node: { id: string } }) => e.node.id);
    expect(trail).toEqual([replacing.correction.id, ...ids]);

    const removed = await gql(key, REMOVE, { id: ids[2] });
    expect(removed.data?.removeMerchantCorrection).toMatchObject({ id: ids[2], removedBy: keyId, removedAt: expect.any(String) });
  });

  it('answers refusals as field errors with the registry code; another organization\'s id is not found', async () => {
    const mine = await stack.newKey();
    const theirs = await stack.newKey();
    const id: string = (await gql(theirs.key, ADD, { input: { transactionLabel: 'THEIR SHOP', notMerchant: true } })).data?.addMerchantCorrection.correction.id;
    const foreign = await gql(mine.key, REMOVE, { id });
    expect(foreign.status).toBe(200);
    expect(foreign.errors).toEqual([{ message: 'Correction not found.', path: ['removeMerchantCorrection'], locations: expect.any(Array), extensions: { code: 'correction_not_found', status: 404 } }]);
    const invalid = await gql(mine.key, ADD, { input: { transactionLabel: 'ACME', domain: 'acme.example', notMerchant: true } });
    expect(invalid.errors?.[0]).toMatchObject({ message: "Invalid correction: send either domain (the merchant's domain) or notMerchant: true.", extensions: { code: 'invalid_correction', status: 400 } });
    expect((await gql(mine.key, LIST, { first: 0 })).errors?.[0]?.extensions.code).toBe('invalid_page_size');
    expect((await gql(mine.key, LIST, { after: 'nope' })).errors?.[0]?.extensions.code).toBe('invalid_cursor');
    expect((await gql(theirs.key, LIST)).data?.merchantCorrections.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([id]);
  });

  it('a correction filed here decides the transaction route for the organization', async () => {
    const { key } = await stack.newKey();
    await gql(key, ADD, { input: { transactionLabel: 'RULE MERCHANT 0042', domain: 'correctedmerchant.com' } });
    const res = await stack.app.inject({ method: 'POST', url: '/v2/brands/transaction', headers: { ...bearer(key), 'content-type': 'application/json' }, payload: { transactionLabel: 'RULE MERCHANT 77', countryCode: 'US' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().domain).toBe('correctedmerchant.com');
    expect(res.headers['x-bf-match-source']).toBe('correction');
  });
});

describe('query cost of the corrections (query-cost.ts)', () => {
  const schema = buildSchema(GRAPHQL_SDL);
  const costOf = (query: string) => queryCost(schema, parse(query), { defaultPageSize: 100, maxPageSize: 100, listSizes: GRAPHQL_LIST_SIZES }).cost;

  it('sizes merchantCorrections like any connection, by its first (default 100, at most 100)', () => {
    expect(costOf('{ merchantCorrections { edges { node { id } } } }')).toBe(202);
    expect(costOf('{ merchantCorrections(first: 10) { edges { node { id } } } }')).toBe(22);
    expect(costOf('{ merchantCorrections(first: 1000) { edges { node { id } } } }')).toBe(202);
    expect(costOf('mutation { addMerchantCorrection(input: {transactionLabel: "x", notMerchant: true}) { correction { id } replaced { id } } }')).toBe(5);
  });
});
