/**
 * POST /v2/brands/transaction (spec 4.6, 5.2, 7.2; docs/transactions.md) through inject on the real service: every
 * error path with its status, code and charge, a match charged one credit with the audit headers (the processor that
 * carried the payment included), payments to people and account transfers refused for free (issue 34), live
 * indexing of a merchant not held yet, and real answers validated against /openapi.json.
 */
import { Ajv } from 'ajv';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_HOSTS, startFixtureSites, type FixtureSites } from '../helpers/fixture-sites.js';
import { bearer, startTestStack, type TestStack } from '../helpers/test-stack.js';
import { holdBrand } from '../../eval/transactions/eval-store.js';
import { evm, Mppx } from 'mppx/client';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ASSET, challengeOf, NETWORK, newWallet, PRICE } from '../payments/x402-wallet.js';
import { describeEachBackend } from '../helpers/backends.js';

describeEachBackend('transaction route', (backend) => {
  let stack: TestStack;
  let sites: FixtureSites;
  const URL_PATH = '/v2/brands/transaction';

  beforeAll(async () => {
    sites = await startFixtureSites();
    // netflix.com answers nothing (a closed port): a matched merchant whose site cannot be read right now.
    stack = await startTestStack({ BRANDBASE_CRAWL_HOSTS: JSON.stringify({ ...sites.hostMap, 'netflix.com': '127.0.0.1:1' }) }, { backend });
    await holdBrand(stack.services.stores.brands, { domain: 'bluebottlecoffee.com', name: 'Blue Bottle Coffee', countryCode: 'US' });
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
    await sites?.close();
  });

  function post(payload: unknown, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    return stack.app.inject({ method: 'POST', url: URL_PATH, headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify(payload) });
  }

  describe('POST /v2/brands/transaction', () => {
    it('answers the full Brand of the merchant, charged one credit, with the confidence and the matched alias', async () => {
      const { key, orgId } = await stack.newKey();
      const res = await post({ transactionLabel: 'SQ *BLUE BOTTLE COF 4', countryCode: 'us' }, bearer(key));
      expect(res.statusCode).toBe(200);
      const lookup = await stack.app.inject({ method: 'GET', url: '/v2/brands/bluebottlecoffee.com', headers: bearer(key) });
      expect(res.json()).toEqual(lookup.json());
      expect(Number(res.headers['x-bf-match-confidence'])).toBeGreaterThanOrEqual(0.85);
      expect(res.headers['x-bf-match-confidence']).toMatch(/^\d\.\d\d$/);
      expect(res.headers['x-bf-matched-alias']).toBe('Blue Bottle Coffee');
      expect(res.headers['x-bf-match-source']).toBe('brand');
      // Square carried the payment for Blue Bottle.
      expect(res.headers['x-bf-payment-processor']).toBe('square');
      expect(res.headers['x-api-key-quota']).toBe('1000');
      // One credit for the transaction, one for the GET it was compared with.
      expect(await stack.services.meter.exactUsed(orgId)).toBe(2);
    });

    it('an alias match names the curated pattern, and noise, store number, city and state are read past', async () => {
      await holdBrand(stack.services.stores.brands, { domain: 'starbucks.com', name: 'Starbucks', countryCode: 'US' });
      const { key, orgId } = await stack.newKey();
      const res = await post({ transactionLabel: 'POS DEBIT STARBUCKS 1234 SEATTLE WA', countryCode: 'US', mcc: 5814, city: 'Seattle' }, bearer(key));
      expect(res.statusCode).toBe(200);
      expect(res.json().domain).toBe('starbucks.com');
      expect(res.headers['x-bf-matched-alias']).toBe('starbucks');
      expect(res.headers['x-bf-match-source']).toBe('alias');
      expect(res.headers['x-bf-payment-processor']).toBeUndefined();
      expect(await stack.services.meter.exactUsed(orgId)).toBe(1);
    });

    it('a merchant a processor carried: its Brand, with x-bf-payment-processor naming the processor', async () => {
      const { key, orgId } = await stack.newKey();
      const res = await post({ transactionLabel: 'PAYPAL *BLUE BOTTLE COF', countryCode: 'US' }, bearer(key));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().domain).toBe('bluebottlecoffee.com');
      expect(res.headers['x-bf-payment-processor']).toBe('paypal');
      expect(res.headers['x-bf-match-source']).toBe('brand');
      expect(await stack.services.meter.exactUsed(orgId)).toBe(1);
    });

    it('people, account transfers, fees, cash, cheques and pay: 400 "Failed to enrich transaction", never the intermediary, not charged', async () => {
      const { key, orgId } = await stack.newKey();
      const lines: [string, string][] = [
        ['PAYPAL *JOHNSMITH', 'US'],
        ['PAYPAL *J SMITH', 'GB'],
        ['PAYPAL', 'US'],
        ['PAYPAL INST XFER 1234567 WEB ID: PAYPALSI77', 'US'],
        ['VENMO *JANE DOE', 'US'],
        ['VENMO PAYMENT 1023456789 WEB ID: 3264681992', 'US'],
        ['ZELLE TO JANE DOE', 'US'],
        ['CASH APP*JOHN SMITH*4158523', 'US'],
        ['APPLE CASH SENT MONEY', 'US'],
        ['REVOLUT**1234*', 'GB'],
        ['WISE.COM', 'GB'],
        ['FASTER PAYMENT J SMITH', 'GB'],
        ['DAUERAUFTRAG MIETE', 'DE'],
        ['VIR INST DE MARIE MARTIN', 'FR'],
        ['RETRAIT DAB 14/03 PARIS', 'FR'],
        ['BIZUM ENVIADO A MARIA', 'ES'],
        ['INTERAC E-TRF 1234', 'CA'],
        ['SHELL ATM 1234', 'US'],
        ['CHECK #1042', 'US'],
        ['ACME CORP PAYROLL', 'US'],
        ['OVERDRAFT FEE', 'US'],
      ];
      for (const [label, countryCode] of lines) {
        const res = await post({ transactionLabel: label, countryCode }, bearer(key));
        expect(res.statusCode, label).toBe(400);
        expect(res.json(), label).toEqual({ message: 'Failed to enrich transaction' });
        expect(res.headers['x-bf-error']).toBe('transaction_not_enriched');
        expect(res.headers['x-bf-payment-processor']).toBeUndefined();
      }
      // A money-transfer MCC: whatever the name after PayPal, a transfer.
      const transfer = await post({ transactionLabel: 'PAYPAL *BLUE BOTTLE COF', countryCode: 'US', mcc: '4829' }, bearer(key));
      expect(transfer.statusCode).toBe(400);
      expect(await stack.services.meter.exactUsed(orgId)).toBe(0);
    });

    it('an incomplete or malformed body answers 400 whatever the credential, before any credential check', async () => {
      const { key, orgId } = await stack.newKey();
      const bodies: unknown[] = [
        { countryCode: 'US' },
        { transactionLabel: 'STARBUCKS 123' },
        { transactionLabel: '   ', countryCode: 'US' },
        { transactionLabel: 'STARBUCKS 123', countryCode: 'USA' },
        { transactionLabel: 12, countryCode: 'US' },
        { transactionLabel: 'STARBUCKS 123', countryCode: 'US', mcc: 'food' },
        { transactionLabel: 'x'.repeat(257), countryCode: 'US' },
        [],
      ];
      for (const body of bodies) {
        for (const headers of [{}, bearer(key), bearer('bb_live_nope'), { authorization: 'Basic x' }]) {
          const res = await post(body, headers);
          expect(res.statusCode, JSON.stringify(body)).toBe(400);
          expect(res.headers['x-bf-error']).toBe('invalid_transaction');
          expect(res.json().message).toMatch(/^Invalid transaction/);
        }
      }
      const notJson = await stack.app.inject({ method: 'POST', url: URL_PATH, headers: { 'content-type': 'application/json' }, payload: '{"transactionLabel":' });
      expect(notJson.statusCode).toBe(400);
      expect(notJson.body).not.toContain('at ');
      expect(await stack.services.meter.exactUsed(orgId)).toBe(0);
    });

    it('unknown body properties are ignored', async () => {
      const { key } = await stack.newKey();
      const res = await post({ transactionLabel: 'SQ *BLUE BOTTLE COF 4', countryCode: 'US', amount: 4.5, currency: 'USD' }, bearer(key));
      expect(res.statusCode).toBe(200);
    });

    it('no confident merchant: 400 "Failed to enrich transaction", not charged', async () => {
      const { key, orgId } = await stack.newKey();
      for (const label of ['ATM WITHDRAWAL 1234 MAIN ST', 'SQ *MARIAS TAQUERIA', 'WOOLWORTHS 1234']) {
        const res = await post({ transactionLabel: label, countryCode: 'US' }, bearer(key));
        expect(res.statusCode, label).toBe(400);
        expect(res.json()).toEqual({ message: 'Failed to enrich transaction' });
        expect(res.headers['x-bf-error']).toBe('transaction_not_enriched');
      }
      expect(await stack.services.meter.exactUsed(orgId)).toBe(0);
    });

    it('pay per request (x402): 0.10 USD taken for a returned brand, nothing for no match', async () => {
      const body = { transactionLabel: 'SQ *BLUE BOTTLE COF 4', countryCode: 'US' };
      const challenge = challengeOf((await post(body)).headers);
      expect(challenge.accepts[0]?.amount).toBe(String(PRICE));
      const wallet = await newWallet(stack.services.stores.payments, PRICE);
      const paid = await post(body, { 'payment-signature': await wallet.pay(challenge) });
      expect(paid.statusCode).toBe(200);
      expect(paid.headers['payment-response']).toBeTruthy();
      expect(await wallet.balance()).toBe(0n);

      const unmatched = { transactionLabel: 'MONTHLY SERVICE FEE', countryCode: 'US' };
      const other = await newWallet(stack.services.stores.payments, PRICE);
      const refused = await post(unmatched, { 'payment-signature': await other.pay(challengeOf((await post(unmatched)).headers)) });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe('Failed to enrich transaction');
      expect(await other.balance()).toBe(PRICE);

      // A payment to a person is refused the same way: the wallet keeps its money.
      const person = { transactionLabel: 'VENMO *JANE DOE', countryCode: 'US' };
      const third = await newWallet(stack.services.stores.payments, PRICE);
      const p2p = await post(person, { 'payment-signature': await third.pay(challengeOf((await post(person)).headers)) });
      expect(p2p.statusCode).toBe(400);
      expect(p2p.json()).toEqual({ message: 'Failed to enrich transaction' });
      expect(await third.balance()).toBe(PRICE);
    });

    it('pay per request (MPP): a credential pays for the exact request it was challenged for, not another descriptor', async () => {
      const account = privateKeyToAccount(generatePrivateKey());
      await stack.services.stores.payments.creditLedger(NETWORK, ASSET, account.address, 1_000_000n);
      const mppx = Mppx.create({ methods: [evm.charge({ account, networks: [84532], authorization: { name: 'USDC', version: '2' } })], polyfill: false });
      const body = { transactionLabel: 'SQ *BLUE BOTTLE COF 4', countryCode: 'US' };
      const unpaid = await post(body);
      const credential = await mppx.createCredential(new Response(unpaid.body, { status: 402, headers: unpaid.headers as Record<string, string> }));
      const another = await post({ ...body, transactionLabel: 'SQ *BLUE BOTTLE COF 5' }, { authorization: credential });
      expect(another.statusCode).toBe(402);
      const paid = await post(body, { authorization: credential });
      expect(paid.statusCode).toBe(200);
      expect(paid.headers['payment-receipt']).toBeTruthy();
      // The response was lost: the retry of the same request is served from the same payment.
      expect((await post(body, { authorization: credential })).statusCode).toBe(200);
      expect(await stack.services.stores.payments.ledgerBalance(NETWORK, ASSET, account.address)).toBe(1_000_000n - PRICE);
    });

    it('503 (retry) when the merchant is known but its site cannot be read now; never charged', async () => {
      const { key, orgId } = await stack.newKey();
      for (let i = 0; i < 2; i++) {
        const res = await post({ transactionLabel: 'NETFLIX.COM 866-579-7172 CA', countryCode: 'US' }, bearer(key));
        expect(res.statusCode).toBe(503);
        expect(res.headers['x-bf-error']).toBe('temporarily_unavailable');
        expect(res.headers['retry-after']).toBe('10');
      }
      expect(await stack.services.meter.exactUsed(orgId)).toBe(0);
    });

    it('a merchant not held yet is indexed live from the domain the descriptor writes', async () => {
      const { key, orgId } = await stack.newKey();
      const res = await post({ transactionLabel: `${FIXTURE_HOSTS.northwind.toUpperCase()} 555-0100`, countryCode: 'US' }, bearer(key));
      expect(res.statusCode).toBe(200);
      expect(res.json().domain).toBe(FIXTURE_HOSTS.northwind);
      expect(res.headers['x-bf-match-source']).toBe('domain');
      expect(await stack.services.meter.exactUsed(orgId)).toBe(1);
    });

    it('real answers validate against /openapi.json and every header they carry is described', async () => {
      const doc = (await stack.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
        paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema: unknown }> }> }>>;
        components: unknown;
      };
      const op = doc.paths[URL_PATH]?.post;
      expect(op).toBeDefined();
      const ajv = new Ajv({ strict: false, allErrors: true });
      const framing = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);
      const { key } = await stack.newKey();
      const answers = [
        await post({ transactionLabel: 'SQ *BLUE BOTTLE COF 4', countryCode: 'US' }, bearer(key)),
        await post({ transactionLabel: 'ATM WITHDRAWAL', countryCode: 'US' }, bearer(key)),
        await post({ countryCode: 'US' }),
        await post({ transactionLabel: 'SQ *BLUE BOTTLE COF 4', countryCode: 'US' }),
        await post({ transactionLabel: 'SQ *BLUE BOTTLE COF 4', countryCode: 'US' }, bearer('bb_live_nope')),
        await post({ transactionLabel: 'NETFLIX.COM', countryCode: 'US' }, bearer(key)),
      ];
      expect(answers.map((a) => a.statusCode)).toEqual([200, 400, 400, 402, 403, 503]);
      for (const res of answers) {
        const response = op?.responses[String(res.statusCode)];
        expect(response, `documents ${res.statusCode}`).toBeDefined();
        const schema = response?.content?.['application/json']?.schema;
        if (schema) {
          const check = ajv.compile({ ...(schema as object), components: doc.components });
          expect(check(res.json()), `${res.statusCode}: ${ajv.errorsText(check.errors)}`).toBe(true);
        }
        const sent = Object.keys(res.headers).filter((name) => !framing.has(name));
        expect(Object.keys(response?.headers ?? {}), `${res.statusCode} describes its headers`).toEqual(expect.arrayContaining(sent));
      }
    });
  });
});
