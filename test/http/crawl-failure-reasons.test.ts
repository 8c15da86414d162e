/**
 * A lookup whose crawl fails says why (issue 14): the real service (SQLite temp file, crawl workers, real
 * SafeFetcher) crawls sites on loopback that fail in every way a crawl can fail, through the host map; HTTP
 * through Fastify inject. The failure memory (in the store) then answers GET, HEAD and batch alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlFailureReason } from '../../src/domain/crawl-failures.js';
import { createWorkerPool } from '../../src/main/serve.js';
import { sampleBrand } from '../store/sample-brand.js';
import { FAILING_HOSTS, startFailingSites, UNRESOLVABLE_HOST, type FailingSites } from '../helpers/failing-sites.js';
import { FIXTURE_HOSTS, startFixtureSites, type FixtureSites } from '../helpers/fixture-sites.js';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';
import { describeEachBackend } from '../helpers/backends.js';
import { UNBOUNDED_BUDGETS_ENV } from '../helpers/unbounded-budget.js';

describeEachBackend('crawl failure reasons', (backend) => {
  const NOT_FOUND = 'No brand found for this identifier.';
  /** The spec's `payment` object of a 404 (7.1); its links belong to the payment work, not to this test. */
  const PAYMENT = { charged: false, documentation: expect.any(String) as unknown, message: expect.any(String) as unknown };

  let failing: FailingSites;
  let fixtures: FixtureSites;
  let stack: TestStack;
  let key: string;
  /** A stack whose crawl budget is short, for the one site that must time out. */
  let timeoutStack: TestStack;
  let timeoutKey: string;

  beforeAll(async () => {
    [failing, fixtures] = await Promise.all([startFailingSites(), startFixtureSites()]);
    const env = {
      BRANDBASE_CRAWL_HOSTS: JSON.stringify({ ...fixtures.hostMap, ...failing.hostMap }),
      // The endless fixture homepage passes this cap quickly.
      BRANDBASE_HTML_MAX_DOWNLOAD_BYTES: '65536',
      // Long enough that nothing in this file outlives it.
      BRANDBASE_CRAWL_FAILURE_MEMORY_MS: String(3_600_000),
    };
    // Every failure but the timeout must be the site's own, never the crawl budget firing first on a loaded machine
    // (a redirect loop once answered `timeout` under load): those crawls get a budget that cannot fire.
    stack = await startTestStack({ ...env, ...UNBOUNDED_BUDGETS_ENV }, { backend });
    ({ key } = await stack.newKey({ quota: 1000 }));
    timeoutStack = await startTestStack({ ...env, BRANDBASE_CRAWL_TIMEOUT_MS: '1000' }, { backend });
    ({ key: timeoutKey } = await timeoutStack.newKey({ quota: 1000 }));
  });

  afterAll(async () => {
    await Promise.all([stack?.close(), timeoutStack?.close()]);
    await Promise.all([failing?.close(), fixtures?.close()]);
  });

  const get = (identifier: string) => stack.app.inject({ method: 'GET', url: `/v2/brands/${identifier}`, headers: bearer(key) });
  const head = (identifier: string) => stack.app.inject({ method: 'HEAD', url: `/v2/brands/${identifier}`, headers: bearer(key) });
  const batch = (identifiers: string[]) => stack.app.inject({ method: 'POST', url: '/v2/brands/batch', headers: bearer(key), payload: { identifiers } });
  const homepageHits = (host: string) => (failing.requests[host] ?? []).filter((p) => p === '/').length;

  describe('a 404 caused by a failed crawl carries the reason next to the spec fields', () => {
    it.each<[CrawlFailureReason, string, string]>([
      ['unreachable', 'nothing listens at the address (connection refused)', FAILING_HOSTS.refused],
      ['unreachable', 'robots.txt answers 503: the site is down, not refusing', FAILING_HOSTS.robotsDown],
      ['dns_failure', 'the name does not resolve', UNRESOLVABLE_HOST],
      ['robots_disallowed', 'robots.txt disallows every crawler', FIXTURE_HOSTS.robotsBlocked],
      ['not_html', 'the homepage is JSON', FAILING_HOSTS.json],
      ['not_html', 'the homepage is an image', FAILING_HOSTS.image],
      ['http_error', 'the homepage answers 500', FAILING_HOSTS.serverError],
      ['too_many_redirects', 'the homepage redirects to itself', FAILING_HOSTS.loop],
      ['blocked', 'the homepage redirects to a loopback address', FAILING_HOSTS.private],
      ['too_large', 'the homepage never ends', FIXTURE_HOSTS.hugepage],
    ])('%s: %s', async (reason, _why, host) => {
      const res = await get(host);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: NOT_FOUND, reason, payment: PAYMENT });
    });

    it('timeout: the server never answers (within a crawl budget of 1 s)', async () => {
      const res = await timeoutStack.app.inject({ method: 'GET', url: `/v2/brands/${FAILING_HOSTS.silent}`, headers: bearer(timeoutKey) });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: NOT_FOUND, reason: 'timeout', payment: PAYMENT });
    });

    it('a down site never fetched its homepage and is not reported as a robots refusal', () => {
      expect(homepageHits(FAILING_HOSTS.robotsDown)).toBe(0);
      expect(fixtures.sites.robotsBlocked.requests).not.toContain('/');
    });
  });

  describe('a 404 that is not a crawl failure has no reason', () => {
    it('an identifier that cannot be matched to a company website', async () => {
      const res = await stack.app.inject({ method: 'GET', url: '/v2/brands/ticker/ZZZZ', headers: bearer(key) });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'This identifier cannot be matched to a company website.', payment: PAYMENT });
    });

    it('a removed brand, on GET and as a batch item', async () => {
      const now = new Date();
      const brand = sampleBrand('removed-brand.test');
      await stack.services.stores.brands.saveBrand({ brand, status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: 'removed-brand.test' }]);
      await stack.services.stores.brands.setBrandStatus(brand.id, 'removed', now);
      const res = await get('removed-brand.test');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: NOT_FOUND, payment: PAYMENT });
      const item = (await batch(['removed-brand.test'])).json<{ results: Record<string, unknown>[] }>().results[0];
      expect(item).toEqual({ identifier: 'removed-brand.test', status: 404, message: NOT_FOUND });
    });
  });

  describe('the failure memory answers GET, HEAD and batch without crawling again', () => {
    const host = FAILING_HOSTS.json;

    beforeAll(async () => {
      // The crawl above failed not_html; make sure it did even when this block runs alone.
      if (homepageHits(host) === 0) expect((await get(host)).statusCode).toBe(404);
    });

    it('GET answers the remembered reason and the site is not fetched again', async () => {
      const before = homepageHits(host);
      const res = await get(host);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: NOT_FOUND, reason: 'not_html', payment: PAYMENT });
      expect(homepageHits(host)).toBe(before);
    });

    it('HEAD answers 404 and queues nothing, while a domain that never failed is queued', async () => {
      const depth = await stack.services.queue.depth();
      expect((await head(host)).statusCode).toBe(404);
      expect(await stack.services.queue.depth()).toBe(depth);
      expect((await head('never-failed-head.test')).statusCode).toBe(202);
    });

    it('a batch item answers 404 with the reason, while a domain that never failed is queued', async () => {
      const res = await batch([host, 'never-failed-batch.test']);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        results: [
          { identifier: host, status: 404, message: NOT_FOUND, reason: 'not_html' },
          { identifier: 'never-failed-batch.test', status: 202, code: 'crawl_queued' },
        ],
      });
    });
  });

  describe('a queued crawl that fails logs one line per attempt', () => {
    it('the crawl job logs domain, reason and attempt, without a stack trace', async () => {
      const domain = FAILING_HOSTS.serverErrorAgain;
      const { id } = await stack.services.queue.enqueue('crawl.brand', domain, { domain, refresh: false });
      const pool = createWorkerPool(stack.services);
      pool.start();
      try {
        const deadline = Date.now() + 60_000;
        while ((await stack.services.queue.get(id))?.state !== 'failed') {
          if (Date.now() > deadline) throw new Error('the crawl job did not fail in time');
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      } finally {
        await pool.stop(5000);
      }
      const records = stack
        .logs()
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      const about = records.filter((r) => r.domain === domain && r.jobId === id);
      // http_error is not retryable: one attempt, one line, no stack.
      expect(about.map((r) => [r.msg, r.reason, r.attempt, r.retry])).toEqual([['job failed', 'http_error', 1, false]]);
      expect(about[0]).not.toHaveProperty('err');
      expect(homepageHits(domain)).toBe(1); // the job crawled (nothing was remembered for this name)
      expect(records.filter((r) => r.msg === 'crawl failed' && r.domain === domain)).toEqual([]);
      expect(records.filter((r) => r.msg === 'job crashed' || r.msg === 'crawl crashed')).toEqual([]);
    });
  });
});
