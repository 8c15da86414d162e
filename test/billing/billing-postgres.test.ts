import { describe } from 'vitest';
import { NEEDS_POSTGRES, PG_URL, tempPostgres } from '../store/temp-database.js';
import { billingSuite } from './billing.suite.js';

// Runs when a PostgreSQL answers (BRANDBASE_TEST_PG_URL or the default local server; test/setup/global-setup.ts).
describe.skipIf(PG_URL === undefined)('Billing on PostgreSQL', NEEDS_POSTGRES, () => {
  billingSuite('PostgreSQL (fresh schema)', () => tempPostgres(PG_URL ?? ''), { concurrentPeers: true });
});
