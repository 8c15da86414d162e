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
import { LinkChecker, urlsInHeaders, urlsInJson } from '../helpers/link-checker.js';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';
import { sampleBrand } from '../store/sample-brand.js';
import { challengeOf, newWallet, raceTwoPayments } from '../payments/x402-wallet.js';

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
  stack = await startTestStack({ BRANDBASE_QUEUE_MAX_DEPTH: '1' });
  const now = new Date();
  await stack.services.store.saveBrand({ brand: sampleBrand('acme.com'), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: 'acme.com' }]);
  ({ key } = await stack.newKey({ quota: 1000 }));
  const doc = (await stack.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, unknown> };
  templates = new Set(Object.keys(doc.paths));
});

afterAll(async () => stack?.close());

async function inject(method: 'GET' | 'HEAD' | 'POST', url: string, headers: Record<string, string> = {}, payload?: string | object): Promise<Answer> {
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

/** One real request (or more) per error code, each answering that code. */
async function triggers(): Promise<[ErrorCode, string, Answer][]> {
  const free = await stack.newKey({ plan: 'free', quota: 0 });
  const empty = await stack.newKey({ plan: 'paid', quota: 0, overage: false });
  const one = await stack.newKey({ quota: 1, overage: false });
  const slow = await stack.newKey({ quota: 1000 });
  await stack.services.store.updateOrganization(slow.orgId, { rateLimitPerMinute: 1 });
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
  await add('payment_invalid', 'payment from an empty wallet', inject('GET', '/v2/brands/acme.com', { 'payment-signature': await (await newWallet(stack.services.store, 0n)).pay(challenge) }));
  const paid = await (await newWallet(stack.services.store, 1_000_000n)).pay(challenge);
  await inject('GET', '/v2/brands/acme.com', { 'payment-signature': paid });
  await add('payment_replayed', 'the same payment again', inject('GET', '/v2/brands/acme.com', { 'payment-signature': paid }));
  const raced = (await raceTwoPayments(stack.app, stack.services.store, '/v2/brands/acme.com')).find((a) => a.statusCode === 402);
  if (raced) await add('payment_settlement_failed', 'balance spent between verify and settle', { status: raced.statusCode, headers: raced.headers as Answer['headers'], body: raced.body });
  await add('invalid_api_key', 'unknown key', inject('GET', '/v2/brands/acme.com', bearer('bb_live_nope')));
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
  await add('payments_not_configured', 'buying standing access', inject('POST', '/v2/agents/access?usd=5'));
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
