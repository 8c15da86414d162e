import { describe } from 'vitest';
import { PG_URL, tempPostgres } from '../store/temp-database.js';
import { billingSuite } from './billing.suite.js';

// Runs when BRANDBASE_TEST_PG_URL points at a PostgreSQL the suite may create and drop schemas in.
describe.skipIf(PG_URL === undefined)('Billing on PostgreSQL', () => {
  billingSuite('PostgreSQL (fresh schema)', () => tempPostgres(PG_URL ?? ''), { concurrentPeers: true });
});
