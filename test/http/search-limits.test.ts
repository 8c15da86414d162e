/**
 * Search limits (spec 7.2 and 8, issue 20, ADR 0033) on the real service, with the gate on a simulated clock and
 * small configured limits (the defaults are the spec's, checked in search.test.ts): the throughput limit per client
 * ID across all addresses and per address, lifting when the rate drops; the soft monthly allowance (over it is
 * reported, 429 quota_exceeded only far past it); 503 temporarily_unavailable when the search cannot answer, not
 * counted. HTTP through Fastify inject.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientIds } from '../../src/billing/client-ids.js';
import { buildApp } from '../../src/http/app.js';
import { appDepsFor } from '../../src/main/app-deps.js';
import { createLogger } from '../../src/platform/logger.js';
import { NO_METRICS } from '../../src/platform/metrics.js';
import { BrandSearch } from '../../src/search/brand-search.js';
import { openSqliteStore } from '../store/open-store.js';
import { startTestStack, type TestStack } from '../helpers/test-stack.js';
import { gatedApp, saveHeld, type GatedApp } from './search-helpers.js';
import { describeEachBackend } from '../helpers/backends.js';

describeEachBackend('search limits', (backend) => {
  let stack: TestStack;
  let ids: ClientIds;

  beforeAll(async () => {
    stack = await startTestStack({ BRANDBASE_CLIENT_ID_CACHE_MS: '0' }, { backend });
    ids = new ClientIds(stack.services.stores.billing);
    await saveHeld(stack.services, 'stripe.com', 'Stripe', { qualityScore: 0.86 });
  }, 120_000);

  afterAll(async () => stack?.close());

  async function newClientId(plan: 'free' | 'paid' = 'free'): Promise<{ id: string; orgId: string }> {
    const { orgId } = await stack.newKey({ plan, quota: 0 });
    return { id: (await ids.create(orgId)).id, orgId };
  }

  function get(gated: GatedApp, id: string, ip: string, name = 'stri') {
    return gated.app.inject({ method: 'GET', url: `/v2/search/${name}?c=${id}`, remoteAddress: ip });
  }

  describe('search throughput limits', () => {
    let gated: GatedApp;
    beforeAll(async () => {
      gated = await gatedApp(stack.services, { perClientId: 12, perIp: 5, allowance: { free: 1_000_000, paid: 1_000_000 } }, { windowMs: 300_000 });
    });
    afterAll(async () => gated.app.close());

    it('limits a client ID across all addresses and each address, 429 rate_limited with Retry-After; lifts as the rate drops', async () => {
      const { id } = await newClientId();
      // 5 per address: the sixth from one address is refused, others still pass.
      for (let i = 0; i < 5; i++) expect((await get(gated, id, '192.0.2.1')).statusCode).toBe(200);
      const perIp = await get(gated, id, '192.0.2.1');
      expect(perIp.statusCode).toBe(429);
      expect(perIp.headers['x-bf-error']).toBe('rate_limited');
      expect(perIp.json()).toEqual({
        message: 'Too many search requests for this client ID or address; retry after the number of seconds in Retry-After.',
        code: 'rate_limited',
        documentation: 'http://brandbase.test/docs/search',
      });
      // One address's share of the window (5 per 300 s) comes back in 60 s.
      expect(perIp.headers['retry-after']).toBe('60');
      // 12 per client ID across addresses: 5 + 5 + 2, then every address is refused.
      for (let i = 0; i < 5; i++) expect((await get(gated, id, '192.0.2.2')).statusCode).toBe(200);
      for (let i = 0; i < 2; i++) expect((await get(gated, id, '192.0.2.3')).statusCode).toBe(200);
      const perId = await get(gated, id, '192.0.2.4');
      expect(perId.statusCode).toBe(429);
      expect(perId.headers['x-bf-error']).toBe('rate_limited');
      // Another client ID is not affected.
      expect((await get(gated, (await newClientId()).id, '192.0.2.4')).statusCode).toBe(200);
      // The limit lifts as time passes: a steady rate at the limit passes (12 per 300 s is one per 25 s).
      gated.clock.now += 25_000;
      expect((await get(gated, id, '192.0.2.4')).statusCode).toBe(200);
      expect((await get(gated, id, '192.0.2.5')).statusCode).toBe(429);
      gated.clock.now += 300_000;
      expect((await get(gated, id, '192.0.2.1')).statusCode).toBe(200);
    });
  });

  describe('the monthly allowance (soft)', () => {
    let gated: GatedApp;
    beforeAll(async () => {
      gated = await gatedApp(stack.services, { perClientId: 1000, perIp: 1000, allowance: { free: 4, paid: 8 } }, { hardLimitFactor: 2 });
    });
    afterAll(async () => gated.app.close());

    it('passes past the allowance and says so; 429 quota_exceeded only past allowance × the hard factor; counts reach the store', async () => {
      const { id, orgId } = await newClientId('free');
      for (let i = 1; i <= 4; i++) {
        const res = await get(gated, id, '192.0.2.20');
        expect(res.statusCode).toBe(200);
        expect(res.headers['x-bf-over-allowance']).toBeUndefined();
      }
      for (let i = 5; i <= 8; i++) {
        const res = await get(gated, id, '192.0.2.20');
        expect(res.statusCode, `request ${i}`).toBe(200);
        expect(res.headers['x-bf-over-allowance']).toBe('true');
      }
      const refused = await get(gated, id, '192.0.2.20');
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['x-bf-error']).toBe('quota_exceeded');
      expect(refused.json()).toMatchObject({ code: 'quota_exceeded', documentation: 'http://brandbase.test/docs/search' });
      expect(refused.json().message).toMatch(/far past its plan's allowance \(4\)/);
      // Retry-After: the start of next month (the simulated clock is on 2 November).
      expect(Number(refused.headers['retry-after'])).toBe((Date.parse('2026-12-01T00:00:00Z') - gated.clock.now) / 1000);
      await gated.usage.flush();
      expect(await stack.services.stores.billing.clientIdUsage(orgId, 'search', '2026-11')).toBe(8);
      // A new month starts from zero.
      gated.clock.now = Date.parse('2026-12-01T00:00:01Z');
      expect((await get(gated, id, '192.0.2.20')).statusCode).toBe(200);
    });

    it('gives a paid plan its own allowance', async () => {
      const { id } = await newClientId('paid');
      for (let i = 1; i <= 8; i++) expect((await get(gated, id, '192.0.2.21')).headers['x-bf-over-allowance']).toBeUndefined();
      expect((await get(gated, id, '192.0.2.21')).headers['x-bf-over-allowance']).toBe('true');
    });
  });

  describe('a search that cannot answer', () => {
    it('answers 503 temporarily_unavailable with Retry-After 10, and the request is not counted', async () => {
      // A real store that goes away: the index cannot be read.
      const dir = await mkdtemp(path.join(tmpdir(), 'brandbase-search-down-'));
      const down = await openSqliteStore({ file: path.join(dir, 'down.sqlite') });
      await down.migrate();
      const logs: string[] = [];
      const brands = new BrandSearch(down.stores.search, (key) => key, { timeoutMs: 2000, referenceCheckMs: 60_000, logger: createLogger({ level: 'warn', destination: new Writable({ write: (chunk: Buffer, _enc, done) => done(logs.push(chunk.toString('utf8')) > 0 ? null : undefined) }) }) });
      await down.close();
      const app = await buildApp({ ...appDepsFor(stack.services), metrics: { registry: NO_METRICS, token: null }, search: { gate: stack.services.clientIdGate, brands } });
      try {
        const { id, orgId } = await newClientId();
        await stack.services.clientIdUsage.flush();
        const before = await stack.services.clientIdUsage.used(orgId, 'search');
        const res = await app.inject({ method: 'GET', url: `/v2/search/stripe?c=${id}`, remoteAddress: '192.0.2.30' });
        expect(res.statusCode).toBe(503);
        expect(res.headers['x-bf-error']).toBe('temporarily_unavailable');
        expect(res.headers['retry-after']).toBe('10');
        expect(res.json()).toEqual({ message: 'Temporarily unavailable; retry later.', code: 'temporarily_unavailable' });
        await stack.services.clientIdUsage.flush();
        expect(await stack.services.clientIdUsage.used(orgId, 'search')).toBe(before);
        expect(await stack.services.stores.billing.clientIdUsage(orgId, 'search', new Date().toISOString().slice(0, 7))).toBe(0);
        expect(logs.join('')).toMatch(/search could not answer/);
      } finally {
        await app.close();
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
});
