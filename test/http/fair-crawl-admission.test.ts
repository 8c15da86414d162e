/**
 * Fair admission to the crawl queue (issue 33, ADR 0050) on the real service (SQLite and PostgreSQL), with no crawl
 * worker: nothing is claimed, so only admission is observed.
 *
 * The measured attack: the queue's depth was ten organizations' shares, and a dollar's worth of standing access per
 * organization filled it; a paid victim's HEAD answered 503, its batch miss 500, its webhook subscription queued
 * nothing. Here the same proportions (depth 30, share 3) are flooded by more dollar accounts, bought through
 * `POST /v2/agents/access` with real x402 payments, than it takes to fill it; the paid victim is still admitted.
 * And a client ID, public by nature (its Referer check is advisory: a server-side client sends any), floods the
 * logo CDN with brands not held: its crawls use a share of their own, never the organization's HEAD and batch.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildCdnApp } from '../../src/http/cdn/build-cdn-app.js';
import { cdnDepsFor } from '../../src/main/cdn-deps.js';
import { clientIdOwner } from '../../src/brands/crawl-scheduler.js';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';
import { describeEachBackend, queryDatabase } from '../helpers/backends.js';
import { challengeOf, newWallet } from '../payments/x402-wallet.js';

const head = (stack: TestStack, key: string, domain: string) => stack.app.inject({ method: 'HEAD', url: `/v2/brands/${domain}`, headers: bearer(key) });

async function batch(stack: TestStack, key: string, identifiers: string[]): Promise<{ status: number; code?: string }[]> {
  const res = await stack.app.inject({ method: 'POST', url: '/v2/brands/batch', headers: bearer(key), payload: { identifiers } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ results: { status: number; code?: string }[] }>().results;
}

/** The organization's queued or running jobs, read below the queue port. */
function activeJobsOf(stack: TestStack, owner: string): Promise<number> {
  return queryDatabase<number, { jobs: { owner: string | null; state: string } }>(stack.database, async (db) => {
    const row = await db.selectFrom('jobs').select((eb) => eb.fn.countAll<number | string>().as('n')).where('owner', '=', owner).where('state', 'in', ['queued', 'running']).executeTakeFirstOrThrow();
    return Number(row.n);
  });
}

describeEachBackend('fair crawl-queue admission: many dollar accounts', (backend) => {
  let stack: TestStack;

  beforeAll(async () => {
    // Ten shares of three make the depth, as in the measured attack (ten shares of 100); a new unpaid organization's
    // share is two, and a quarter of the depth (7) is kept for paid organizations (its default).
    stack = await startTestStack({ BRANDBASE_QUEUE_MAX_DEPTH: '30', BRANDBASE_QUEUE_MAX_PER_ORG: '3', BRANDBASE_QUEUE_MAX_PER_NEW_ORG: '2', BRANDBASE_WORKER_CONCURRENCY: '0' }, { backend });
  });
  afterAll(async () => stack?.close());

  /** Standing access as an agent buys it: the 402, a signed x402 payment of `usd` dollars, the key once. */
  async function buyAccess(usd: number): Promise<{ apiKey: string; orgId: string }> {
    const wallet = await newWallet(stack.services.stores.payments, BigInt(usd) * 1_000_000n);
    const offer = await stack.app.inject({ method: 'POST', url: `/v2/agents/access?usd=${usd}` });
    const bought = await stack.app.inject({ method: 'POST', url: `/v2/agents/access?usd=${usd}`, headers: { 'payment-signature': await wallet.pay(challengeOf(offer.headers)) } });
    expect(bought.statusCode, bought.body).toBe(200);
    const body = bought.json<{ apiKey: string; organization: { id: string } }>();
    return { apiKey: body.apiKey, orgId: body.organization.id };
  }

  it('they fill at most the unreserved part; a paid organization\'s HEAD, batch miss and webhook subscription still queue', async () => {
    const accounts = [];
    for (let i = 0; i < 12; i++) accounts.push(await buyAccess(1));
    const statuses: number[] = [];
    for (const [i, account] of accounts.entries()) {
      for (const leg of ['a', 'b']) statuses.push((await head(stack, account.apiKey, `small-${i}-${leg}.test`)).statusCode);
    }
    // Eleven dollar accounts fill their share of two; the twelfth finds the 23 places outside the reserve taken.
    expect(statuses).toEqual([...Array<number>(23).fill(202), 503]);
    // Past its share a HEAD answers 503 and a batch miss 500 (spec 4.2 and 4.3: request again later).
    const third = await head(stack, accounts[0]!.apiKey, 'small-0-c.test');
    expect(third.statusCode).toBe(503);
    expect(third.headers['x-bf-error']).toBe('temporarily_unavailable');
    expect(await batch(stack, accounts[1]!.apiKey, ['small-1-c.test'])).toEqual([expect.objectContaining({ status: 500 })]);
    expect(await stack.services.queue.depth()).toBe(23);

    const victim = await stack.newKey({ plan: 'paid' });
    expect((await head(stack, victim.key, 'victim-head.test')).statusCode).toBe(202);
    expect(await batch(stack, victim.key, ['victim-batch.test'])).toEqual([expect.objectContaining({ status: 202, code: 'crawl_queued' })]);
    const created = await stack.app.inject({ method: 'POST', url: '/graphql', headers: bearer(victim.key), payload: { query: 'mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { webhook { id } } }', variables: { input: { url: 'https://hooks.example.com/in' } } } });
    const webhookId = created.json<{ data: { createWebhook: { webhook: { id: string } } } }>().data.createWebhook.webhook.id;
    const added = await stack.app.inject({ method: 'POST', url: '/graphql', headers: bearer(victim.key), payload: { query: 'mutation($id: ID!, $d: [String!]!) { addWebhookSubscriptions(webhookId: $id, domains: $d) { queued notQueued } }', variables: { id: webhookId, d: ['victim-hook.test'] } } });
    expect(added.json<{ data: { addWebhookSubscriptions: unknown } }>().data.addWebhookSubscriptions).toEqual({ queued: ['victim-hook.test'], notQueued: [] });
    expect(await activeJobsOf(stack, victim.orgId)).toBe(3);

    // Standing access counts by what it cost: ten dollars is real spend, so that account queues from the reserve too.
    const spender = await buyAccess(10);
    expect((await head(stack, spender.apiKey, 'spender.test')).statusCode).toBe(202);
    expect(await stack.services.queue.depth()).toBe(27);
  });
});

describeEachBackend('fair crawl-queue admission: a client ID floods the logo CDN', (backend) => {
  let stack: TestStack;
  let cdn: FastifyInstance;

  beforeAll(async () => {
    stack = await startTestStack(
      { BRANDBASE_QUEUE_MAX_PER_ORG: '4', BRANDBASE_QUEUE_MAX_PER_CLIENT_ID: '2', BRANDBASE_CRAWL_ISOLATION: 'off', BRANDBASE_WORKER_CONCURRENCY: '0', BRANDBASE_CDN_PORT: '0' },
      { backend },
    );
    cdn = await buildCdnApp(cdnDepsFor(stack.services, stack.services.clientIdGate));
  });
  afterAll(async () => {
    await cdn?.close();
    await stack?.close();
  });

  it('its crawls use the client ID share; the owner\'s HEAD and batch keep their whole share', async () => {
    const owner = await stack.newKey({ plan: 'paid' });
    // Restricted to the owner's shop: a spoofed Referer passes, as it would from any server-side client.
    const clientId = (await stack.services.clientIds.create(owner.orgId, { referrers: ['shop.example'] })).id;
    for (let i = 0; i < 12; i++) {
      const res = await cdn.inject({ method: 'GET', url: `/flood-${i}.test?c=${clientId}`, headers: { referer: 'https://shop.example/' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-bf-fallback']).toBe('default');
    }
    expect(await activeJobsOf(stack, clientIdOwner(owner.orgId))).toBe(2);
    expect(await activeJobsOf(stack, owner.orgId)).toBe(0);

    const heads = [];
    for (let i = 0; i < 3; i++) heads.push((await head(stack, owner.key, `own-${i}.test`)).statusCode);
    expect(heads).toEqual([202, 202, 202]);
    expect(await batch(stack, owner.key, ['own-batch.test'])).toEqual([expect.objectContaining({ status: 202, code: 'crawl_queued' })]);
    // Its share is exactly its own four: the fifth is refused, so the client ID's two took none of it.
    expect((await head(stack, owner.key, 'own-4.test')).statusCode).toBe(503);
    expect(await activeJobsOf(stack, owner.orgId)).toBe(4);
  });
});
