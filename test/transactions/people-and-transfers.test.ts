/**
 * People and intermediaries are never the merchant (issue 34), through the matcher on a real store (the eval store:
 * embedded reference data, the alias table and held brands) on SQLite and PostgreSQL: payments to people, account
 * transfers, fees, cash, cheques and pay answer no merchant, the intermediary included; a merchant a processor
 * carried is answered with the processor's id; a seller of record and a direct payment carry none.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openEvalStore, type EvalStore } from '../../eval/transactions/eval-store.js';
import { describeEachBackend, openBackendDatabase } from '../helpers/backends.js';
import type { SharedDatabase } from '../helpers/shared-database.js';

/** A brand named after a person that no alias row names: found by its name alone, never behind a facilitator. */
const KORS = { domain: 'michaelkors.com', name: 'Michael Kors', countryCode: 'US' };

describeEachBackend('people, transfers and processors in the matcher', (backend) => {
  let evalStore: EvalStore;
  let database: SharedDatabase | undefined;

  beforeAll(async () => {
    if (backend === 'postgres') database = await openBackendDatabase(backend);
    evalStore = await openEvalStore({ databaseUrl: database?.env.BRANDBASE_DATABASE_URL, held: [KORS] });
  }, 180_000);
  afterAll(async () => {
    await evalStore?.close();
    await database?.cleanup();
  });

  const match = (transactionLabel: string, countryCode: string, mcc?: string) => evalStore.matcher.match({ transactionLabel, countryCode, mcc });

  it('payments to people and between accounts answer no merchant, the intermediary least of all', async () => {
    const lines: [string, string][] = [
      ['PAYPAL *JOHNSMITH', 'US'],
      ['PAYPAL *J SMITH', 'GB'],
      ['PAYPAL *MARIAGARCIA', 'ES'],
      ['PAYPAL INST XFER 1234567 WEB ID: PAYPALSI77', 'US'],
      ['PAYPAL', 'US'],
      ['VENMO *JANE DOE', 'US'],
      ['VENMO *JOHN SMITH', 'US'],
      ['VENMO PAYMENT 1023456789 WEB ID: 3264681992', 'US'],
      ['ZELLE TO JANE DOE', 'US'],
      ['ZELLE TO ACME PLUMBING LLC', 'US'],
      ['CASH APP*MARIA GARCIA*4158523', 'US'],
      ['SQC*JOHN SMITH', 'US'],
      ['APPLE CASH SENT MONEY', 'US'],
      ['REVOLUT**1234*', 'GB'],
      ['WISE.COM', 'GB'],
      ['TRANSFERWISE', 'DE'],
      ['FASTER PAYMENT J SMITH', 'GB'],
      ['SEPA-UEBERWEISUNG MAX MUSTERMANN', 'DE'],
      ['VIR SEPA M DUPONT LOYER', 'FR'],
      ['TIKKIE ID 000123456', 'NL'],
      ['BIZUM ENVIADO A MARIA', 'ES'],
      ['BONIFICO A FAVORE DI MARIO ROSSI', 'IT'],
      ['INTERAC E-TRF 1234', 'CA'],
      ['OSKO PAYMENT J CITIZEN', 'AU'],
    ];
    for (const [label, country] of lines) {
      expect(await match(label, country), label).toBeNull();
      expect(await evalStore.matcher.bestCandidate({ transactionLabel: label, countryCode: country }), `${label}: nothing is looked up`).toBeNull();
    }
  });

  it('fees, interest, cash, cheques and pay answer no merchant, even at a merchant the alias table knows', async () => {
    for (const [label, country] of [
      ['SHELL ATM 1234', 'US'],
      ['WALMART ATM WITHDRAWAL', 'US'],
      ['MONTHLY SERVICE FEE', 'US'],
      ['INTEREST CHARGE ON PURCHASES', 'US'],
      ['CHECK #1042', 'US'],
      ['ACME CORP PAYROLL', 'US'],
      ['RETRAIT DAB 14/03 PARIS', 'FR'],
      ['KONTOFUEHRUNGSENTGELT', 'DE'],
    ] as const) {
      expect(await match(label, country), label).toBeNull();
    }
    expect(await match('PAYPAL *SPOTIFY', 'US', '4829')).toBeNull();
  });

  it('a merchant a processor carried is answered with the processor id; a seller of record, the processor itself and a direct payment carry none', async () => {
    expect(await match('PAYPAL *SPOTIFY', 'US')).toMatchObject({ domain: 'spotify.com', source: 'alias', processor: 'paypal' });
    expect(await match('PAYPAL *EBAY US', 'US')).toMatchObject({ domain: 'ebay.com', processor: 'paypal' });
    expect(await match('SQ *BLUE BOTTLE COF 4', 'US')).toMatchObject({ domain: 'bluebottlecoffee.com', source: 'brand', processor: 'square' });
    expect(await match('TST* PHILZ COFFEE - MIS', 'US')).toMatchObject({ domain: 'philzcoffee.com', processor: 'toast' });
    expect(await match('SP GLOSSIER', 'US')).toMatchObject({ domain: 'glossier.com', processor: 'shopify' });
    expect(await match('GOOGLE *YouTubePremium', 'US')).toMatchObject({ domain: 'youtube.com', processor: 'google' });
    expect(await match('VENMO *SWEETGREEN', 'US')).toMatchObject({ domain: 'sweetgreen.com', processor: 'venmo' });
    expect(await match('CASH APP*TARTINE BAKERY*123', 'US')).toMatchObject({ domain: 'tartinebakery.com', processor: 'cashapp' });
    for (const [label, domain] of [
      ['GOOGLE *Google Storage', 'google.com'],
      ['IC* COSTCO BY INSTACAR', 'instacart.com'],
      ['DD *DOORDASH BURGERKIN', 'doordash.com'],
      ['DOORDASH*CHIPOTLE', 'doordash.com'],
      ['STARBUCKS STORE 12345', 'starbucks.com'],
      ['NETFLIX.COM 866-579-7172 CA', 'netflix.com'],
    ] as const) {
      const found = await match(label, 'US');
      expect(found?.domain, label).toBe(domain);
      expect(found?.processor, label).toBeUndefined();
    }
  });

  it('behind a facilitator a person-looking payee is answered only through the alias table; a held brand named after a person is not', async () => {
    expect((await match('MICHAEL KORS #1234 NEW YORK NY', 'US'))?.domain).toBe('michaelkors.com');
    expect(await match('SQ *MICHAEL KORS', 'US')).toBeNull();
    expect(await match('PAYPAL *MICHAELKORS', 'US')).toBeNull();
    // The alias table names John Lewis in Great Britain: there a PayPal checkout of it is the department store.
    expect(await match('PAYPAL *JOHN LEWIS', 'GB')).toMatchObject({ domain: 'johnlewis.com', source: 'alias', processor: 'paypal' });
    expect(await match('PAYPAL *JOHN LEWIS', 'US')).toBeNull();
  });

  it('after an intermediary that also pays people, a name in the index must be strong; after a card reader it need not', async () => {
    // Monmouth Coffee Company found as "MONMOUTH": 0.94, under the 0.95 an intermediary of people needs.
    const viaReader = await match('SUMUP *MONMOUTH', 'GB');
    expect(viaReader).toMatchObject({ domain: 'monmouthcoffee.co.uk', processor: 'sumup' });
    expect(viaReader?.confidence).toBeLessThan(0.95);
    expect(await match('PAYPAL *MONMOUTH', 'GB')).toBeNull();
  });
});
