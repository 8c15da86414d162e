/** HEAD prefetch (spec 4.2, section 3 Brand rows) through inject on the real service and its real jobs table. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';
import { sampleBrand } from '../store/sample-brand.js';
import { describeEachBackend } from '../helpers/backends.js';

describeEachBackend('HEAD prefetch', (backend) => {
  let stack: TestStack;
  let key: string;

  const head = (url: string, k = key, target = stack) => target.app.inject({ method: 'HEAD', url, headers: bearer(k) });

  beforeAll(async () => {
    stack = await startTestStack({ BRANDBASE_QUEUE_MAX_DEPTH: '5' }, { backend });
    const now = new Date();
    const save = (domain: string, status: 'indexed' | 'removed') =>
      stack.services.stores.brands.saveBrand({ brand: sampleBrand(domain, { isNsfw: domain === 'adult.test' }), status, crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: domain }]);
    await save('acme.com', 'indexed');
    await save('adult.test', 'indexed');
    await save('gone.test', 'removed');
    ({ key } = await stack.newKey({ quota: 10 }));
  });

  afterAll(async () => stack?.close());

  describe('HEAD /v2/brands/{identifier}', () => {
    it('200 for a held brand, whatever a later GET would filter (no allowNsfw)', async () => {
      for (const url of ['/v2/brands/acme.com', '/v2/brands/jane@acme.com', '/v2/brands/domain/acme.com', '/v2/brands/adult.test']) {
        const res = await head(url);
        expect(res.statusCode, url).toBe(200);
        expect(res.body).toBe('');
      }
    });

    it('202 and a queued crawl for an unindexed domain or email domain; asked twice, queued once', async () => {
      const before = await stack.services.queue.depth();
      expect((await head('/v2/brands/fresh-domain.test')).statusCode).toBe(202);
      expect((await head('/v2/brands/domain/www.fresh-domain.test')).statusCode).toBe(202);
      expect((await head('/v2/brands/someone@other-fresh.test')).statusCode).toBe(202);
      expect(await stack.services.queue.depth()).toBe(before + 2);
    });

    it('404 for identifiers that cannot have a crawl queued, and for a removed brand', async () => {
      for (const url of ['/v2/brands/AAPL', '/v2/brands/US0378331005', '/v2/brands/brd_aaaaaaaaaaaaaaaaaaaa', `/v2/brands/${encodeURIComponent('https://url-only.test/x')}`, '/v2/brands/gone.test']) {
        expect((await head(url)).statusCode, url).toBe(404);
      }
    });

    it('never consumes a credit', async () => {
    // Its own organization and requests: a held brand, a queued crawl, an identifier that cannot be queued, a bad one.
    const own = await stack.newKey({ quota: 10 });
    const answers = [];
    for (const url of ['/v2/brands/acme.com', '/v2/brands/credit-free-fresh.test', '/v2/brands/AAPL', '/v2/brands/http%3A%2F%2F127.0.0.1']) {
      answers.push((await head(url, own.key)).statusCode);
    }
    expect(answers).toEqual([200, 202, 404, 400]);
    expect(await stack.services.meter.exactUsed(own.orgId)).toBe(0);
    // The same key's GET of the held brand is charged: the count above is one that can move.
    expect((await stack.app.inject({ method: 'GET', url: '/v2/brands/acme.com', headers: bearer(own.key) })).statusCode).toBe(200);
    expect(await stack.services.meter.exactUsed(own.orgId)).toBe(1);
    });

    it('400 for an email address on the domain route and for an invalid identifier', async () => {
      expect((await head('/v2/brands/domain/jane@acme.com')).statusCode).toBe(400);
      expect((await head('/v2/brands/http%3A%2F%2F127.0.0.1')).statusCode).toBe(400);
    });

    it('403 with x-bf-error paid_plan_required on the free plan', async () => {
      const free = await stack.newKey({ plan: 'free', quota: 500 });
      const res = await head('/v2/brands/acme.com', free.key);
      expect(res.statusCode).toBe(403);
      expect(res.headers['x-bf-error']).toBe('paid_plan_required');
      expect(res.body).toBe('');
    });

    it('402 without a credential, 403 with an unknown key', async () => {
      expect((await stack.app.inject({ method: 'HEAD', url: '/v2/brands/acme.com' })).statusCode).toBe(402);
      expect((await head('/v2/brands/acme.com', 'bb_live_nopenopenopenopenopenopenopenopenopenopenope')).statusCode).toBe(403);
    });

    it('503 with x-bf-error temporarily_unavailable when the queue is full (a real bound on depth)', async () => {
      // A service of its own: filling the shared one's queue would turn the other tests' 202s into 503s whenever
      // this test happened to run first.
      const own = await startTestStack({ BRANDBASE_QUEUE_MAX_DEPTH: '5' }, { backend });
      try {
        const { key: ownKey } = await own.newKey({ quota: 10 });
        const codes: number[] = [];
        for (let i = 0; i < 8; i++) codes.push((await head(`/v2/brands/flood-${i}.test`, ownKey, own)).statusCode);
        expect(codes.filter((c) => c === 202)).toHaveLength(5);
        const full = await head('/v2/brands/one-more.test', ownKey, own);
        expect(full.statusCode).toBe(503);
        expect(full.headers['x-bf-error']).toBe('temporarily_unavailable');
        expect(await own.services.queue.depth()).toBe(5);
      } finally {
        await own.close();
      }
    });
  });
});
