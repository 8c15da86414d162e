/**
 * The transaction-matching gate of issue 21 ("What it must show"): the labelled descriptors of eval/transactions/
 * scored on a fresh store (embedded reference data + held brands), precision on answered ≥ 97% and recall ≥ 85%,
 * on SQLite and on PostgreSQL when one is reachable. Also what the confidence must do with the country and the MCC.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEvalStore, type EvalStore } from '../../eval/transactions/eval-store.js';
import { scoreDescriptors } from '../../eval/transactions/score.js';
import { DESCRIPTORS } from '../../eval/transactions/descriptors.js';
import { PRECISION_TARGET, RECALL_TARGET } from '../../eval/transactions/suite.js';
import { sharedPostgres, type SharedDatabase } from '../helpers/shared-database.js';
import { POSTGRES_URL, needsPostgres } from '../helpers/optional.js';

const pgUrl = POSTGRES_URL;

function backendSuite(name: string, open: () => Promise<{ evalStore: EvalStore; cleanup?: () => Promise<void> }>): void {
  describe(`transaction matching on ${name}`, { timeout: 180_000 }, () => {
    let evalStore: EvalStore;
    let cleanup: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      ({ evalStore, cleanup } = await open());
    }, 180_000);
    afterAll(async () => {
      await evalStore?.close();
      await cleanup?.();
    });

    it('the labelled list meets the issue targets', async () => {
      expect(DESCRIPTORS.length).toBeGreaterThanOrEqual(150);
      expect(DESCRIPTORS.filter((d) => d.expected === null).length).toBeGreaterThanOrEqual(20);
      expect(new Set(DESCRIPTORS.map((d) => d.countryCode)).size).toBeGreaterThanOrEqual(8);
      const score = await scoreDescriptors(evalStore.matcher);
      expect(score.failures.filter((f) => f.startsWith('WRONG'))).toEqual([]);
      expect(score.precision).toBeGreaterThanOrEqual(PRECISION_TARGET);
      expect(score.recall).toBeGreaterThanOrEqual(RECALL_TARGET);
    });

    it('a held brand is found by a cut name; the country and the MCC move the confidence', async () => {
      const m = evalStore.matcher;
      expect(await m.match({ transactionLabel: 'SQ *BLUE BOTTLE COF 4', countryCode: 'US' })).toMatchObject({ domain: 'bluebottlecoffee.com', source: 'brand' });
      expect((await m.match({ transactionLabel: 'WOOLWORTHS 1234', countryCode: 'AU' }))?.domain).toBe('woolworths.com.au');
      expect((await m.match({ transactionLabel: 'WOOLWORTHS 1234', countryCode: 'ZA' }))?.domain).toBe('woolworths.co.za');
      expect(await m.match({ transactionLabel: 'WOOLWORTHS 1234', countryCode: 'US' })).toBeNull();
      expect((await m.match({ transactionLabel: 'SHELL 5541', countryCode: 'US', mcc: '5541' }))?.domain).toBe('shell.com');
      const refused = await m.bestCandidate({ transactionLabel: 'SHELL 5541', countryCode: 'US', mcc: '5812' });
      expect(refused?.confidence).toBeLessThan(m.threshold);
    });

    it('a name known only from the reference data matches through the name index', async () => {
      expect(await evalStore.matcher.match({ transactionLabel: 'TRACTOR SUPPLY #1234', countryCode: 'US' })).toMatchObject({ domain: 'tractorsupply.com', source: 'listing' });
    });
  });
}

backendSuite('SQLite', async () => ({ evalStore: await openEvalStore() }));

// Runs when a PostgreSQL answers (BRANDBASE_TEST_PG_URL or the default local server; test/setup/global-setup.ts).
needsPostgres.describe('PostgreSQL', () => {
  backendSuite('PostgreSQL', async () => {
    const db: SharedDatabase = await sharedPostgres(pgUrl ?? '');
    return { evalStore: await openEvalStore({ databaseUrl: db.env.BRANDBASE_DATABASE_URL }), cleanup: () => db.cleanup() };
  });
});
