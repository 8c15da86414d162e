/**
 * Every URL the service hands out leads somewhere. Each error code of the registry is triggered for real (one
 * request each, on the real service), and with it the access offer and the OpenAPI document; every URL in their
 * bodies and headers is followed against the same app, then every link of every documentation page reached
 * from there. A link must answer 2xx and a `#fragment` must be an element id of its page (link-checker.ts).
 */
import { readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, type ErrorCode } from '../../src/domain/errors.js';
import { rawErrorResponse } from '../../src/http/client-errors.js';
import { buildApp } from '../../src/http/app.js';
import { docUrl } from '../../src/http/doc-urls.js';
import { appDepsFor } from '../../src/main/app-deps.js';
import { AccessSales } from '../../src/payments/access-sales.js';
import { noStandingAccess } from '../../src/payments/standing-access.js';
import { LinkChecker, urlsInHeaders, urlsInJson } from '../helpers/link-checker.js';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';
import { sampleBrand } from '../store/sample-brand.js';
import { challengeOf, newWallet, raceTwoPayments } from '../payments/x402-wallet.js';
import { MerchantCorrections } from '../../src/transactions/corrections/merchant-corrections.js';

const PUBLIC_URL = 'http://brandbase.test';
const BODY_LIMIT = 1024 * 1024;

interface Answer {
  status: number;
  headers: LightMyRequestResponse['headers'];
  body: string;
}

let stack: TestStack;
let key: string;
let templates: Set<string>;

beforeAll(async () => {
  // One webhook per organization: the second createWebhook answers too_many_webhooks.
  stack = await startTestStack({ BRANDBASE_QUEUE_MAX_DEPTH: '1', BRANDBASE_WEBHOOKS_PER_ORG: '1' });
  const now = new Date();
  await stack.services.stores.brands.saveBrand({ brand: sampleBrand('acme.com'), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: 'acme.com' }]);
  ({ key } = await stack.newKey({ quota: 1000 }));
  const doc = (await stack.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, unknown> };
  templates = new Set(Object.keys(doc.paths));
});

afterAll(async () => stack?.close());

async function inject(method: 'GET' | 'HEAD' | 'POST' | 'DELETE', url: string, headers: Record<string, string> = {}, payload?: string | object): Promise<Answer> {
  const res = await stack.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
  return { status: res.statusCode, headers: res.headers, body: res.body };
}

/** An answer Node's parser path writes on the raw connection (client-errors.ts), read back as status, headers, body. */
function rawAnswer(code: ErrorCode): Answer {
  const [head = '', body = ''] = rawErrorResponse(code).split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

/** An answer of the real 500 path: a service whose store is closed fails its readiness probe. */
async function internalError(): Promise<Answer> {
  const broken = await startTestStack();
  await broken.services.close();
  try {
    const res = await broken.app.inject({ method: 'GET', url: '/healthz' });
    return { status: res.statusCode, headers: res.headers, body: res.body };
  } finally {
    await broken.app.close();
    await rm(broken.dataDir, { recursive: true, force: true });
  }
}

/**
 * Standing access on the same services but another sale: off (noStandingAccess: payments_not_configured), or one whose
 * delivery fails after the payment (access_purchase_pending). Signs a purchase of 1 USD against the stack's own
 * offer when `pay` is set.
 */
async function accessAnswer(failing: boolean, pay: boolean): Promise<Answer> {
  const p = stack.services.config.payments;
  const sales = failing
    ? new AccessSales({
        ...stack.services.stores,
        accounts: stack.services.stores.billing,
        settings: { network: p.network, asset: p.asset, assetName: p.assetName, assetVersion: p.assetVersion, payTo: p.payTo, priceUnits: p.priceUnits, maxTimeoutSeconds: p.maxTimeoutSeconds, facilitatorUrl: null },
        mppSecretKey: null,
        publicUrl: PUBLIC_URL,
        installationKey: () => Buffer.alloc(32, 7),
        logger: stack.services.logger,
        beforeDelivery: () => Promise.reject(new Error('injected: the answer could not be written')),
      })
    : noStandingAccess(docUrl(PUBLIC_URL, 'standingAccess'));
  const app = await buildApp({ ...appDepsFor(stack.services), access: sales });
  try {
    const headers = pay ? { 'payment-signature': await (await newWallet(stack.services.stores.payments, 1_000_000n)).pay(challengeOf((await inject('POST', '/v2/agents/access?usd=1')).headers)) } : {};
    const res = await app.inject({ method: 'POST', url: '/v2/agents/access?usd=1', headers });
    return { status: res.statusCode, headers: res.headers, body: res.body };
  } finally {
    await app.close();
  }
}

/** `POST /v2/transactions/corrections` on the same services but corrections that allow none to apply: 409. */
async function correctionsAtBound(headers: Record<string, string>): Promise<Answer> {
  const corrections = new MerchantCorrections(stack.services.stores.merchantCorrections, { limits: { maxActive: 0, maxAdded: 10, windowMs: 60_000 } });
  const app = await buildApp({ ...appDepsFor(stack.services), corrections });
  try {
    const res = await app.inject({ method: 'POST', url: '/v2/transactions/corrections', headers, payload: { transactionLabel: 'ACME STORE', notMerchant: true } });
    return { status: res.statusCode, headers: res.headers, body: res.body };
  } finally {
    await app.close();
  }
}

/** One real request (or more) per error code, each answering that code. */
async function triggers(): Promise<[ErrorCode, string, Answer][]> {
  const free = await stack.newKey({ plan: 'free', quota: 0 });
  const empty = await stack.newKey({ plan: 'paid', quota: 0, overage: false });
  const one = await stack.newKey({ quota: 1, overage: false });
  const slow = await stack.newKey({ quota: 1000 });
  await stack.services.stores.billing.updateOrganization(slow.orgId, { rateLimitPerMinute: 1 });
  const k = bearer(key);
  const all: [ErrorCode, string, Answer][] = [];
  const add = async (code: ErrorCode, what: string, answer: Answer | Promise<Answer>): Promise<void> => {
    all.push([code, what, await answer]);
  };
  await add('bad_request', 'invalid ISIN', inject('GET', '/v2/brands/isin/US0000000001', k));
  await add('bad_request', 'invalid batch body', inject('POST', '/v2/brands/batch', k, { identifiers: [] }));
  await add('bad_request', 'bytes the parser refuses', rawAnswer('bad_request'));
  await add('invalid_identifier', 'invalid identifier', inject('GET', '/v2/brands/http%3A%2F%2F127.0.0.1', k));
  await add('malformed_authorization', 'Basic credentials', inject('GET', '/v2/brands/acme.com', { authorization: 'Basic x' }));
  await add('missing_credentials', 'batch without a key', inject('POST', '/v2/brands/batch', {}, { identifiers: ['acme.com'] }));
  await add('missing_credentials', 'viewer without a key (agentAccess)', inject('GET', '/v2/viewer'));
  for (const url of ['/v2/brands/acme.com', '/v2/brands/ticker/AAPL', '/v2/brands/domain/acme.com/company/industries']) {
    await add('payment_required', `${url} without a credential`, inject('GET', url));
  }
  await add('payment_malformed', 'unreadable PAYMENT-SIGNATURE', inject('GET', '/v2/brands/acme.com', { 'payment-signature': 'not a payload' }));
  const challenge = challengeOf((await inject('GET', '/v2/brands/acme.com')).headers);
  await add('payment_invalid', 'payment from an empty wallet', inject('GET', '/v2/brands/acme.com', { 'payment-signature': await (await newWallet(stack.services.stores.payments, 0n)).pay(challenge) }));
  const paid = await (await newWallet(stack.services.stores.payments, 1_000_000n)).pay(challenge);
  await inject('GET', '/v2/brands/acme.com', { 'payment-signature': paid });
  await add('payment_replayed', 'the same payment again', inject('GET', '/v2/brands/acme.com', { 'payment-signature': paid }));
  const raced = (await raceTwoPayments(stack.app, stack.services.stores.payments, '/v2/brands/acme.com')).find((a) => a.statusCode === 402);
  if (raced) await add('payment_settlement_failed', 'balance spent between verify and settle', { status: raced.statusCode, headers: raced.headers as Answer['headers'], body: raced.body });
  await add('invalid_api_key', 'unknown key', inject('GET', '/v2/brands/acme.com', bearer('bb_live_nope')));
  await add('invalid_session', 'viewer with a forged session token', inject('GET', '/v2/viewer', bearer(`eyJhbGciOiJIUzI1NiJ9.eyJzaWQiOiJzZXNfeCJ9.${'A'.repeat(43)}`)));
  await add('paid_plan_required', 'free plan without credits', inject('GET', '/v2/brands/acme.com', bearer(free.key)));
  await add('no_credits', 'paid plan without credits', inject('GET', '/v2/brands/acme.com', bearer(empty.key)));
  await add('not_found', 'ticker not resolved', inject('GET', '/v2/brands/ticker/AAPL', k));
  await add('not_found', 'industries of a brand not held', inject('GET', '/v2/brands/unheld.test/company/industries', k));
  await add('asset_not_found', 'unknown asset', inject('GET', '/assets/0000.svg'));
  await add('route_not_found', 'unknown route', inject('GET', '/v2/nothing-here'));
  await add('route_not_found', 'unknown docs page', inject('GET', '/docs/no-such-page'));
  await add('request_timeout', 'headers timeout', rawAnswer('request_timeout'));
  await add('payload_too_large', 'oversize batch', inject('POST', '/v2/brands/batch', { ...k, 'content-type': 'application/json' }, `{"identifiers":["${'a'.repeat(BODY_LIMIT)}"]}`));
  await inject('GET', '/v2/brands/acme.com', bearer(one.key));
  await add('quota_exceeded', 'single lookup over quota', inject('GET', '/v2/brands/acme.com', bearer(one.key)));
  await add('quota_exceeded', 'batch over quota (counters)', inject('POST', '/v2/brands/batch', bearer(one.key), { identifiers: ['acme.com'] }));
  await inject('GET', '/v2/brands/AAPL', bearer(slow.key));
  await add('rate_limited', 'throughput limit', inject('GET', '/v2/brands/AAPL', bearer(slow.key)));
  await add('headers_too_large', 'headers over maxHeaderSize', rawAnswer('headers_too_large'));
  await add('internal_error', 'store down', internalError());
  await add('payments_not_configured', 'buying standing access with payments off', accessAnswer(false, false));
  await add('invalid_access_amount', 'standing access for 0 dollars', inject('POST', '/v2/agents/access?usd=0'));
  await add('access_purchase_pending', 'standing access whose answer failed after the payment', accessAnswer(true, true));
  const bought = await (await newWallet(stack.services.stores.payments, 1_000_000n)).pay(challengeOf((await inject('POST', '/v2/agents/access?usd=1')).headers));
  await inject('POST', '/v2/agents/access?usd=1', { 'payment-signature': bought });
  await add('credential_already_delivered', 'the same purchase payment again', inject('POST', '/v2/agents/access?usd=1', { 'payment-signature': bought }));
  // The brand context (docs/context.md): acme.com is held without context evidence, so its context is generated by a
  // re-crawl; that job is taken off the one-job queue again, which the logo CDN and the HEADs below need empty.
  await add('generation_in_progress', 'context of a brand read before contexts existed', inject('GET', '/v2/context/acme.com', k));
  const regenerate = await stack.services.queue.claim(['crawl.brand'], 60_000);
  if (regenerate) await stack.services.queue.complete(regenerate.id);
  // Transaction enrichment (docs/transactions.md): an incomplete body, and a descriptor no merchant matches.
  await add('invalid_transaction', 'transaction body without countryCode', inject('POST', '/v2/brands/transaction', { ...k, 'content-type': 'application/json' }, { transactionLabel: 'STARBUCKS' }));
  await add('transaction_not_enriched', 'transaction no merchant matches', inject('POST', '/v2/brands/transaction', { ...k, 'content-type': 'application/json' }, { transactionLabel: 'MONTHLY SERVICE FEE', countryCode: 'US' }));
  // Merchant corrections (docs/transactions.md#corrections): a body without an answer, an id never filed, and an
  // organization at its bound (an app whose corrections allow none, so nothing needs filling).
  const json = { ...k, 'content-type': 'application/json' };
  await add('invalid_correction', 'correction without a domain or notMerchant', inject('POST', '/v2/transactions/corrections', json, { transactionLabel: 'ACME STORE' }));
  await add('correction_not_found', 'removing a correction never filed', inject('DELETE', '/v2/transactions/corrections/mco_nope', k));
  await add('too_many_corrections', 'correction past the bound', correctionsAtBound(json));
  // The MCP server (docs/mcp.md): a token never sold.
  // /metrics (docs/deployment.md#metrics): this stack has no metrics token, so no scrape of the API port is let in.
  await add('metrics_token_required', 'metrics without the metrics token', inject('GET', '/metrics', { authorization: 'Bearer not-the-token' }));
  await add('invalid_mcp_token', 'MCP token never sold', inject('POST', '/mcp', { authorization: `Bearer bb_mcp_${'x'.repeat(43)}`, 'content-type': 'application/json' }, {}));
  // Webhook management (POST /graphql, docs/webhooks.md): a resolver's refusal is a GraphQL error in a 200 answer,
  // whose own status is `extensions.status`; that error object is the answer checked.
  const hooks = await stack.newKey({ plan: 'paid' });
  const graphqlError = async (code: ErrorCode, query: string, variables: Record<string, unknown> = {}): Promise<Answer> => {
    const res = await inject('POST', '/graphql', bearer(hooks.key), { query, variables });
    const error = (JSON.parse(res.body) as { errors?: { extensions?: { code?: string; status?: number } }[] }).errors?.find((e) => e.extensions?.code === code);
    return { status: error?.extensions?.status ?? res.status, headers: res.headers, body: JSON.stringify(error ?? JSON.parse(res.body)) };
  };
  const create = 'mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { webhook { id } } }';
  const created = JSON.parse((await inject('POST', '/graphql', bearer(hooks.key), { query: create, variables: { input: { url: 'https://hooks.example.com/in' } } })).body) as { data: { createWebhook: { webhook: { id: string } } } };
  await add('webhook_not_found', 'GraphQL webhook of an unknown id', graphqlError('webhook_not_found', '{ webhook(id: "whk_nope") { id } }'));
  await add('invalid_webhook_url', 'GraphQL createWebhook with http', graphqlError('invalid_webhook_url', create, { input: { url: 'http://hooks.example.com/' } }));
  await add('invalid_webhook_input', 'GraphQL createWebhook without events', graphqlError('invalid_webhook_input', create, { input: { url: 'https://hooks.example.com/', events: [] } }));
  const domains = Array.from({ length: 1001 }, (_, i) => `d${i}.com`);
  await add('too_many_domains', 'GraphQL 1,001 domains', graphqlError('too_many_domains', 'mutation($id: ID!, $d: [String!]!) { addWebhookSubscriptions(webhookId: $id, domains: $d) { changed } }', { id: created.data.createWebhook.webhook.id, d: domains }));
  await add('too_many_webhooks', 'GraphQL createWebhook past BRANDBASE_WEBHOOKS_PER_ORG', graphqlError('too_many_webhooks', create, { input: { url: 'https://hooks.example.com/second' } }));
  await add('invalid_page_size', 'GraphQL first: 101', graphqlError('invalid_page_size', '{ webhooks(first: 101) { edges { cursor } } }'));
  await add('invalid_cursor', 'GraphQL after: a made-up cursor', graphqlError('invalid_cursor', '{ webhooks(after: "nope") { edges { cursor } } }'));
  await add('invalid_graphql_request', 'GraphQL query that does not parse', graphqlError('invalid_graphql_request', '{'));
  await add('query_too_expensive', 'GraphQL 21 root fields', graphqlError('query_too_expensive', `{ ${Array.from({ length: 21 }, (_, i) => `t${i}: __typename`).join(' ')} }`));
  // The logo CDN (on this app under /logo, docs/logo-cdn.md): each grammar refusal and both 404 fallbacks. Before
  // the HEADs below: the CDN's queued crawl fills the one-job queue, which they need full anyway.
  const cid = (await stack.services.clientIds.create(slow.orgId)).id;
  const cdnRefusals: [ErrorCode, string][] = [
    ['invalid_width', 'w/0'],
    ['invalid_height', 'h/2000'],
    ['invalid_theme', 'theme/grey'],
    ['invalid_fallback', 'fallback/none'],
    ['invalid_type', 'type/banner'],
    ['invalid_format', 'w/10.gif'],
    ['invalid_segment', 'size/10'],
    ['duplicate_segment', 'w/1/w/2'],
    ['svg_not_available', 'type/icon.svg'],
  ];
  for (const [code, path] of cdnRefusals) await add(code, `logo CDN /${path}`, inject('GET', `/logo/acme.com/${path}?c=${cid}`));
  await add('crawl_queued', 'logo CDN 404 fallback, brand not held', inject('GET', `/logo/logo-fresh.test/fallback/404?c=${cid}`));
  await add('logo_not_found', 'logo CDN 404 fallback, no symbol', inject('GET', `/logo/acme.com/type/symbol/fallback/404?c=${cid}`));
  // Search by name (docs/search.md): the client-ID refusals. IDs are set up before their first use (cached 5 s).
  const clientIds = stack.services.clientIds;
  const referred = (await clientIds.create(slow.orgId, { referrers: ['shop.example'] })).id;
  const required = (await clientIds.create(slow.orgId, { requireReferrer: true })).id;
  const revoked = (await clientIds.create(slow.orgId)).id;
  await clientIds.revoke(revoked);
  await add('client_id_missing', 'search without c', inject('GET', '/v2/search/acme'));
  await add('invalid_client_id', 'search with an unknown client ID', inject('GET', `/v2/search/acme?c=cid_${'a'.repeat(24)}`));
  await add('client_id_revoked', 'search with a revoked client ID', inject('GET', `/v2/search/acme?c=${revoked}`));
  await add('api_key_not_client_id', 'search with an API key as c', inject('GET', `/v2/search/acme?c=${key}`));
  await add('client_id_not_accepted', 'lookup with a client ID', inject('GET', `/v2/brands/acme.com?c=${cid}`));
  await add('referrer_not_allowed', 'search from a site not allowed', inject('GET', `/v2/search/acme?c=${referred}`, { referer: 'https://evil.example/' }));
  await add('referrer_required', 'search without a referrer, one required', inject('GET', `/v2/search/acme?c=${required}`));
  await inject('HEAD', '/v2/brands/first-fresh.test', k);
  await add('temporarily_unavailable', 'HEAD with the queue full', inject('HEAD', '/v2/brands/second-fresh.test', k));
  return all;
}

describe('links the service hands out', () => {
  it('every URL in every error body and header, the access offer, the OpenAPI document and the docs answers', async () => {
    const checker = new LinkChecker(stack.app, PUBLIC_URL, templates);
    const answers = await triggers();
    for (const [code, what, answer] of answers) {
      const from = `${code} (${what})`;
      expect(answer.status, from).toBe(ERROR_CODES[code].status);
      for (const { at, url } of urlsInHeaders(answer.headers)) checker.add(`${from} ${at}`, url);
      if (answer.body !== '') for (const { at, url } of urlsInJson(JSON.parse(answer.body))) checker.add(`${from} ${at}`, url);
    }
    // The registry is covered: a new error code needs a trigger here, so its body's links are checked too.
    const triggered = new Set(answers.map(([code]) => code));
    expect(Object.keys(ERROR_CODES).filter((code) => !triggered.has(code as ErrorCode))).toEqual([]);

    const offer = await inject('GET', '/v2/agents/access');
    expect(offer.status).toBe(200);
    for (const { at, url } of urlsInJson(JSON.parse(offer.body))) checker.add(`access offer ${at}`, url);
    // `servers` is the base every path is relative to, not a page.
    const openapi = JSON.parse((await inject('GET', '/openapi.json')).body) as unknown;
    for (const { at, url } of urlsInJson(openapi, '$', (path) => path === '$.servers')) checker.add(`openapi ${at}`, url);
    checker.add('docs index', '/docs');

    await checker.run();
    expect(checker.problems).toEqual([]);

    // Every docs page was reached from the index, so a page nobody links to is still checked.
    const docs = new URL('../../docs/', import.meta.url);
    const pages = [...readdirSync(docs), ...readdirSync(new URL('adr/', docs)).map((f) => `adr/${f}`)].filter((f) => f.endsWith('.md'));
    for (const page of pages) expect(checker.followed, page).toContain(`/docs/${page.replace(/\.md$/, '')}`);
    expect(checker.followed).toContain('/docs/billing');
    expect(checker.followed).toContain('/v2/agents/access');
  });

  it('the checker itself fails on a broken link, a missing anchor, a foreign host and an undocumented template', async () => {
    const checker = new LinkChecker(stack.app, PUBLIC_URL, templates);
    checker.add('probe', `${PUBLIC_URL}/docs/billing#no-such-section`);
    checker.add('probe', '/docs/no-such-page');
    checker.add('probe', 'https://elsewhere.example/docs');
    checker.add('probe', `${PUBLIC_URL}/v2/brands/{nothing}`);
    checker.add('probe', `${PUBLIC_URL}/docs/billing#payments`);
    await checker.run();
    const probes = checker.problems.filter((problem) => problem.startsWith('probe:'));
    expect(probes).toEqual([
      'probe: /docs/billing has no element with id "no-such-section"',
      'probe: /docs/no-such-page answered 404',
      'probe: https://elsewhere.example/docs leads outside the service',
      'probe: /v2/brands/{nothing} is a URL template that is not a path of /openapi.json',
    ]);
  });
});
