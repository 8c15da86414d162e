/**
 * Merchant corrections (issue 34): the key a descriptor is filed under (descriptor.ts's merchant words), which
 * correction applies when several do, and the service (transactions/corrections/merchant-corrections.ts) on a real
 * SQLite store: validation with the exact messages, replacement, removal, paging cursors, the bounds of an
 * organization (409 and 429 with Retry-After) and the operator's aliases, which have none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/domain/errors.js';
import { newId } from '../../src/domain/ids.js';
import { applicableCorrection, correctionKey, lookupKeys, OPERATOR_SCOPE, type MerchantCorrection } from '../../src/transactions/corrections/merchant-correction.js';
import { MerchantCorrections, type CorrectionInput } from '../../src/transactions/corrections/merchant-corrections.js';
import { tempSqlite, type TempDatabase } from '../store/temp-database.js';

describe('the key a descriptor is filed under', () => {
  it('is the merchant words: store numbers, processor prefixes, noise and reference codes do not count', () => {
    expect(correctionKey('SQ *BLUE BOTTLE COF 4', 'US')).toBe('blue bottle cof');
    expect(correctionKey('SQ *BLUE BOTTLE COF 7', 'US')).toBe('blue bottle cof');
    expect(correctionKey('POS DEBIT SQ *BLUE BOTTLE COF 1234', null)).toBe('blue bottle cof');
    expect(correctionKey('AMZN Mktp US*2K4AB12C3', 'US')).toBe(correctionKey('AMZN MKTP US*9ZZ99ZZ9', 'US'));
    // A cut word is kept as printed: the key is compared exactly, never as a prefix.
    expect(correctionKey('SQ *BLUE BOTTLE COFFEE', 'US')).toBe('blue bottle coffee');
    expect(correctionKey('#1234 03/14', 'US')).toBe('');
  });

  it("drops the location words of the correction's country; for every country it keeps them", () => {
    expect(correctionKey('STARBUCKS SEATTLE WA', 'US')).toBe('starbucks');
    expect(correctionKey('STARBUCKS SEATTLE WA', null)).toBe('starbucks seattle wa');
    expect(correctionKey('CORNER SHOP OAKVILLE', 'CA', 'Oakville')).toBe('corner shop');
  });

  it("looks a transaction up under its words in its country, with and without its city, and read as of no country", () => {
    expect(lookupKeys('STARBUCKS 1234 SEATTLE WA', 'US').sort()).toEqual(['starbucks', 'starbucks seattle wa']);
    expect(lookupKeys('CORNER SHOP OAKVILLE', 'CA', 'Oakville').sort()).toEqual(['corner shop', 'corner shop oakville']);
    expect(lookupKeys('#1234', 'US')).toEqual([]);
  });

  it("applies the organization's own first, then its country's, then the longer key, then the newest", () => {
    const c = (scope: string, key: string, countryCode: string | null, at: number): MerchantCorrection => ({
      id: newId('mco'), scope, label: key, key, countryCode, domain: `${scope}.${key.replace(/ /g, '')}.${countryCode ?? 'any'}.${at}.example`, createdBy: 'cli', createdAt: new Date(at), removedBy: null, removedAt: null,
    });
    const operatorUs = c(OPERATOR_SCOPE, 'starbucks', 'US', 5);
    const ownAny = c('org_a', 'starbucks', null, 1);
    const ownUs = c('org_a', 'starbucks', 'US', 1);
    const ownLonger = c('org_a', 'starbucks seattle wa', null, 1);
    const ownNewer = c('org_a', 'starbucks', 'US', 2);
    expect(applicableCorrection([operatorUs, ownAny], 'org_a')).toBe(ownAny);
    expect(applicableCorrection([ownAny, ownUs, operatorUs], 'org_a')).toBe(ownUs);
    expect(applicableCorrection([ownAny, ownLonger], 'org_a')).toBe(ownLonger);
    expect(applicableCorrection([ownUs, ownNewer], 'org_a')).toBe(ownNewer);
    expect(applicableCorrection([operatorUs, ownUs], null)).toBe(operatorUs);
    expect(applicableCorrection([], 'org_a')).toBeNull();
  });
});

describe('MerchantCorrections on a real store', () => {
  let temp: TempDatabase;
  let now = Date.UTC(2026, 11, 8, 9);
  let corrections: MerchantCorrections;
  const clock = () => new Date(now);

  beforeAll(async () => {
    temp = await tempSqlite();
    await temp.migrate();
    corrections = new MerchantCorrections(temp.stores.merchantCorrections, { limits: { maxActive: 3, maxAdded: 5, windowMs: 60_000 }, clock });
  });
  afterAll(async () => temp?.cleanup());

  async function refusal(run: () => Promise<unknown>): Promise<ApiError> {
    const error = await run().then(
      () => null,
      (e: unknown) => e,
    );
    if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
    return error;
  }

  it('files a correction with its registrable domain and country, and finds it for the transaction', async () => {
    const org = newId('org');
    const { correction, replaced } = await corrections.add(org, { transactionLabel: '  SQ *BLUE BOTTLE COF 4 ', countryCode: 'us', domain: 'Shop.BlueBottleCoffee.com.' }, 'key_1');
    expect(replaced).toBeNull();
    expect(correction).toMatchObject({ scope: org, label: 'SQ *BLUE BOTTLE COF 4', key: 'blue bottle cof', countryCode: 'US', domain: 'bluebottlecoffee.com', createdBy: 'key_1', createdAt: clock() });
    expect(await corrections.find(org, { transactionLabel: 'SQ *BLUE BOTTLE COF 9', countryCode: 'US' })).toEqual({ domain: 'bluebottlecoffee.com', confidence: 1, alias: 'blue bottle cof', source: 'correction', correctionId: correction.id });
    expect(await corrections.find(org, { transactionLabel: 'SQ *BLUE BOTTLE COF 9', countryCode: 'GB' })).toBeNull();
    expect(await corrections.find(newId('org'), { transactionLabel: 'SQ *BLUE BOTTLE COF 9', countryCode: 'US' })).toBeNull();
  });

  it("answers the operator's alias to everyone after an organization's own, and to payers of no organization", async () => {
    const org = newId('org');
    const label = `OPERATOR ALIAS ${org.slice(4, 12).replace(/[0-9]/g, 'x')}`;
    const { correction: alias } = await corrections.add(OPERATOR_SCOPE, { transactionLabel: label, notMerchant: true }, 'cli');
    expect(await corrections.find(org, { transactionLabel: label, countryCode: 'FR' })).toMatchObject({ domain: null, source: 'operator', correctionId: alias.id });
    expect(await corrections.find(null, { transactionLabel: label, countryCode: 'FR' })).toMatchObject({ source: 'operator' });
    const { correction: own } = await corrections.add(org, { transactionLabel: label, domain: 'own.example' }, 'key_1');
    expect(await corrections.find(org, { transactionLabel: label, countryCode: 'FR' })).toMatchObject({ domain: 'own.example', source: 'correction', correctionId: own.id });
    // The operator's aliases are not bounded by an organization's limits.
    for (let i = 0; i < 6; i++) await corrections.add(OPERATOR_SCOPE, { transactionLabel: `${label} EXTRA ${'abcdef'[i]}`, domain: 'many.example' }, 'cli');
  });

  it('refuses bad input with the exact reason, writing nothing', async () => {
    const org = newId('org');
    const cases: [CorrectionInput, string][] = [
      [{ transactionLabel: '   ', domain: 'a.example' }, 'Invalid correction: transactionLabel must be a string of 1 to 256 characters, not only spaces.'],
      [{ transactionLabel: 'x'.repeat(257), domain: 'a.example' }, 'Invalid correction: transactionLabel must be a string of 1 to 256 characters, not only spaces.'],
      [{ transactionLabel: 'ACME', countryCode: 'USA', domain: 'a.example' }, 'Invalid correction: countryCode must be an ISO 3166 alpha-2 code, or absent for every country.'],
      [{ transactionLabel: 'ACME' }, "Invalid correction: send either domain (the merchant's domain) or notMerchant: true."],
      [{ transactionLabel: 'ACME', domain: 'a.example', notMerchant: true }, "Invalid correction: send either domain (the merchant's domain) or notMerchant: true."],
      [{ transactionLabel: 'ACME', domain: 'someone@acme.example' }, 'Invalid correction: domain "someone@acme.example" is not a domain name (Email addresses are not accepted on the domain route; use /v2/brands/{identifier}.).'],
      [{ transactionLabel: 'ACME', domain: 'localhost' }, 'Invalid correction: domain "localhost" is not a domain name (Invalid domain.).'],
      [{ transactionLabel: 'CHECKCARD 0314 #1234', domain: 'a.example' }, 'Invalid correction: the descriptor has no merchant words to file it under (only numbers, card-network noise, a processor prefix or a location).'],
    ];
    for (const [input, message] of cases) {
      const error = await refusal(() => corrections.add(org, input, 'key_1'));
      expect({ code: error.code, status: error.status, message: error.message }).toEqual({ code: 'invalid_correction', status: 400, message });
    }
    expect((await corrections.list(org, { includeRemoved: true })).corrections).toEqual([]);
  });

  it('replaces, removes once (404 after, and for another scope), and pages with its own cursors', async () => {
    const org = newId('org');
    const first = await corrections.add(org, { transactionLabel: 'ACME STORE 1', domain: 'acme.example' }, 'key_1');
    now += 1;
    const second = await corrections.add(org, { transactionLabel: 'ACME STORE 2', domain: 'acme-two.example' }, 'usr_2');
    expect(second.replaced).toMatchObject({ id: first.correction.id, removedBy: 'usr_2', removedAt: clock() });
    expect((await refusal(() => corrections.remove(newId('org'), second.correction.id, 'key_x'))).code).toBe('correction_not_found');
    expect(await corrections.remove(org, second.correction.id, 'key_1')).toMatchObject({ removedBy: 'key_1' });
    const again = await refusal(() => corrections.remove(org, second.correction.id, 'key_1'));
    expect({ code: again.code, status: again.status, message: again.message }).toEqual({ code: 'correction_not_found', status: 404, message: 'Correction not found.' });

    const firstPage = await corrections.list(org, { first: 1, includeRemoved: true });
    expect(firstPage).toMatchObject({ hasNextPage: true, corrections: [{ id: second.correction.id }] });
    const secondPage = await corrections.list(org, { first: 1, after: firstPage.endCursor, includeRemoved: true });
    expect(secondPage).toMatchObject({ hasNextPage: false, endCursor: null, corrections: [{ id: first.correction.id }] });
    expect((await refusal(() => corrections.list(org, { after: 'bm90IGEgY3Vyc29y' }))).code).toBe('invalid_cursor');
    for (const first of [0, 101, 1.5]) expect((await refusal(() => corrections.list(org, { first }))).code).toBe('invalid_page_size');
  });

  it('bounds an organization: 409 past the corrections that apply, 429 with Retry-After past the additions of the window', async () => {
    const org = newId('org');
    for (const name of ['ALPHA', 'BRAVO', 'CHARLIE']) await corrections.add(org, { transactionLabel: name, notMerchant: true }, 'key_1');
    const tooMany = await refusal(() => corrections.add(org, { transactionLabel: 'DELTA', notMerchant: true }, 'key_1'));
    expect({ code: tooMany.code, status: tooMany.status, message: tooMany.message }).toEqual({
      code: 'too_many_corrections',
      status: 409,
      message: 'Too many corrections: an organization may have at most 3 that apply. Remove one to add another. Nothing was changed.',
    });
    // A replacement passes the first bound; the fifth addition of the minute fills the second.
    await corrections.add(org, { transactionLabel: 'ALPHA', domain: 'alpha.example' }, 'key_1');
    await corrections.add(org, { transactionLabel: 'BRAVO', domain: 'bravo.example' }, 'key_1');
    now += 20_000;
    const rate = await refusal(() => corrections.add(org, { transactionLabel: 'CHARLIE', domain: 'charlie.example' }, 'key_1'));
    expect({ code: rate.code, status: rate.status, message: rate.message, headers: rate.headers }).toEqual({
      code: 'rate_limited',
      status: 429,
      message: 'Too many corrections added: an organization may add at most 5 a minute. Retry in 40 seconds. Nothing was changed.',
      headers: { 'retry-after': '40' },
    });
    now += 40_000;
    expect((await corrections.add(org, { transactionLabel: 'CHARLIE', domain: 'charlie.example' }, 'key_1')).replaced).not.toBeNull();
  });
});
