/**
 * HEAD agrees with GET on every brand route (spec 4.2): the same identifier on the same route is the same brand,
 * so HEAD answers what GET answers (200 held, 404 not held or removed, 400 invalid, 402 without a credential). HEAD never has a body and never costs a credit. The one difference the spec makes: for a domain
 * that is not held, GET indexes it live while HEAD queues the crawl (202); that is covered in head-prefetch.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandIdForDomain } from '../../src/domain/ids.js';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';
import { sampleBrand } from '../store/sample-brand.js';
import { describeEachBackend } from '../helpers/backends.js';

describeEachBackend('HEAD and GET agreement', (backend) => {
  let stack: TestStack;
  let key: string;

  const HELD_ID = brandIdForDomain('acme.com');
  const UNHELD_ID = brandIdForDomain('nobody-holds-this.test');

  beforeAll(async () => {
    stack = await startTestStack({}, { backend });
    const now = new Date();
    await stack.services.stores.brands.saveBrand({ brand: sampleBrand('acme.com'), status: 'indexed', crawledAt: now, createdAt: now, updatedAt: now }, [
      { kind: 'domain', value: 'acme.com' },
      { kind: 'ticker', value: 'ACME' },
      { kind: 'isin', value: 'US0378331005' },
      { kind: 'crypto', value: 'ACM' },
    ]);
    await stack.services.stores.brands.saveBrand({ brand: sampleBrand('gone.test'), status: 'removed', crawledAt: now, createdAt: now, updatedAt: now }, [{ kind: 'domain', value: 'gone.test' }]);
    ({ key } = await stack.newKey({ quota: 1000 }));
  });

  afterAll(async () => stack?.close());

  /** [route, path, what GET answers]: none of these crawls (held, removed, invalid, or not a domain). */
  const CASES: [string, string, number][] = [
    ['domain', '/v2/brands/domain/acme.com', 200],
    ['domain', '/v2/brands/domain/gone.test', 404],
    ['domain', '/v2/brands/domain/jane@acme.com', 400],
    ['ticker', '/v2/brands/ticker/ACME', 200],
    ['ticker', '/v2/brands/ticker/AAPL', 404],
    ['ticker', '/v2/brands/ticker/NOT_A_TICKER!', 400],
    ['isin', '/v2/brands/isin/US0378331005', 200],
    ['isin', '/v2/brands/isin/DE0007164600', 404],
    ['isin', '/v2/brands/isin/US0000000001', 400],
    ['crypto', '/v2/brands/crypto/ACM', 200],
    ['crypto', '/v2/brands/crypto/BTC', 404],
    ['crypto', '/v2/brands/crypto/B', 400],
    ['brand ID', `/v2/brands/${HELD_ID}`, 200],
    ['brand ID', `/v2/brands/${UNHELD_ID}`, 404],
    ['auto-detected', '/v2/brands/acme.com', 200],
    ['auto-detected', '/v2/brands/jane@acme.com', 200],
    ['auto-detected', '/v2/brands/gone.test', 404],
    ['auto-detected', '/v2/brands/AAPL', 404],
    ['auto-detected', '/v2/brands/http%3A%2F%2F127.0.0.1', 400],
    ['industries by domain', '/v2/brands/domain/acme.com/company/industries', 200],
    ['industries by ticker', '/v2/brands/ticker/ACME/company/industries', 200],
    ['industries by ticker', '/v2/brands/ticker/AAPL/company/industries', 404],
    ['industries by ISIN', '/v2/brands/isin/US0000000001/company/industries', 400],
    ['industries by crypto', '/v2/brands/crypto/BTC/company/industries', 404],
    ['industries, auto-detected', `/v2/brands/${HELD_ID}/company/industries`, 200],
    ['industries, auto-detected', '/v2/brands/unheld.test/company/industries', 404],
  ];

  describe('HEAD agrees with GET', () => {
    it.each(CASES)('%s: %s (GET %i)', async (_route, url, getStatus) => {
      const get = await stack.app.inject({ method: 'GET', url, headers: bearer(key) });
      expect(get.statusCode, `GET ${url}`).toBe(getStatus);
      const head = await stack.app.inject({ method: 'HEAD', url, headers: bearer(key) });
      // The same status, not only the same family: a HEAD 400 where GET answers 404 tells the client the identifier
      // is malformed when it is only unknown.
      expect(head.statusCode, `HEAD ${url}`).toBe(getStatus);
      expect(head.body).toBe('');
    });

    it.each(CASES.filter(([, , status]) => status !== 400))('without a credential, both answer 402: %s %s', async (_route, url) => {
      expect((await stack.app.inject({ method: 'GET', url })).statusCode).toBe(402);
      expect((await stack.app.inject({ method: 'HEAD', url })).statusCode).toBe(402);
    });

  it('the HEADs cost nothing (only the GETs that returned a brand are charged)', async () => {
    // Its own organization and requests: the count does not depend on which tests ran before.
    const own = await stack.newKey({ quota: 1000 });
    for (const [, url] of CASES) await stack.app.inject({ method: 'HEAD', url, headers: bearer(own.key) });
    expect(await stack.services.meter.exactUsed(own.orgId)).toBe(0);
    for (const [, url] of CASES) await stack.app.inject({ method: 'GET', url, headers: bearer(own.key) });
    expect(await stack.services.meter.exactUsed(own.orgId)).toBe(CASES.filter(([, , status]) => status === 200).length);
    });
  });
});
