import { describe } from 'vitest';
import { storeContract } from './store.contract.js';
import { PG_URL, tempPostgres } from './temp-database.js';

// Runs when BRANDBASE_TEST_PG_URL points at a PostgreSQL the suite may create and drop schemas in.
describe.skipIf(PG_URL === undefined)('PostgreSQL store', () => {
  storeContract('PostgreSQL (fresh schema)', () => tempPostgres(PG_URL ?? ''));
});
