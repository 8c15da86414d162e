/**
 * GET /v2/search/{name}?c=CLIENT_ID (spec 4.6, 5.4, 7.2, 8; issue 20; docs/search.md) on the real service: a
 * SQLite or PostgreSQL store holding the embedded reference data plus a few held brands, HTTP through Fastify inject,
 * and once through a real server on loopback. Client IDs are created with the admin service the CLI uses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientIds } from '../../src/billing/client-ids.js';
import { loadConfig } from '../../src/config/config.js';
import type { Brand } from '../../src/domain/brand.js';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';
import { gatedApp, iconKeyFor, saveHeld } from './search-helpers.js';
import { describeEachBackend } from '../helpers/backends.js';

describeEachBackend('brand search', (backend) => {
  let stack: TestStack;
  let ids: ClientIds;
  let cid: string;
  let orgId: string;
  const held: Record<string, Brand> = {};

  async function search(path: string, headers: Record<string, string> = {}, remoteAddress = '203.0.113.7') {
    return stack.app.inject({ method: 'GET', url: path, headers, remoteAddress });
  }

  beforeAll(async () => {
    stack = await startTestStack({ BRANDBASE_CLIENT_ID_CACHE_MS: '0' }, { backend });
    ids = new ClientIds(stack.services.stores.billing);
    ({ orgId } = await stack.newKey({ plan: 'free', quota: 0 }));
    cid = (await ids.create(orgId, { name: 'autocomplete' })).id;
    held.stripe = await saveHeld(stack.services, 'stripe.com', 'Stripe', { qualityScore: 0.86, claimed: true });
    held.google = await saveHeld(stack.services, 'google.com', 'Google', { qualityScore: 0.91 });
    held.nestle = await saveHeld(stack.services, 'nestle.com', 'Nestlé', { qualityScore: 0.8 });
  }, 120_000);

  afterAll(async () => stack?.close());

  describe('GET /v2/search/{name}', () => {
    it('answers an array of {name, domain, claimed, icon, brandId, qualityScore}, best first: "stri" finds Stripe', async () => {
      const res = await search(`/v2/search/stri?c=${cid}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const hits = res.json<Record<string, unknown>[]>();
      expect(hits.length).toBeGreaterThan(1);
      expect(hits.length).toBeLessThanOrEqual(10);
      expect(hits[0]).toEqual({
        name: 'Stripe',
        domain: 'stripe.com',
        claimed: true,
        icon: `http://brandbase.test/assets/${iconKeyFor('Stripe')}`,
        brandId: held.stripe?.id,
        qualityScore: 0.86,
      });
      for (const hit of hits) expect(Object.keys(hit).sort()).toEqual(['brandId', 'claimed', 'domain', 'icon', 'name', 'qualityScore']);
    });

    it('finds a brand of the knowledge set before anyone crawled it, with the same fields (nothing held yet: nulls)', async () => {
      const res = await search(`/v2/search/five%20guys?c=${cid}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()[0]).toEqual({ name: 'Five Guys', domain: 'fiveguys.com', claimed: false, icon: null, brandId: null, qualityScore: null });
    });

    it('is typo tolerant ("goolge" finds Google), accent and case insensitive', async () => {
      expect((await search(`/v2/search/goolge?c=${cid}`)).json()[0]).toMatchObject({ name: 'Google', domain: 'google.com' });
      for (const q of ['nestle', 'NESTLÉ', 'Nestl%C3%A9', 'nestlé']) {
        expect((await search(`/v2/search/${q}?c=${cid}`)).json()[0], q).toMatchObject({ name: 'Nestlé', domain: 'nestle.com', brandId: held.nestle?.id });
      }
    });

    it('gives at most 10, or `limit` (1 to 10); 400 for any other limit, not counted', async () => {
      expect((await search(`/v2/search/bank?c=${cid}`)).json()).toHaveLength(10);
      expect((await search(`/v2/search/bank?c=${cid}&limit=3`)).json()).toHaveLength(3);
      await stack.services.clientIdUsage.flush();
      const before = await stack.services.clientIdUsage.used(orgId, 'search');
      for (const limit of ['0', '11', 'x', '-1', '2.5']) {
        const res = await search(`/v2/search/bank?c=${cid}&limit=${limit}`);
        expect(res.statusCode, limit).toBe(400);
        expect(res.json().message).toBe('limit must be a whole number from 1 to 10.');
      }
      expect(await stack.services.clientIdUsage.used(orgId, 'search')).toBe(before);
    });

    it('answers an empty array when nothing matches', async () => {
      for (const q of ['qqzxvvjjqq', '%E2%9C%93', '---']) {
        const res = await search(`/v2/search/${q}?c=${cid}`);
        expect(res.statusCode, q).toBe(200);
        expect(res.json(), q).toEqual([]);
      }
    });

    it('finds companies only in the reference data (icon, brandId and qualityScore null) and ranks by prominence', async () => {
      const hits = (await search(`/v2/search/berkshire%20hath?c=${cid}`)).json<{ name: string; domain: string }[]>();
      expect(hits[0]).toEqual({ name: 'Berkshire Hathaway', domain: 'berkshirehathaway.com', claimed: false, icon: null, brandId: null, qualityScore: null });
      // A ticker typed as a name, and a multi-word name.
      expect((await search(`/v2/search/aapl?c=${cid}`)).json()[0]).toMatchObject({ domain: 'apple.com' });
      expect((await search(`/v2/search/coca%20cola?c=${cid}`)).json()[0]).toMatchObject({ domain: 'coca-colacompany.com' });
    });

    it('selecting a reference-only result (its logo through the CDN, with the same client ID) queues its crawl', async () => {
      const [hit] = (await search(`/v2/search/berkshire%20hathaway?c=${cid}&limit=1`)).json<{ domain: string }[]>();
      const before = await stack.services.queue.depth();
      const logo = await stack.app.inject({ method: 'GET', url: `/logo/${hit?.domain ?? ''}?c=${cid}`, remoteAddress: '203.0.113.7' });
      expect(logo.statusCode).toBe(200);
      expect(await stack.services.queue.depth()).toBe(before + 1);
    });

    it('refuses requests without a usable client ID: missing 401, unknown 401, revoked 403', async () => {
      const missing = await search('/v2/search/stripe');
      expect(missing.statusCode).toBe(401);
      expect(missing.headers['x-bf-error']).toBe('client_id_missing');
      expect(missing.json()).toMatchObject({ code: 'client_id_missing', documentation: 'http://brandbase.test/docs/search' });
      const unknown = await search('/v2/search/stripe?c=cid_aaaaaaaaaaaaaaaaaaaaaaaa');
      expect(unknown.statusCode).toBe(401);
      expect(unknown.headers['x-bf-error']).toBe('invalid_client_id');
      const revoked = (await ids.create(orgId)).id;
      expect((await search(`/v2/search/stripe?c=${revoked}`)).statusCode).toBe(200);
      await ids.revoke(revoked);
      const res = await search(`/v2/search/stripe?c=${revoked}`);
      expect(res.statusCode).toBe(403);
      expect(res.headers['x-bf-error']).toBe('client_id_revoked');
      expect(res.json()).toEqual({ message: 'This client ID has been revoked.', code: 'client_id_revoked', documentation: 'http://brandbase.test/docs/search' });
    });

    it('refuses an API key used as a client ID, in `c` or alongside it', async () => {
      const { key } = await stack.newKey();
      for (const res of [await search(`/v2/search/stripe?c=${key}`), await search(`/v2/search/stripe?c=${cid}`, bearer(key))]) {
        expect(res.statusCode).toBe(403);
        expect(res.headers['x-bf-error']).toBe('api_key_not_client_id');
        expect(res.json().code).toBe('api_key_not_client_id');
      }
    });

    it('refuses a client ID on a keyed route (403 client_id_not_accepted), in `c` or as a bearer token', async () => {
      for (const res of [
        await stack.app.inject({ method: 'GET', url: `/v2/brands/stripe.com?c=${cid}` }),
        await stack.app.inject({ method: 'GET', url: '/v2/brands/stripe.com', headers: bearer(cid) }),
        await stack.app.inject({ method: 'POST', url: `/v2/brands/batch?c=${cid}`, payload: { identifiers: ['stripe.com'] } }),
      ]) {
        expect(res.statusCode).toBe(403);
        expect(res.headers['x-bf-error']).toBe('client_id_not_accepted');
      }
    });

    it('keeps to the allowed referrer hosts; without Referer/Origin it answers unless the ID requires one', async () => {
      const restricted = (await ids.create(orgId, { referrers: ['shop.example', '*.brand.example'] })).id;
      const ok = (headers: Record<string, string>) => search(`/v2/search/stripe?c=${restricted}`, headers);
      expect((await ok({ referer: 'https://shop.example/checkout?x=1' })).statusCode).toBe(200);
      expect((await ok({ origin: 'https://eu.brand.example' })).statusCode).toBe(200);
      expect((await ok({})).statusCode).toBe(200);
      const refused: Record<string, string>[] = [{ referer: 'https://evil.example/' }, { origin: 'https://brand.example.evil.test' }, { referer: 'https://notshop.example/' }];
      for (const headers of refused) {
        const res = await ok(headers);
        expect(res.statusCode, JSON.stringify(headers)).toBe(403);
        expect(res.headers['x-bf-error']).toBe('referrer_not_allowed');
        expect(res.json()).toMatchObject({ code: 'referrer_not_allowed', documentation: 'http://brandbase.test/docs/search' });
      }
      await ids.setReferrers(restricted, ['shop.example'], true);
      const none = await ok({});
      expect(none.statusCode).toBe(403);
      expect(none.headers['x-bf-error']).toBe('referrer_required');
    });

    it('limits 200 requests per address within the window (spec 8 default): 429 rate_limited naming the code; another address passes', async () => {
      // The default limits, on a clock that stands still (the bucket refills with time: no wall clock in the test).
      const defaults = loadConfig({}).clientIds;
      const gated = await gatedApp(stack.services, { perClientId: defaults.search.perClientId, perIp: defaults.search.perIp, allowance: { free: defaults.search.allowanceFree, paid: defaults.search.allowancePaid } }, { windowMs: defaults.windowMs });
      const own = (await ids.create(orgId)).id;
      const from = (ip: string, name = '-') => gated.app.inject({ method: 'GET', url: `/v2/search/${name}?c=${own}`, remoteAddress: ip });
      for (let i = 0; i < 200; i++) {
        const res = await from('198.51.100.9');
        if (res.statusCode !== 200) throw new Error(`request ${i + 1} answered ${res.statusCode}`);
      }
      const limited = await from('198.51.100.9', 'stripe');
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['x-bf-error']).toBe('rate_limited');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(limited.json()).toMatchObject({ code: 'rate_limited', documentation: 'http://brandbase.test/docs/search' });
      expect((await from('198.51.100.10', 'stripe')).statusCode).toBe(200);
      // One address's 200 per 5 minutes: a token back every 1.5 s.
      gated.clock.now += 1500;
      expect((await from('198.51.100.9', 'stripe')).statusCode).toBe(200);
      await gated.app.close();
    });

    it('uses the spec\'s limits by default: 6,000 per 5 minutes per client ID, 200 per address, 500,000 a month free', () => {
      const config = loadConfig({}).clientIds;
      expect(config.search).toMatchObject({ perClientId: 6000, perIp: 200, allowanceFree: 500_000 });
      expect(config.windowMs).toBe(300_000);
    });

    it('answers the same through a real server on loopback', async () => {
      const server = await startTestStack({ BRANDBASE_CLIENT_ID_CACHE_MS: '0' }, { backend });
      try {
        const org = await server.newKey({ plan: 'free', quota: 0 });
        const own = (await new ClientIds(server.services.stores.billing).create(org.orgId, { referrers: ['app.example'] })).id;
        await saveHeld(server.services, 'stripe.com', 'Stripe', { qualityScore: 0.86 });
        const address = await server.app.listen({ host: '127.0.0.1', port: 0 });
        const ok = await fetch(`${address}/v2/search/stri?c=${own}&limit=2`, { headers: { referer: 'https://app.example/' } });
        expect(ok.status).toBe(200);
        expect(ok.headers.get('cache-control')).toBe('private, max-age=60');
        const hits = (await ok.json()) as { name: string }[];
        expect(hits).toHaveLength(2);
        expect(hits[0]?.name).toBe('Stripe');
        const refused = await fetch(`${address}/v2/search/stri?c=${own}`, { headers: { origin: 'https://other.example' } });
        expect(refused.status).toBe(403);
        expect(refused.headers.get('x-bf-error')).toBe('referrer_not_allowed');
        expect(((await refused.json()) as { code: string }).code).toBe('referrer_not_allowed');
      } finally {
        await server.close();
      }
    }, 120_000);
  });
});
