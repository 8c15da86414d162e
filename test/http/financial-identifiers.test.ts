/**
 * Tickers, ISINs, ETFs and crypto symbols over HTTP (spec 1 rules 5-9, 4.1-4.5): the real service on a fresh
 * SQLite store holding the embedded reference data, live indexing against fixture sites through the crawler's
 * host map (the resolved company domains, `apple.com` and the rest, are mapped onto loopback fixture sites).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identifierCacheKey } from '../../src/brands/brand-cache.js';
import type { Brand } from '../../src/domain/brand.js';
import { startFixtureSites, type FixtureSites } from '../helpers/fixture-sites.js';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';
import { describeEachBackend } from '../helpers/backends.js';

describeEachBackend('financial identifiers', (backend) => {
  let sites: FixtureSites;
  let stack: TestStack;
  let key: string;

  const get = (url: string) => stack.app.inject({ method: 'GET', url, headers: bearer(key) });
  const head = (url: string) => stack.app.inject({ method: 'HEAD', url, headers: bearer(key) });
  const homepageHits = (): number => sites.sites.northwind.requests.filter((p) => p === '/').length;

  /** Makes AAPL held (resolved to apple.com, indexed live, identifiers attached) by looking it up; its brand. */
  async function holdApple(): Promise<Brand> {
    const res = await get('/v2/brands/ticker/AAPL');
    expect(res.statusCode).toBe(200);
    return res.json();
  }

  beforeAll(async () => {
    sites = await startFixtureSites();
    const northwind = sites.sites.northwind.address;
    const hostMap = {
      ...sites.hostMap,
      // The websites the reference data names for these identifiers, served by fixture sites.
      'apple.com': northwind,
      'shell.com': northwind,
      'airliquide.com': northwind,
      'ssga.com': sites.sites.plainfield.address,
      'bitcoin.org': sites.sites.lumen.address,
      // Rule 6: the domain reading of `AI.PA` exists but nothing can be indexed from it (robots.txt forbids it).
      'ai.pa': sites.sites.robotsBlocked.address,
    };
    stack = await startTestStack({ BRANDBASE_CRAWL_HOSTS: JSON.stringify(hostMap) }, { backend });
    ({ key } = await stack.newKey({ quota: 1000 }));
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
    await sites?.close();
  });

  describe('rule 7: an unindexed ticker is resolved, indexed live and its identifiers attached', () => {
    let brand: Brand;

    beforeAll(async () => {
      brand = await holdApple();
    }, 60_000);

    it("answers the company's brand, indexed from its website", () => {
      expect(brand.domain).toBe('apple.com');
      expect(brand.logos.length).toBeGreaterThan(0);
    });

    it('lists the ticker and the ISIN in company.financialIdentifiers (spec 2.7)', () => {
      expect(brand.company.financialIdentifiers).toEqual({ ticker: expect.arrayContaining(['AAPL']), isin: expect.arrayContaining(['US0378331005']) });
    });

    it('attaches ticker and ISIN to the brand in the store', async () => {
      const refs = await stack.services.stores.brands.listIdentifiers(brand.id);
      expect(refs).toEqual(expect.arrayContaining([{ kind: 'ticker', value: 'AAPL' }, { kind: 'ticker', value: 'XNAS:AAPL' }, { kind: 'isin', value: 'US0378331005' }]));
    });

    it('answers the next lookup by ticker, ISIN or exchange-qualified ticker from the cache, without crawling again', async () => {
      const hits = homepageHits();
      expect(stack.services.cache.getByKey(identifierCacheKey({ kind: 'ticker', value: 'AAPL' }))?.stored.brand.id).toBe(brand.id);
      for (const url of ['/v2/brands/ticker/AAPL', '/v2/brands/isin/US0378331005', '/v2/brands/ticker/XNAS:AAPL', '/v2/brands/ticker/aapl?exchange=XNAS', '/v2/brands/AAPL']) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(200);
        expect(res.json<Brand>().id, url).toBe(brand.id);
      }
      expect(homepageHits()).toBe(hits);
    });

    it('answers cachedOnly from the store once attached', async () => {
      const res = await get('/v2/brands/ticker/AAPL?cachedOnly=true');
      expect(res.statusCode).toBe(200);
      expect(res.json<Brand>().id).toBe(brand.id);
    });

    it('keeps the attached identifiers when the brand is crawled again', async () => {
      const outcome = await stack.services.indexer.index('apple.com', { retry: true });
      expect(outcome.ok).toBe(true);
      const again = await get('/v2/brands/ticker/AAPL');
      expect(again.json<Brand>().company.financialIdentifiers?.isin).toContain('US0378331005');
    });
  });

  describe('cachedOnly, 400 and 404', () => {
    it('does not resolve an unindexed ticker, ISIN or crypto symbol under cachedOnly: 204, nothing crawled', async () => {
      for (const url of ['/v2/brands/ticker/SAP.DE?cachedOnly=true', '/v2/brands/isin/DE0007164600?cachedOnly=true', '/v2/brands/crypto/ETH?cachedOnly=true']) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(204);
      }
      expect(await stack.services.stores.brands.findBrandByIdentifier({ kind: 'domain', value: 'sap.com' })).toBeNull();
    });

    it('answers a bad ISIN check digit 400 with the exact message on the ISIN route', async () => {
      const res = await get('/v2/brands/isin/US0378331006');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'Bad Request' });
    });

    it('answers 404 for a ticker no company website is known for', async () => {
      const res = await get('/v2/brands/ticker/QQZZXQ');
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('This identifier cannot be matched to a company website.');
    });
  });

  describe('exchange forms, ETFs and crypto symbols', () => {
    it('reads an exchange suffix, an exchange prefix and the exchange parameter alike', async () => {
      const first = await get('/v2/brands/ticker/SHEL.L');
      expect(first.statusCode).toBe(200);
      const shell = first.json<Brand>();
      expect(shell.domain).toBe('shell.com');
      expect(shell.company.financialIdentifiers?.ticker).toContain('SHEL.L');
      for (const url of ['/v2/brands/ticker/XLON:SHEL', '/v2/brands/ticker/SHEL?exchange=XLON', '/v2/brands/ticker/SHEL?exchange=LSE', '/v2/brands/SHEL.L', '/v2/brands/ticker/SHEL.L?exchange=XLON']) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(200);
        expect(res.json<Brand>().id, url).toBe(shell.id);
      }
    }, 60_000);

    it("answers an ETF ticker with the issuer's brand (rule 9), without listing it as the issuer's own", async () => {
      const res = await get('/v2/brands/ticker/SPY');
      expect(res.statusCode).toBe(200);
      const brand = res.json<Brand>();
      expect(brand.domain).toBe('ssga.com');
      expect(brand.company.financialIdentifiers?.ticker ?? []).not.toContain('SPY');
    }, 60_000);

    it("answers a crypto symbol with the project's brand", async () => {
      const res = await get('/v2/brands/crypto/btc');
      expect(res.statusCode).toBe(200);
      expect(res.json<Brand>().domain).toBe('bitcoin.org');
    }, 60_000);

    it('rule 6: tries the ticker reading when the domain reading finds nothing', async () => {
      const res = await get('/v2/brands/AI.PA');
      expect(res.statusCode).toBe(200);
      expect(res.json<Brand>().domain).toBe('airliquide.com');
      // On the explicit ticker route it is a ticker from the start.
      const typed = await get('/v2/brands/ticker/AI.PA');
      expect(typed.json<Brand>().domain).toBe('airliquide.com');
    }, 60_000);
  });

  describe('batch, HEAD and industries on the typed forms', () => {
    // Each test holds AAPL itself (a lookup), whichever tests ran before it.
    it('reads {type, value} objects: held answers 200, a resolvable but unindexed one is queued, an unknown one 404', async () => {
      await holdApple();
      const res = await stack.app.inject({
        method: 'POST',
        url: '/v2/brands/batch',
        headers: bearer(key),
        payload: {
          identifiers: [
            { type: 'ticker', value: 'AAPL' },
            { type: 'isin', value: 'US0378331005' },
            { type: 'ticker', value: 'SAP.DE' },
            { type: 'crypto', value: 'QQZZXQCOIN' },
            { type: 'isin', value: 'US0378331006' },
          ],
        },
      });
      expect(res.statusCode).toBe(200);
      const results = res.json<{ results: { status: number; code?: string; brand?: Brand }[] }>().results;
      expect(results.map((r) => r.status)).toEqual([200, 200, 202, 404, 400]);
      expect(results[0]?.brand?.domain).toBe('apple.com');
      expect(results[2]?.code).toBe('crawl_queued');
    });

    it('HEAD: a held ticker 200; an unindexed one 404 and nothing queued (spec 4.2: only domains queue); a bad ISIN 400', async () => {
      await holdApple();
      expect((await head('/v2/brands/ticker/AAPL')).statusCode).toBe(200);
      expect((await head('/v2/brands/isin/US0378331005')).statusCode).toBe(200);
      expect((await head('/v2/brands/ticker/7203.T')).statusCode).toBe(404);
      expect((await head('/v2/brands/isin/US0378331006')).statusCode).toBe(400);
    });

    it('industries on the typed routes read what is held', async () => {
      await holdApple();
      const held = await get('/v2/brands/ticker/AAPL/company/industries');
      expect(held.statusCode).toBe(200);
      expect(held.json()).toEqual({ industries: expect.any(Array) });
      const isin = await get('/v2/brands/isin/US0378331005/company/industries');
      expect(isin.statusCode).toBe(200);
      const notHeld = await get('/v2/brands/ticker/7203.T/company/industries');
      expect(notHeld.statusCode).toBe(404);
      expect(await stack.services.stores.brands.findBrandByIdentifier({ kind: 'domain', value: 'global.toyota' })).toBeNull();
    });
  });

  describe("a brand's own JSON-LD", () => {
    it('attaches the ticker it names (unknown to the reference data) when it is saved', async () => {
      const res = await get('/v2/brands/domain/nightjar.test');
      expect(res.statusCode).toBe(200);
      const brand = res.json<Brand>();
      expect(brand.company.financialIdentifiers?.ticker).toContain('NJAR');
      const byTicker = await get('/v2/brands/ticker/NJAR?cachedOnly=true');
      expect(byTicker.statusCode).toBe(200);
      expect(byTicker.json<Brand>().id).toBe(brand.id);
    }, 60_000);
  });
});
