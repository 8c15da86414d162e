/**
 * `POST /graphql` (webhook management, spec 6 rule 5 and 8) through inject on the real service (SQLite, PostgreSQL), and
 * once over a real loopback server: authentication like the REST routes, the paid-plan rule, CRUD, secrets shown
 * once and sealed at rest, rotation, subscriptions (registrable domains, 1,000 cap, indexing queued), delivery
 * paging with Relay cursors over 250 rows, organization isolation and sendTestEvent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_NAMES } from '../../../src/jobs/queue.js';
import { newId } from '../../../src/domain/ids.js';
import { bearer, startTestStack, type TestStack } from '../../helpers/test-stack.js';
import { sampleBrand } from '../../store/sample-brand.js';
import { describeEachBackend, queryDatabase } from '../../helpers/backends.js';
import { readStoredData } from '../../helpers/database-files.js';
import type { WebhookTables } from '../../../src/webhooks/store/webhook-tables.js';

describeEachBackend('GraphQL webhooks', (backend) => {
  let stack: TestStack;
  let paid: { key: string; orgId: string };

  interface GqlAnswer {
    status: number;
    headers: Record<string, unknown>;
    data: Record<string, any> | null; // eslint-disable-line @typescript-eslint/no-explicit-any -- GraphQL answers are shaped by each query
    errors: { message: string; path?: string[]; extensions: { code: string; status: number } }[] | undefined;
  }

  async function gql(key: string | null, query: string, variables: Record<string, unknown> = {}): Promise<GqlAnswer> {
    const res = await stack.app.inject({ method: 'POST', url: '/graphql', headers: key === null ? {} : bearer(key), payload: { query, variables } });
    const body = res.json();
    return { status: res.statusCode, headers: res.headers, data: body.data ?? null, errors: body.errors };
  }

  const CREATE = `mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { secret webhook { id name url events enabled disabledReason hasAuthorization createdAt } } }`;

  async function createWebhook(key: string, input: Record<string, unknown> = {}): Promise<{ id: string; secret: string }> {
    const answer = await gql(key, CREATE, { input: { url: 'https://hooks.example.com/brandbase', ...input } });
    expect(answer.errors).toBeUndefined();
    return { id: answer.data?.createWebhook.webhook.id, secret: answer.data?.createWebhook.secret };
  }

  beforeAll(async () => {
    stack = await startTestStack({ BRANDBASE_CRAWL_HOSTS: JSON.stringify({ 'receiver.test': '127.0.0.1:4999' }) }, { backend });
    paid = await stack.newKey({ plan: 'paid' });
    const now = new Date();
    await stack.services.stores.brands.saveBrand({ brand: sampleBrand('acme.com'), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: 'acme.com' }]);
  });
  afterAll(async () => stack?.close());

  describe('authentication and plan', () => {
    const LIST = '{ webhooks { edges { node { id } } } }';

    it('answers 401 without a key and for a malformed header, 403 for an unknown key, with the registry code', async () => {
      const none = await gql(null, LIST);
      expect(none.status).toBe(401);
      expect(none.errors).toEqual([{ message: expect.stringContaining('Missing credentials'), extensions: { code: 'missing_credentials', status: 401 } }]);
      const malformed = await stack.app.inject({ method: 'POST', url: '/graphql', headers: { authorization: 'Token abc' }, payload: { query: LIST } });
      expect(malformed.statusCode).toBe(401);
      expect(malformed.json().errors[0].extensions.code).toBe('malformed_authorization');
      const unknown = await gql('bb_live_unknown', LIST);
      expect(unknown.status).toBe(403);
      expect(unknown.errors?.[0]?.extensions.code).toBe('invalid_api_key');
      expect(unknown.data).toBeNull();
    });

    it('refuses a free-plan organization with paid_plan_required, even one with credits', async () => {
      const free = await stack.newKey({ plan: 'free', quota: 500 });
      const answer = await gql(free.key, LIST);
      expect(answer.status).toBe(403);
      expect(answer.headers['x-bf-error']).toBe('paid_plan_required');
      expect(answer.errors).toEqual([{ message: 'Webhooks are available on paid plans only.', extensions: { code: 'paid_plan_required', status: 403 } }]);
      expect((await gql(free.key, CREATE, { input: { url: 'https://hooks.example.com/' } })).status).toBe(403);
    });

    it('answers 400 invalid_graphql_request for a query that does not parse or validate, and for a body without a query', async () => {
      const syntax = await gql(paid.key, '{ webhooks { ');
      expect(syntax.status).toBe(400);
      expect(syntax.errors?.[0]?.extensions.code).toBe('invalid_graphql_request');
      const unknownField = await gql(paid.key, '{ webhooks { secret } }');
      expect(unknownField.status).toBe(400);
      expect(unknownField.errors?.[0]?.message).toContain('secret');
      const noQuery = await stack.app.inject({ method: 'POST', url: '/graphql', headers: bearer(paid.key), payload: { variables: {} } });
      expect(noQuery.statusCode).toBe(400);
      expect(noQuery.json().errors[0].extensions.code).toBe('invalid_graphql_request');
      const badVariable = await gql(paid.key, 'query($n: Int) { webhooks(first: $n) { edges { cursor } } }', { n: 'many' });
      expect(badVariable.status).toBe(400);
    });

    it('is not billed: usage does not move', async () => {
      const key = await stack.newKey({ plan: 'paid', quota: 5 });
      for (let i = 0; i < 3; i++) expect((await gql(key.key, LIST)).status).toBe(200);
      const viewer = await stack.app.inject({ method: 'GET', url: '/v2/viewer', headers: bearer(key.key) });
      expect(viewer.json().usage.used).toBe(0);
    });

    it('has no GET route (mutations over GET are never possible)', async () => {
      const res = await stack.app.inject({ method: 'GET', url: `/graphql?query=${encodeURIComponent(LIST)}`, headers: bearer(paid.key) });
      expect(res.statusCode).toBe(404);
    });
  });

  describe('create, read, update, delete', () => {
    it('creates a webhook with defaults and returns its secret once; the secret is sealed at rest', async () => {
      const authorization = `Bearer receiver-token-${newId('req')}`;
      const answer = await gql(paid.key, CREATE, { input: { url: 'https://Hooks.Example.com/in', authorization } });
      expect(answer.errors).toBeUndefined();
      const { secret, webhook } = answer.data?.createWebhook ?? {};
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(webhook).toMatchObject({ name: 'hooks.example.com', url: 'https://hooks.example.com/in', events: ['BRAND_REBRANDED', 'BRAND_UPDATED'], enabled: true, disabledReason: null, hasAuthorization: true });
      expect(webhook.id).toMatch(/^whk_[a-z2-7]{24}$/);

      // Never again: no field of the schema returns it.
      const again = await stack.app.inject({ method: 'POST', url: '/graphql', headers: bearer(paid.key), payload: { query: `{ webhook(id: "${webhook.id}") { id name url events hasAuthorization } }` } });
      expect(again.body).not.toContain(secret);

      // Sealed at rest: neither the secret, its key bytes nor the Authorization value is in the database files.
      const stored = await stack.services.stores.webhooks.getWebhook(paid.orgId, webhook.id);
      expect(stored?.secretSealed).toMatch(/^v1\./);
      expect(stack.services.sealedBox.open(stored?.secretSealed ?? '')).toBe(secret);
      expect(stack.services.sealedBox.open(stored?.authorizationSealed ?? '')).toBe(authorization);
      const bytes = (await readStoredData(stack.database)).map((f) => f.bytes.toString('latin1')).join('');
      expect(bytes.length).toBeGreaterThan(0);
      expect(bytes).toContain(webhook.id);
      expect(bytes).not.toContain(secret.slice('whsec_'.length, 30));
      expect(bytes).not.toContain('receiver-token');
    });

    it('validates URLs: https only (http for mapped hosts), no credentials, no private address', async () => {
      const refused = async (url: string) => (await gql(paid.key, CREATE, { input: { url } })).errors?.[0];
      for (const url of ['http://hooks.example.com/', 'https://user:pw@hooks.example.com/', 'https://127.0.0.1/', 'https://[::1]/', 'https://10.1.2.3/', 'https://localhost/', 'ftp://hooks.example.com/', 'https://hooks.example.com:22/', 'https://hooks.example.com/#x', 'nope']) {
        expect((await refused(url))?.extensions, url).toEqual({ code: 'invalid_webhook_url', status: 400 });
      }
      expect((await refused('http://hooks.example.com/'))?.message).toBe('Invalid webhook URL: only https URLs are accepted.');
      const mapped = await gql(paid.key, CREATE, { input: { url: 'http://receiver.test/hook' } });
      expect(mapped.data?.createWebhook.webhook.url).toBe('http://receiver.test/hook');
    });

    it('refuses WEBHOOK_TEST and empty events, empty names and header injection', async () => {
      for (const input of [{ events: ['WEBHOOK_TEST'] }, { events: [] }, { name: '  ' }, { authorization: 'a\r\nx-evil: 1' }]) {
        const answer = await gql(paid.key, CREATE, { input: { url: 'https://hooks.example.com/', ...input } });
        expect(answer.errors?.[0]?.extensions.code, JSON.stringify(input)).toBe('invalid_webhook_input');
      }
    });

    it('updates URL, header, events, name and enabled; absent fields stay', async () => {
      const { id } = await createWebhook(paid.key, { authorization: 'Bearer t', name: 'Mine' });
      const UPDATE = `mutation($id: ID!, $input: UpdateWebhookInput!) { updateWebhook(id: $id, input: $input) { id name url events enabled disabledReason hasAuthorization } }`;
      const disabled = await gql(paid.key, UPDATE, { id, input: { enabled: false, events: ['BRAND_REBRANDED'] } });
      expect(disabled.data?.updateWebhook).toEqual({ id, name: 'Mine', url: 'https://hooks.example.com/brandbase', events: ['BRAND_REBRANDED'], enabled: false, disabledReason: 'MANUAL', hasAuthorization: true });
      const changed = await gql(paid.key, UPDATE, { id, input: { enabled: true, authorization: null, url: 'https://other.example.com/x', name: 'Renamed' } });
      expect(changed.data?.updateWebhook).toEqual({ id, name: 'Renamed', url: 'https://other.example.com/x', events: ['BRAND_REBRANDED'], enabled: true, disabledReason: null, hasAuthorization: false });
    });

    it('lists the organization\'s webhooks newest first and deletes one', async () => {
      const key = await stack.newKey({ plan: 'paid' });
      const a = await createWebhook(key.key);
      const b = await createWebhook(key.key);
      const list = await gql(key.key, '{ webhooks { edges { cursor node { id } } pageInfo { hasNextPage endCursor } } }');
      const ids = list.data?.webhooks.edges.map((e: { node: { id: string } }) => e.node.id);
      expect(new Set(ids)).toEqual(new Set([a.id, b.id]));
      expect(list.data?.webhooks.pageInfo.hasNextPage).toBe(false);
      const deleted = await gql(key.key, 'mutation($id: ID!) { deleteWebhook(id: $id) { deletedWebhookId } }', { id: a.id });
      expect(deleted.data?.deleteWebhook).toEqual({ deletedWebhookId: a.id });
      const gone = await gql(key.key, 'query($id: ID!) { webhook(id: $id) { id } }', { id: a.id });
      expect(gone.status).toBe(200);
      expect(gone.data?.webhook).toBeNull();
      expect(gone.errors?.[0]).toMatchObject({ message: 'Webhook not found.', path: ['webhook'], extensions: { code: 'webhook_not_found', status: 404 } });
    });
  });

  describe('organization isolation', () => {
    it('another organization\'s webhook answers exactly like a missing one, for every operation', async () => {
      const owner = await stack.newKey({ plan: 'paid' });
      const intruder = await stack.newKey({ plan: 'paid' });
      const { id } = await createWebhook(owner.key);
      await gql(owner.key, 'mutation($id: ID!) { addWebhookSubscriptions(webhookId: $id, domains: ["acme.com"]) { changed } }', { id });
      const missing = newId('whk');
      const operations = [
        'query($id: ID!) { webhook(id: $id) { id } }',
        'mutation($id: ID!) { updateWebhook(id: $id, input: {name: "x"}) { id } }',
        'mutation($id: ID!) { deleteWebhook(id: $id) { deletedWebhookId } }',
        'mutation($id: ID!) { rotateWebhookSecret(id: $id) { secret } }',
        'mutation($id: ID!) { addWebhookSubscriptions(webhookId: $id, domains: ["x.com"]) { changed } }',
        'mutation($id: ID!) { removeWebhookSubscriptions(webhookId: $id, domains: ["acme.com"]) { changed } }',
        'mutation($id: ID!) { sendTestEvent(webhookId: $id) { delivery { id } } }',
      ];
      for (const query of operations) {
        const foreign = await gql(intruder.key, query, { id });
        const absent = await gql(intruder.key, query, { id: missing });
        expect(foreign.errors?.[0]?.extensions.code, query).toBe('webhook_not_found');
        expect({ ...foreign, headers: null }).toEqual({ ...absent, headers: null });
      }
      const list = await gql(intruder.key, '{ webhooks { edges { node { id } } } }');
      expect(list.data?.webhooks.edges).toEqual([]);
      // Nothing the intruder did changed the owner's webhook.
      const own = await gql(owner.key, 'query($id: ID!) { webhook(id: $id) { name subscriptions { edges { node { domain } } } deliveries { edges { cursor } } } }', { id });
      expect(own.data?.webhook).toEqual({ name: 'hooks.example.com', subscriptions: { edges: [{ node: { domain: 'acme.com' } }] }, deliveries: { edges: [] } });
    });
  });

  describe('rotation', () => {
    const ROTATE = 'mutation($id: ID!, $s: Int) { rotateWebhookSecret(id: $id, expireCurrentInSeconds: $s) { secret previousSecretExpiresAt webhook { id } } }';

    it('issues a new secret; the previous one keeps signing 24 h by default, or stops at once', async () => {
      const { id, secret } = await createWebhook(paid.key);
      const before = Date.now();
      const rotated = await gql(paid.key, ROTATE, { id });
      const { secret: next, previousSecretExpiresAt } = rotated.data?.rotateWebhookSecret ?? {};
      expect(next).toMatch(/^whsec_/);
      expect(next).not.toBe(secret);
      const expires = Date.parse(previousSecretExpiresAt);
      expect(expires).toBeGreaterThanOrEqual(before + 86_400_000);
      expect(expires).toBeLessThanOrEqual(Date.now() + 86_400_000);
      const stored = await stack.services.stores.webhooks.getWebhook(paid.orgId, id);
      expect(stack.services.sealedBox.open(stored?.secretSealed ?? '')).toBe(next);
      expect(stack.services.sealedBox.open(stored?.previousSecretSealed ?? '')).toBe(secret);

      const immediate = await gql(paid.key, ROTATE, { id, s: 0 });
      expect(immediate.data?.rotateWebhookSecret.previousSecretExpiresAt).toBeNull();
      expect((await stack.services.stores.webhooks.getWebhook(paid.orgId, id))?.previousSecretSealed).toBeNull();
      expect((await gql(paid.key, ROTATE, { id, s: 604_801 })).errors?.[0]?.extensions.code).toBe('invalid_webhook_input');
    });
  });

  describe('subscriptions', () => {
    const ADD = 'mutation($id: ID!, $d: [String!]!) { addWebhookSubscriptions(webhookId: $id, domains: $d) { webhookId changed unchanged invalid { input message } queued notQueued } }';
    const REMOVE = 'mutation($id: ID!, $d: [String!]!) { removeWebhookSubscriptions(webhookId: $id, domains: $d) { changed unchanged invalid { input } } }';
    const SUBS = 'query($id: ID!, $after: String) { webhook(id: $id) { subscriptions(after: $after) { edges { cursor node { domain } } pageInfo { hasNextPage endCursor } } } }';

    it('resolves subdomains to their registrable domain, reports invalid entries and queues brands not held', async () => {
      const { id } = await createWebhook(paid.key);
      const depth = await stack.services.queue.depth();
      const answer = await gql(paid.key, ADD, { id, d: ['www.acme.com', 'ACME.com', 'shop.acme-queued.co.uk', 'not a domain', 'https://x.com/path', 'acme-queued.co.uk'] });
      expect(answer.errors).toBeUndefined();
      expect(answer.data?.addWebhookSubscriptions).toEqual({
        webhookId: id,
        changed: ['acme-queued.co.uk', 'acme.com'],
        unchanged: [],
        invalid: [
          { input: 'not a domain', message: expect.any(String) },
          { input: 'https://x.com/path', message: expect.stringContaining('URL') },
        ],
        queued: ['acme-queued.co.uk'],
        notQueued: [],
      });
      expect(await stack.services.queue.depth()).toBe(depth + 1);
      // Other tests queue crawls too (the 1,000-domain one queues 100): claim until this one's, then give the others back.
      const claimed = [];
      for (let job = await stack.services.queue.claim([JOB_NAMES.crawlBrand], 600_000); job; job = await stack.services.queue.claim([JOB_NAMES.crawlBrand], 600_000)) {
        claimed.push(job);
        if (job.key === 'acme-queued.co.uk') break;
      }
      const job = claimed.find((j) => j.key === 'acme-queued.co.uk');
      for (const other of claimed) if (other !== job) await stack.services.queue.release(other.id);
      expect(job).toMatchObject({ key: 'acme-queued.co.uk', owner: paid.orgId });

      const again = await gql(paid.key, ADD, { id, d: ['acme.com'] });
      expect(again.data?.addWebhookSubscriptions).toMatchObject({ changed: [], unchanged: ['acme.com'], queued: [] });
      const removed = await gql(paid.key, REMOVE, { id, d: ['www.acme-queued.co.uk', 'never.com'] });
      expect(removed.data?.removeWebhookSubscriptions).toEqual({ changed: ['acme-queued.co.uk'], unchanged: ['never.com'], invalid: [] });
    });

    it('takes 1,000 domains in one call and refuses 1,001 with nothing written; pages them by domain', async () => {
      const key = await stack.newKey({ plan: 'paid' });
      const { id } = await createWebhook(key.key);
      // Held so nothing is queued: this test is about the cap, not the crawl queue's bounds.
      const domains = Array.from({ length: 1001 }, (_, i) => `brand${String(i).padStart(4, '0')}.com`);
      const tooMany = await gql(key.key, ADD, { id, d: domains });
      expect(tooMany.status).toBe(200);
      expect(tooMany.data).toBeNull();
      expect(tooMany.errors?.[0]).toMatchObject({ message: 'Too many domains: at most 1,000 per call. Nothing was changed.', extensions: { code: 'too_many_domains', status: 400 } });
      expect((await gql(key.key, SUBS, { id })).data?.webhook.subscriptions.edges).toEqual([]);
      expect((await gql(key.key, REMOVE, { id, d: domains })).errors?.[0]?.extensions.code).toBe('too_many_domains');

      const thousand = await gql(key.key, ADD, { id, d: domains.slice(0, 1000) });
      expect(thousand.errors).toBeUndefined();
      expect(thousand.data?.addWebhookSubscriptions.changed).toHaveLength(1000);
      // The organization's share of the crawl queue (BRANDBASE_QUEUE_MAX_PER_ORG, default 100) bounds what is queued.
      const { queued, notQueued } = thousand.data?.addWebhookSubscriptions ?? {};
      expect(queued.length + notQueued.length).toBe(1000);
      expect(queued.length).toBe(100);

      const seen: string[] = [];
      let after: string | null = null;
      for (let pages = 0; pages < 20; pages++) {
        const page: GqlAnswer = await gql(key.key, SUBS, { id, after });
        const conn = page.data?.webhook.subscriptions;
        seen.push(...conn.edges.map((e: { node: { domain: string } }) => e.node.domain));
        if (!conn.pageInfo.hasNextPage) break;
        after = conn.pageInfo.endCursor;
      }
      expect(seen).toEqual(domains.slice(0, 1000));
    });
  });

  describe('deliveries: Relay paging over 250 rows', () => {
    let paging: string;
    let webhookId: string;
    let expected: string[];
    const T0 = Date.parse('2026-03-01T00:00:00.000Z');
    const PAGE = `query($id: ID!, $first: Int, $after: String, $filter: WebhookDeliveryFilter) {
    webhook(id: $id) { deliveries(first: $first, after: $after, filter: $filter) {
      edges { cursor node { id eventId kind domain state attemptCount createdAt deliveredAt nextAttemptAt attempts { attempt statusCode latencyMs responseExcerpt error sourceAddress startedAt } } }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`;

    beforeAll(async () => {
      const key = await stack.newKey({ plan: 'paid' });
      paging = key.key;
      webhookId = (await createWebhook(key.key)).id;
      const rows = Array.from({ length: 250 }, (_, i) => ({
        id: newId('msg'),
        webhookId,
        orgId: key.orgId,
        eventId: newId('evt'),
        kind: 'brand.updated' as const,
        domain: `d${i}.com`,
        payload: '{}',
        // Every third row shares its time with a neighbour: ties are broken by id.
        createdAt: new Date(T0 + Math.floor(i / 3) * 60_000),
        nextAttemptAt: new Date(T0 + Math.floor(i / 3) * 60_000),
      }));
      for (const row of rows) await stack.services.stores.webhooks.insertWebhookDelivery(row);
      expected = [...rows].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1)).map((r) => r.id);
    });

    async function walk(first: number | undefined): Promise<{ ids: string[]; pages: { size: number; hasNextPage: boolean }[] }> {
      const ids: string[] = [];
      const pages: { size: number; hasNextPage: boolean }[] = [];
      let after: string | null = null;
      for (let i = 0; i < 50; i++) {
        const answer: GqlAnswer = await gql(paging, PAGE, { id: webhookId, first, after });
        expect(answer.errors).toBeUndefined();
        const conn = answer.data?.webhook.deliveries;
        for (const edge of conn.edges) expect(edge.cursor).toEqual(expect.any(String));
        expect(conn.pageInfo.endCursor).toBe(conn.edges.at(-1)?.cursor ?? null);
        expect(conn.pageInfo.startCursor).toBe(conn.edges[0]?.cursor ?? null);
        expect(conn.pageInfo.hasPreviousPage).toBe(false);
        ids.push(...conn.edges.map((e: { node: { id: string } }) => e.node.id));
        pages.push({ size: conn.edges.length, hasNextPage: conn.pageInfo.hasNextPage });
        if (!conn.pageInfo.hasNextPage) break;
        after = conn.pageInfo.endCursor;
      }
      return { ids, pages };
    }

    it('walks every page with first defaulting to 100: no duplicate, no miss, exact hasNextPage', async () => {
      const { ids, pages } = await walk(undefined);
      expect(pages).toEqual([
        { size: 100, hasNextPage: true },
        { size: 100, hasNextPage: true },
        { size: 50, hasNextPage: false },
      ]);
      expect(ids).toEqual(expected);
    });

    it('ends exactly on a page boundary without a phantom next page (first: 50)', async () => {
      const { ids, pages } = await walk(50);
      expect(pages.map((p) => p.hasNextPage)).toEqual([true, true, true, true, false]);
      expect(pages.every((p) => p.size === 50)).toBe(true);
      expect(ids).toEqual(expected);
    });

    it('resumes from the cursor of any edge, not only the last', async () => {
      const first = await gql(paging, PAGE, { id: webhookId, first: 10 });
      const middle = first.data?.webhook.deliveries.edges[4].cursor;
      const next = await gql(paging, PAGE, { id: webhookId, first: 3, after: middle });
      expect(next.data?.webhook.deliveries.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(expected.slice(5, 8));
    });

    it('caps first at 100 and refuses 0, negative and garbage cursors', async () => {
      for (const first of [101, 0, -1, 1000]) {
        const answer = await gql(paging, PAGE, { id: webhookId, first });
        expect(answer.errors?.[0], String(first)).toMatchObject({ message: '`first` must be between 1 and 100.', extensions: { code: 'invalid_page_size', status: 400 } });
      }
      const webhooksCursor = (await gql(paging, '{ webhooks(first: 1) { edges { cursor } } }')).data?.webhooks.edges[0].cursor;
      for (const after of ['garbage', webhooksCursor, Buffer.from('["d",1,2]').toString('base64url')]) {
        expect((await gql(paging, PAGE, { id: webhookId, after })).errors?.[0]?.extensions.code).toBe('invalid_cursor');
      }
    });

    it('filters by createdAt: from inclusive, to exclusive, paging inside the bounds', async () => {
      const from = new Date(T0 + 10 * 60_000).toISOString();
      const to = new Date(T0 + 20 * 60_000).toISOString();
      const answer = await gql(paging, PAGE, { id: webhookId, first: 100, filter: { from, to } });
      const edges = answer.data?.webhook.deliveries.edges;
      expect(edges).toHaveLength(30);
      expect(edges.map((e: { node: { createdAt: string } }) => e.node.createdAt).every((t: string) => t >= from && t < to)).toBe(true);
      expect(answer.data?.webhook.deliveries.pageInfo.hasNextPage).toBe(false);
      const bad = await gql(paging, PAGE, { id: webhookId, filter: { from: 'yesterday' } });
      expect(bad.status).toBe(400);
    });

    it('shows a delivery\'s attempts with status, latency and excerpt', async () => {
      const id = expected[0] ?? '';
      const startedAt = new Date(T0 + 100_000_000);
      const webhooks = stack.services.stores.webhooks;
      expect(await webhooks.recordWebhookAttempt({ deliveryId: id, attempt: 1, startedAt, statusCode: 503, latencyMs: 41, responseExcerpt: 'busy', error: null, sourceAddress: '127.0.0.1', outcome: 'retry', nextAttemptAt: new Date(startedAt.getTime() + 60_000) })).toBe(true);
      const answer = await gql(paging, PAGE, { id: webhookId, first: 1 });
      expect(answer.data?.webhook.deliveries.edges[0].node).toMatchObject({
        id,
        kind: 'BRAND_UPDATED',
        state: 'PENDING',
        attemptCount: 1,
        nextAttemptAt: new Date(startedAt.getTime() + 60_000).toISOString(),
        attempts: [{ attempt: 1, statusCode: 503, latencyMs: 41, responseExcerpt: 'busy', error: null, sourceAddress: '127.0.0.1', startedAt: startedAt.toISOString() }],
      });
    });
  });

  describe('sendTestEvent', () => {
    const SEND = 'mutation($id: ID!, $domain: String) { sendTestEvent(webhookId: $id, domain: $domain) { delivery { id eventId kind domain state attemptCount createdAt nextAttemptAt } } }';

    async function payloadOf(deliveryId: string): Promise<Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON payload
      const row = await queryDatabase<{ payload: string }, WebhookTables>(stack.database, (db) => db.selectFrom('webhook_deliveries').select('payload').where('id', '=', deliveryId).executeTakeFirstOrThrow());
      return JSON.parse(row.payload);
    }

    it('creates a pending webhook.test delivery, due now, listed under the webhook', async () => {
      const { id } = await createWebhook(paid.key);
      const answer = await gql(paid.key, SEND, { id });
      expect(answer.errors).toBeUndefined();
      const delivery = answer.data?.sendTestEvent.delivery;
      expect(delivery).toMatchObject({ id: expect.stringMatching(/^msg_/), eventId: expect.stringMatching(/^evt_/), kind: 'WEBHOOK_TEST', domain: 'example.com', state: 'PENDING', attemptCount: 0 });
      expect(delivery.nextAttemptAt).toBe(delivery.createdAt);
      const listed = await gql(paid.key, 'query($id: ID!) { webhook(id: $id) { deliveries { edges { node { id kind } } } } }', { id });
      expect(listed.data?.webhook.deliveries.edges).toEqual([{ node: { id: delivery.id, kind: 'WEBHOOK_TEST' } }]);
      const payload = await payloadOf(delivery.id);
      expect(payload).toEqual({ type: 'webhook.test', id: delivery.eventId, timestamp: delivery.createdAt, data: { brand: expect.objectContaining({ domain: 'example.com', name: 'Example' }), changedFields: [] } });
    });

    it('carries a held subscribed brand, serialized as GET answers it', async () => {
      const { id } = await createWebhook(paid.key);
      await gql(paid.key, 'mutation($id: ID!) { addWebhookSubscriptions(webhookId: $id, domains: ["acme.com"]) { changed } }', { id });
      const delivery = (await gql(paid.key, SEND, { id })).data?.sendTestEvent.delivery;
      expect(delivery.domain).toBe('acme.com');
      const get = await stack.app.inject({ method: 'GET', url: '/v2/brands/acme.com', headers: bearer(paid.key) });
      const { qualityScore: _a, ...brand } = (await payloadOf(delivery.id)).data.brand;
      const { qualityScore: _b, ...served } = get.json();
      expect(brand).toEqual(served);
      const named = await gql(paid.key, SEND, { id, domain: 'www.unknown-brand.com' });
      expect(named.errors?.[0]?.extensions.code).toBe('invalid_webhook_input');
    });
  });

  describe('over a real server', () => {
    it('creates and lists a webhook through a listening socket', async () => {
      const address = await stack.app.listen({ port: 0, host: '127.0.0.1' });
      const post = (query: string, variables: Record<string, unknown> = {}) =>
        fetch(`${address}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer(paid.key) }, body: JSON.stringify({ query, variables }) });
      const created = await post(CREATE, { input: { url: 'https://real.example.com/hook', name: 'Real' } });
      expect(created.status).toBe(200);
      expect(created.headers.get('cache-control')).toBe('no-store');
      const { webhook } = ((await created.json()) as { data: { createWebhook: { webhook: { id: string } } } }).data.createWebhook;
      const read = await post('query($id: ID!) { webhook(id: $id) { name url } }', { id: webhook.id });
      expect(await read.json()).toEqual({ data: { webhook: { name: 'Real', url: 'https://real.example.com/hook' } } });
      const refused = await fetch(`${address}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ webhooks { edges { cursor } } }' }) });
      expect(refused.status).toBe(401);
    });
  });
});
