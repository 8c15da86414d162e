/**
 * `/v2/transactions/corrections` (issue 34, docs/transactions.md#corrections) through inject on the real service
 * (SQLite, PostgreSQL): authentication before the body, every refusal with its status, code and message, the answers
 * validated against /openapi.json, and what a correction does to `POST /v2/brands/transaction`: it decides before
 * every rule for its organization only (charged as usual, `x-bf-match-source: correction`), "not a merchant" answers
 * 400 uncharged, the operator's aliases apply to everyone after their own, a removal lets the rules answer again and
 * stays in the audit trail, and a store that cannot be read answers 503 rather than the rules.
 */
import { Ajv } from 'ajv';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdBrand } from '../../eval/transactions/eval-store.js';
import { buildApp } from '../../src/http/app.js';
import { appDepsFor } from '../../src/main/app-deps.js';
import { OPERATOR_SCOPE } from '../../src/transactions/corrections/merchant-correction.js';
import { MerchantCorrections } from '../../src/transactions/corrections/merchant-corrections.js';
import { describeEachBackend } from '../helpers/backends.js';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';

const ROUTE = '/v2/transactions/corrections';

describeEachBackend('merchant corrections routes', (backend) => {
  let stack: TestStack;
  let openapi: { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>; components: unknown };
  const ajv = new Ajv({ strict: false, allErrors: true, logger: false });

  beforeAll(async () => {
    stack = await startTestStack({}, { backend });
    await holdBrand(stack.services.stores.brands, { domain: 'rulemerchant.com', name: 'Rule Merchant', countryCode: 'US' });
    await holdBrand(stack.services.stores.brands, { domain: 'correctedmerchant.com', name: 'Corrected Merchant', countryCode: 'US' });
    await holdBrand(stack.services.stores.brands, { domain: 'operatorpick.com', name: 'Operator Pick', countryCode: 'US' });
    openapi = (await stack.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  });
  afterAll(async () => stack?.close());

  /** The answer's body validates against the document's schema for its route, method and status. */
  function documented(res: LightMyRequestResponse, path: string, method: string): LightMyRequestResponse {
    const schema = openapi.paths[path]?.[method]?.responses[String(res.statusCode)]?.content?.['application/json']?.schema;
    expect(schema, `${method} ${path} documents ${res.statusCode}`).toBeDefined();
    const check = ajv.compile({ ...(schema as object), components: openapi.components });
    expect(check(res.json()), ajv.errorsText(check.errors)).toBe(true);
    return res;
  }

  function add(key: string | null, payload: unknown, app: FastifyInstance = stack.app): Promise<LightMyRequestResponse> {
    return app.inject({ method: 'POST', url: ROUTE, headers: { ...(key ? bearer(key) : {}), 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
  }
  const list = (key: string, query = '') => stack.app.inject({ method: 'GET', url: `${ROUTE}${query}`, headers: bearer(key) });
  const remove = (key: string, id: string) => stack.app.inject({ method: 'DELETE', url: `${ROUTE}/${id}`, headers: bearer(key) });
  const transaction = (key: string, transactionLabel: string, countryCode = 'US', app: FastifyInstance = stack.app) =>
    app.inject({ method: 'POST', url: '/v2/brands/transaction', headers: { ...bearer(key), 'content-type': 'application/json' }, payload: JSON.stringify({ transactionLabel, countryCode }) });

  describe('credentials', () => {
    it('answers 401 without a key or with a malformed header and 403 for an unknown or revoked key, before reading the body', async () => {
      const { key, keyId, orgId } = await stack.newKey();
      const bad = { transactionLabel: 12 };
      for (const res of [await add(null, bad), await stack.app.inject({ method: 'GET', url: ROUTE }), await stack.app.inject({ method: 'DELETE', url: `${ROUTE}/mco_x` })]) {
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({ message: 'Missing credentials: send "Authorization: Bearer <API_KEY>".' });
      }
      const malformed = await stack.app.inject({ method: 'POST', url: ROUTE, headers: { authorization: 'Basic abc', 'content-type': 'application/json' }, payload: bad });
      expect(malformed.statusCode).toBe(401);
      expect(malformed.json().message).toMatch(/^Malformed Authorization header/);
      expect((await add('bb_live_unknown', bad)).json()).toEqual({ message: 'Invalid API key.' });
      await stack.services.accounts.revokeApiKey(keyId);
      const revoked = await add(key, { transactionLabel: 'ACME', notMerchant: true });
      expect(revoked.statusCode).toBe(403);
      expect((await stack.services.merchantCorrections.list(orgId)).corrections).toEqual([]);
    });

    it('serves every plan, even an organization without credits, and charges nothing', async () => {
      const { key, orgId } = await stack.newKey({ plan: 'free', quota: 0 });
      const res = documented(await add(key, { transactionLabel: 'FREE PLAN SHOP', notMerchant: true }), ROUTE, 'post');
      expect(res.statusCode).toBe(201);
      expect(documented(await list(key), ROUTE, 'get').statusCode).toBe(200);
      expect(await stack.services.meter.exactUsed(orgId)).toBe(0);
    });
  });

  describe('POST, GET and DELETE', () => {
    it('files a correction (201) under its merchant words, lists it, replaces it, and removes it into the audit trail', async () => {
      const { key, keyId } = await stack.newKey();
      const created = documented(await add(key, { transactionLabel: 'SQ *BLUE BOTTLE COF 4', countryCode: 'us', domain: 'www.bluebottlecoffee.com' }), ROUTE, 'post');
      expect(created.statusCode).toBe(201);
      expect(created.headers['cache-control']).toBe('no-store');
      const body = created.json();
      expect(body).toEqual({
        id: expect.stringMatching(/^mco_[a-z2-7]{24}$/),
        transactionLabel: 'SQ *BLUE BOTTLE COF 4',
        key: 'blue bottle cof',
        countryCode: 'US',
        domain: 'bluebottlecoffee.com',
        notMerchant: false,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        createdBy: keyId,
        removedAt: null,
        removedBy: null,
        replacedId: null,
      });
      const replacing = documented(await add(key, { transactionLabel: 'SQ *BLUE BOTTLE COF 7', countryCode: 'US', notMerchant: true }), ROUTE, 'post').json();
      expect(replacing).toMatchObject({ key: 'blue bottle cof', domain: null, notMerchant: true, replacedId: body.id });
      const { replacedId: _, ...listed } = replacing;
      expect(documented(await list(key), ROUTE, 'get').json()).toEqual({ corrections: [listed], nextCursor: null });

      const removed = documented(await remove(key, replacing.id), `${ROUTE}/{id}`, 'delete');
      expect(removed.statusCode).toBe(200);
      expect(removed.json()).toMatchObject({ id: replacing.id, removedBy: keyId, removedAt: expect.any(String) });
      expect((await list(key)).json().corrections).toEqual([]);
      const trail = (await list(key, '?includeRemoved=true')).json().corrections;
      expect(trail.map((c: { id: string }) => c.id)).toEqual([replacing.id, body.id]);
      expect(trail[1]).toMatchObject({ removedBy: keyId, removedAt: replacing.createdAt });

      const again = await remove(key, replacing.id);
      expect(again.statusCode).toBe(404);
      expect(again.json()).toEqual({ message: 'Correction not found.' });
    });

    it("pages newest first; another organization's corrections are neither listed nor removable", async () => {
      const mine = await stack.newKey();
      const theirs = await stack.newKey();
      const ids: string[] = [];
      for (const word of ['ALPHA', 'BRAVO', 'CHARLIE']) ids.unshift((await add(mine.key, { transactionLabel: `${word} STORES`, notMerchant: true })).json().id);
      const first = (await list(mine.key, '?first=2')).json();
      expect(first.corrections.map((c: { id: string }) => c.id)).toEqual(ids.slice(0, 2));
      const second = (await list(mine.key, `?first=2&after=${encodeURIComponent(first.nextCursor)}`)).json();
      expect(second).toMatchObject({ nextCursor: null, corrections: [{ id: ids[2] }] });
      expect((await list(theirs.key)).json().corrections).toEqual([]);
      const foreign = await remove(theirs.key, ids[0] ?? '');
      expect(foreign.statusCode).toBe(404);
      expect(foreign.headers['x-bf-error']).toBeUndefined();
      expect((await list(mine.key)).json().corrections).toHaveLength(3);
    });

    it('refuses a bad body, page size, cursor or flag with the registry code and the reason', async () => {
      const { key, orgId } = await stack.newKey();
      const bodies: [unknown, RegExp][] = [
        [{ countryCode: 'US', domain: 'a.example' }, /^Invalid correction: send transactionLabel .*transactionLabel/],
        [{ transactionLabel: 'ACME', domain: 'a.example', color: 'red' }, /^Invalid correction: send transactionLabel .*additional properties/],
        [{ transactionLabel: 'x'.repeat(257), domain: 'a.example' }, /^Invalid correction: send transactionLabel/],
        [{ transactionLabel: 'ACME', countryCode: 'USA', domain: 'a.example' }, /^Invalid correction: send transactionLabel/],
        [{ transactionLabel: 'ACME', notMerchant: 'yes' }, /^Invalid correction: send transactionLabel/],
        [[], /^Invalid correction: send transactionLabel/],
        [{ transactionLabel: '   ', domain: 'a.example' }, /^Invalid correction: transactionLabel must be a string of 1 to 256 characters/],
        [{ transactionLabel: 'ACME' }, /^Invalid correction: send either domain/],
        [{ transactionLabel: 'ACME', domain: null }, /^Invalid correction: send either domain/],
        [{ transactionLabel: 'ACME', domain: 'https://acme.example/x' }, /^Invalid correction: domain "https:\/\/acme.example\/x" is not a domain name \(Website URLs are not accepted/],
        [{ transactionLabel: '#1234 03/14', notMerchant: true }, /^Invalid correction: the descriptor has no merchant words/],
      ];
      for (const [payload, message] of bodies) {
        const res = documented(await add(key, payload), ROUTE, 'post');
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().message).toMatch(message);
      }
      for (const [query, code] of [
        ['?first=0', '`first` must be between 1 and 100.'],
        ['?first=101', '`first` must be between 1 and 100.'],
        ['?first=ten', '`first` must be between 1 and 100.'],
        ['?after=bm9wZQ', 'Invalid cursor: pass a cursor this API returned, unchanged.'],
        ['?includeRemoved=yes', 'Invalid correction: includeRemoved must be true or false.'],
      ] as const) {
        const res = documented(await list(key, query), ROUTE, 'get');
        expect(res.statusCode, query).toBe(400);
        expect(res.json()).toEqual({ message: code });
      }
      expect((await stack.services.merchantCorrections.list(orgId, { includeRemoved: true })).corrections).toEqual([]);
    });

    it('answers 409 past the corrections that apply and 429 with Retry-After past the additions of the window', async () => {
      const deps = appDepsFor(stack.services);
      const bounded = new MerchantCorrections(stack.services.stores.merchantCorrections, { limits: { maxActive: 1, maxAdded: 2, windowMs: 3_600_000 } });
      const app = await buildApp({ ...deps, corrections: bounded });
      try {
        const { key } = await stack.newKey();
        expect((await add(key, { transactionLabel: 'ONE SHOP', notMerchant: true }, app)).statusCode).toBe(201);
        const full = documented(await add(key, { transactionLabel: 'TWO SHOP', notMerchant: true }, app), ROUTE, 'post');
        expect(full.statusCode).toBe(409);
        expect(full.json()).toEqual({ message: 'Too many corrections: an organization may have at most 1 that apply. Remove one to add another. Nothing was changed.' });
        expect((await add(key, { transactionLabel: 'ONE SHOP', domain: 'one.example' }, app)).statusCode).toBe(201);
        const rate = documented(await add(key, { transactionLabel: 'ONE SHOP', domain: 'uno.example' }, app), ROUTE, 'post');
        expect(rate.statusCode).toBe(429);
        expect(rate.headers['x-bf-error']).toBe('rate_limited');
        expect(Number(rate.headers['retry-after'])).toBeGreaterThan(3500);
        expect(rate.json().message).toMatch(/^Too many corrections added: an organization may add at most 2 an hour\. Retry in \d+ seconds\. Nothing was changed\.$/);
      } finally {
        await app.close();
      }
    });
  });

  describe('what a correction does to POST /v2/brands/transaction', () => {
    it("decides before every rule for its organization only, charged as usual; removed, the rules answer again", async () => {
      const a = await stack.newKey();
      const b = await stack.newKey();
      const rules = await transaction(a.key, 'RULE MERCHANT 0042');
      expect(rules.json().domain).toBe('rulemerchant.com');
      const { id } = (await add(a.key, { transactionLabel: 'RULE MERCHANT 0042', domain: 'correctedmerchant.com' })).json();

      const corrected = await transaction(a.key, 'POS DEBIT RULE MERCHANT 9999 SEATTLE WA');
      expect(corrected.statusCode).toBe(200);
      expect(corrected.json()).toEqual((await stack.app.inject({ method: 'GET', url: '/v2/brands/correctedmerchant.com', headers: bearer(b.key) })).json());
      expect(corrected.headers).toMatchObject({ 'x-bf-match-source': 'correction', 'x-bf-match-confidence': '1.00', 'x-bf-matched-alias': 'rule merchant' });
      // The rules' answer, the corrected answer: one credit each.
      expect(await stack.services.meter.exactUsed(a.orgId)).toBe(2);
      expect((await transaction(b.key, 'RULE MERCHANT 0042')).json().domain).toBe('rulemerchant.com');

      expect((await remove(a.key, id)).statusCode).toBe(200);
      const again = await transaction(a.key, 'RULE MERCHANT 0042');
      expect(again.json().domain).toBe('rulemerchant.com');
      expect(again.headers['x-bf-match-source']).toBe('brand');
    });

    it('wins over the curated alias table and a seller-of-record prefix too', async () => {
      const { key } = await stack.newKey();
      await holdBrand(stack.services.stores.brands, { domain: 'starbucks.com', name: 'Starbucks', countryCode: 'US' });
      await holdBrand(stack.services.stores.brands, { domain: 'doordash.com', name: 'DoorDash', countryCode: 'US' });
      expect((await transaction(key, 'STARBUCKS 1234')).headers['x-bf-match-source']).toBe('alias');
      expect((await transaction(key, 'DD *JOES PIZZA')).headers['x-bf-match-source']).toBe('processor');
      await add(key, { transactionLabel: 'STARBUCKS 0001', countryCode: 'US', domain: 'correctedmerchant.com' });
      await add(key, { transactionLabel: 'DD *JOES PIZZA', domain: 'correctedmerchant.com' });
      for (const label of ['STARBUCKS 1234', 'DD *JOES PIZZA']) {
        const res = await transaction(key, label);
        expect([res.json().domain, res.headers['x-bf-match-source']], label).toEqual(['correctedmerchant.com', 'correction']);
      }
    });

    it('answers "not a merchant" with 400 Failed to enrich transaction, uncharged; a country correction only in its country', async () => {
      const { key, orgId } = await stack.newKey();
      await add(key, { transactionLabel: 'RULE MERCHANT', countryCode: 'GB', notMerchant: true });
      expect((await transaction(key, 'RULE MERCHANT', 'US')).json().domain).toBe('rulemerchant.com');
      const refused = await transaction(key, 'RULE MERCHANT', 'GB');
      expect(refused.statusCode).toBe(400);
      expect(refused.headers['x-bf-error']).toBe('transaction_not_enriched');
      expect(refused.json()).toEqual({ message: 'Failed to enrich transaction' });
      expect(await stack.services.meter.exactUsed(orgId)).toBe(1);
    });

    it("applies the operator's aliases to every organization, after the organization's own correction", async () => {
      const a = await stack.newKey();
      const b = await stack.newKey();
      const { correction: alias } = await stack.services.merchantCorrections.add(OPERATOR_SCOPE, { transactionLabel: 'OPERATOR PICK SHOP', domain: 'operatorpick.com' }, 'cli');
      try {
        await add(a.key, { transactionLabel: 'OPERATOR PICK SHOP 12', domain: 'correctedmerchant.com' });
        const own = await transaction(a.key, 'OPERATOR PICK SHOP');
        expect([own.json().domain, own.headers['x-bf-match-source']]).toEqual(['correctedmerchant.com', 'correction']);
        const operator = await transaction(b.key, 'OPERATOR PICK SHOP');
        expect([operator.json().domain, operator.headers['x-bf-match-source']]).toEqual(['operatorpick.com', 'operator']);
        // An operator alias is not the organization's: its API neither lists nor removes it.
        expect((await list(b.key)).json().corrections).toEqual([]);
        expect((await remove(b.key, alias.id)).statusCode).toBe(404);
      } finally {
        await stack.services.merchantCorrections.remove(OPERATOR_SCOPE, alias.id, 'cli');
      }
    });

    it('answers 503 when the corrections cannot be read, never the rules, and charges nothing', async () => {
      const deps = appDepsFor(stack.services);
      const app = await buildApp({ ...deps, usecases: { ...deps.usecases, corrections: { find: () => Promise.reject(new Error('store down')) } } });
      try {
        const { key, orgId } = await stack.newKey();
        const res = await transaction(key, 'RULE MERCHANT 0042', 'US', app);
        expect(res.statusCode).toBe(503);
        expect(res.headers).toMatchObject({ 'x-bf-error': 'temporarily_unavailable', 'retry-after': '10' });
        expect(await stack.services.meter.exactUsed(orgId)).toBe(0);
      } finally {
        await app.close();
      }
    });
  });
});
